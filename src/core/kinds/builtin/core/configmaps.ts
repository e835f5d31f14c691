// core/v1 configmaps: key names, the 1 MiB total, `immutable` freezing data
// and binaryData, the DATA column.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { isConfigMapKey } from '../../validation/names';
import { tooLongBytes } from '../../validation/object-meta';
import { decodedBase64Length } from '../common/base64';
import { defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, rec, table } from '../common/table';
import { utf8Length } from '../../../util/go/strings';

/** MaxSecretSize, also the ConfigMap limit. */
export const MAX_CONFIG_SIZE = 1024 * 1024;

export const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

function validateConfigMap(cm: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = rec(cm.data);
  const binaryData = rec(cm.binaryData);
  let total = 0;
  for (const key of Object.keys(data).sort()) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(`data[${key}]`, key, msg));
    if (Object.hasOwn(binaryData, key)) errs.push(fieldErrors.invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    total += utf8Length(String(data[key] ?? ''));
  }
  for (const key of Object.keys(binaryData).sort()) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(`binaryData[${key}]`, key, msg));
    total += decodedBase64Length(String(binaryData[key] ?? '')) ?? 0;
  }
  if (total > MAX_CONFIG_SIZE) errs.push(tooLongBytes('', MAX_CONFIG_SIZE));
  return errs;
}

function validateConfigMapUpdate(cm: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable === true) {
    if (cm.immutable !== true) errs.push(fieldErrors.forbidden('immutable', IMMUTABLE_WHEN_SET));
    if (!deepEqual(cm.data ?? {}, old.data ?? {})) errs.push(fieldErrors.forbidden('data', IMMUTABLE_WHEN_SET));
    if (!deepEqual(cm.binaryData ?? {}, old.binaryData ?? {})) errs.push(fieldErrors.forbidden('binaryData', IMMUTABLE_WHEN_SET));
  }
  return errs;
}

export const CONFIGMAP_TABLE = table([col('Data', 'string', 'Number of keys in data and binaryData'), AGE_COLUMN], (o, now) => [
  Object.keys(rec(o.data)).length + Object.keys(rec(o.binaryData)).length,
  age(o, now),
]);

export const configMapsResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  shortNames: ['cm'],
  versions: [version('v1', 'io.k8s.api.core.v1.ConfigMap', { table: CONFIGMAP_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    validate: (obj) => validateConfigMap(obj),
    updateValidatesNew: false,
    // ValidateConfigMapUpdate checks immutability first, then the new object.
    validateUpdate: (obj, old) => [...validateConfigMapUpdate(obj, old), ...validateConfigMap(obj)],
  }),
});
