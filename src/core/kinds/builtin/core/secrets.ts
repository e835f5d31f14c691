// core/v1 secrets: type Opaque by default, stringData folded into data, key
// names and the 1 MiB total, the keys each well-known type requires, type and
// `immutable` data frozen on update, the TYPE and DATA columns and the `type`
// field selector.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { isConfigMapKey } from '../../validation/names';
import { tooLongBytes, validateImmutableField } from '../../validation/object-meta';
import { decodeBase64, decodedBase64Length, encodeBase64String } from '../common/base64';
import { defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, rec, str, table } from '../common/table';
import { IMMUTABLE_WHEN_SET, MAX_CONFIG_SIZE } from './configmaps';

const REDACTED = '<secret contents redacted>';

/** SetDefaults_Secret plus the v1 conversion that writes stringData into data. */
function defaultSecret(secret: KubeObject): void {
  if (!secret.type) secret.type = 'Opaque';
  const stringData = rec(secret.stringData);
  if (secret.stringData !== undefined) {
    const data = { ...rec(secret.data) };
    for (const [k, v] of Object.entries(stringData)) data[k] = encodeBase64String(String(v ?? ''));
    if (Object.keys(data).length) secret.data = data;
    delete secret.stringData;
  }
}

function jsonParseError(base64: unknown): string | undefined {
  const bytes = decodeBase64(String(base64 ?? ''));
  const text = bytes ? new TextDecoder().decode(bytes) : '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'json: cannot unmarshal into Go value of type map[string]interface {}';
    return undefined;
  } catch {
    return text.length === 0 ? 'unexpected end of JSON input' : 'invalid character in JSON input';
  }
}

function validateSecret(secret: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = rec(secret.data);
  let total = 0;
  for (const key of Object.keys(data).sort()) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(`data[${key}]`, key, msg));
    total += decodedBase64Length(String(data[key] ?? '')) ?? 0;
  }
  if (total > MAX_CONFIG_SIZE) errs.push(tooLongBytes('data', MAX_CONFIG_SIZE));
  const has = (k: string) => Object.prototype.hasOwnProperty.call(data, k);
  switch (str(secret.type)) {
    case 'kubernetes.io/service-account-token':
      if (!secret.metadata?.annotations?.['kubernetes.io/service-account.name']) {
        errs.push(fieldErrors.required('metadata.annotations[kubernetes.io/service-account.name]'));
      }
      break;
    case 'kubernetes.io/dockercfg': {
      if (!has('.dockercfg')) {
        errs.push(fieldErrors.required('data[.dockercfg]'));
        break;
      }
      const err = jsonParseError(data['.dockercfg']);
      if (err) errs.push(fieldErrors.invalid('data[.dockercfg]', REDACTED, err));
      break;
    }
    case 'kubernetes.io/dockerconfigjson': {
      if (!has('.dockerconfigjson')) {
        errs.push(fieldErrors.required('data[.dockerconfigjson]'));
        break;
      }
      const err = jsonParseError(data['.dockerconfigjson']);
      if (err) errs.push(fieldErrors.invalid('data[.dockerconfigjson]', REDACTED, err));
      break;
    }
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) {
        errs.push(fieldErrors.required('data[username]'));
        errs.push(fieldErrors.required('data[password]'));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (!str(data['ssh-privatekey'])) errs.push(fieldErrors.required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(fieldErrors.required('data[tls.crt]'));
      if (!has('tls.key')) errs.push(fieldErrors.required('data[tls.key]'));
      break;
    default:
      break;
  }
  return errs;
}

function validateSecretUpdate(secret: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateImmutableField(secret.type ?? '', old.type ?? '', 'type'));
  if (old.immutable === true) {
    if (secret.immutable !== true) errs.push(fieldErrors.forbidden('immutable', IMMUTABLE_WHEN_SET));
    if (!deepEqual(secret.data ?? {}, old.data ?? {})) errs.push(fieldErrors.forbidden('data', IMMUTABLE_WHEN_SET));
  }
  return errs;
}

export const SECRET_TABLE = table(
  [col('Type', 'string', 'Secret type'), col('Data', 'string', 'Number of keys in data'), AGE_COLUMN],
  (o, now) => [str(o.type), Object.keys(rec(o.data)).length, age(o, now)],
);

export const secretsResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'secrets',
  kind: 'Secret',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.core.v1.Secret', { table: SECRET_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    default: (obj) => defaultSecret(obj),
    validate: (obj) => validateSecret(obj),
    updateValidatesNew: false,
    validateUpdate: (obj, old) => [...validateSecretUpdate(obj, old), ...validateSecret(obj)],
  }),
  fieldSelectors: { type: (o) => str(o.type) },
});
