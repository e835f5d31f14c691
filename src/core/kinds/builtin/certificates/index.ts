// certificates.k8s.io: certificatesigningrequests (v1) with the approval and
// status subresources, the requesting user recorded on create, and
// clustertrustbundles (v1alpha1, off by default in 1.32).

import { fieldErrors, GoLiteral, type FieldError } from '../../../errors/field-errors';
import { rfc3339 } from '../../../clock';
import type { KubeObject, ResourceDefinition, StrategyContext } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { isQualifiedName } from '../../validation/names';
import { defineResource, GET_PATCH_UPDATE, statusSubresource, version } from '../common/define';
import { decodeBase64 } from '../common/base64';
import { humanDuration } from '../common/human-duration';
import { clone, standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, rec, str, table } from '../common/table';

type Obj = Record<string, unknown>;

const KEY_USAGES = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only', 'digital signature',
  'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement', 'key encipherment', 'microsoft sgc',
  'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];

/** The CSR records who asked, whatever the client sent. */
function recordRequester(csr: KubeObject, ctx: StrategyContext): void {
  const spec = rec(csr.spec);
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (ctx.user) {
    spec.username = ctx.user.username;
    if (ctx.user.uid) spec.uid = ctx.user.uid;
    if (ctx.user.groups?.length) spec.groups = [...ctx.user.groups];
    if (ctx.user.extra && Object.keys(ctx.user.extra).length) spec.extra = clone(ctx.user.extra);
  }
  csr.spec = spec;
}

function validateCSR(csr: KubeObject): FieldError[] {
  const spec = rec(csr.spec);
  const errs: FieldError[] = [];
  const request = str(spec.request);
  const bytes = decodeBase64(request);
  const pem = bytes ? new TextDecoder().decode(bytes) : '';
  if (!/-----BEGIN CERTIFICATE REQUEST-----/.test(pem)) {
    errs.push(fieldErrors.invalid('spec.request', new GoLiteral(`[]byte{${bytes ? Array.from(bytes).map((b) => `0x${b.toString(16)}`).join(', ') : ''}}`), 'PEM block type must be CERTIFICATE REQUEST'));
  }
  const signerName = str(spec.signerName);
  if (!signerName) errs.push(fieldErrors.required('spec.signerName'));
  else {
    const parts = signerName.split('/');
    if (parts.length !== 2) errs.push(fieldErrors.invalid('spec.signerName', signerName, 'must be a fully qualified domain and path of the form \'example.com/signer-name\''));
    else for (const msg of isQualifiedName(signerName)) errs.push(fieldErrors.invalid('spec.signerName', signerName, msg));
  }
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(fieldErrors.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  arr(spec.usages).forEach((u, i) => {
    if (!KEY_USAGES.includes(String(u))) errs.push(fieldErrors.notSupported(`spec.usages[${i}]`, u, KEY_USAGES));
  });
  return errs;
}

function validateConditions(csr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const conditions = arr(rec(csr.status).conditions).map(rec);
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((c, i) => {
    const type = str(c.type);
    if (!type) errs.push(fieldErrors.required(`status.conditions[${i}].type`));
    if (seen.has(type) && (type === 'Approved' || type === 'Denied' || type === 'Failed')) errs.push(fieldErrors.forbidden(`status.conditions[${i}].type`, `${type} condition may only be set once`));
    seen.add(type);
    if (!['True', 'False', 'Unknown'].includes(str(c.status))) errs.push(fieldErrors.notSupported(`status.conditions[${i}].status`, c.status ?? '', ['False', 'True', 'Unknown']));
    if ((type === 'Approved' || type === 'Denied') && c.status !== 'True') errs.push(fieldErrors.notSupported(`status.conditions[${i}].status`, c.status, ['True']));
    if (type === 'Approved') approved = true;
    if (type === 'Denied') denied = true;
  });
  if (approved && denied) errs.push(fieldErrors.invalid('status.conditions', new GoLiteral('[]certificates.CertificateSigningRequestCondition{…}'), 'Approved and Denied conditions are mutually exclusive'));
  return errs;
}

/**
 * kube's populateConditionTimestamps: a condition written without
 * lastUpdateTime gets now; without lastTransitionTime it keeps the one of the
 * same type and status it had, else now (the CSR cleaner ages requests by them).
 */
function populateConditionTimestamps(obj: KubeObject, old: KubeObject, now: string): void {
  const before = arr(rec(old.status).conditions).map(rec);
  const conditions = arr(rec(obj.status).conditions).map((c) => {
    const condition = { ...rec(c) };
    if (!str(condition.lastUpdateTime)) condition.lastUpdateTime = now;
    if (!str(condition.lastTransitionTime)) {
      const same = before.find((b) => b.type === condition.type && b.status === condition.status && str(b.lastTransitionTime));
      condition.lastTransitionTime = same ? same.lastTransitionTime : now;
    }
    return condition;
  });
  if (conditions.length) obj.status = { ...rec(obj.status), conditions };
}

function csrCondition(csr: KubeObject): string {
  const types = new Set(arr(rec(csr.status).conditions).map((c) => str(rec(c).type)));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (str(rec(csr.status).certificate)) status += ',Issued';
  return status;
}

export const CSR_TABLE = table(
  [
    AGE_COLUMN,
    col('SignerName', 'string', 'Signer asked to sign'),
    col('Requestor', 'string', 'User who made the request'),
    col('RequestedDuration', 'string', 'Validity asked for the certificate'),
    col('Condition', 'string', 'Approval and issue state'),
  ],
  (csr, now) => {
    const spec = rec(csr.spec);
    const duration = typeof spec.expirationSeconds === 'number' ? humanDuration(spec.expirationSeconds * 1000) : '<none>';
    return [age(csr, now), str(spec.signerName) || '<none>', str(spec.username), duration, csrCondition(csr)];
  },
);

export const certificateSigningRequestsResource: ResourceDefinition = defineResource({
  group: 'certificates.k8s.io',
  plural: 'certificatesigningrequests',
  kind: 'CertificateSigningRequest',
  namespaced: false,
  shortNames: ['csr'],
  versions: [version('v1', 'io.k8s.api.certificates.v1.CertificateSigningRequest', { table: CSR_TABLE })],
  subresources: [{ name: 'approval', kind: 'CertificateSigningRequest', verbs: GET_PATCH_UPDATE, type: 'status', fields: ['status'] }, statusSubresource('CertificateSigningRequest')],
  strategy: standardStrategy({
    namespaced: false,
    statusFields: ['status'],
    initialStatus: () => ({}),
    prepareForCreate: (obj, ctx) => recordRequester(obj, ctx),
    prepareForUpdate(obj, old) {
      // The spec is immutable, and only the subresources change the status.
      obj.spec = clone(old.spec);
    },
    prepareForSubresourceUpdate(sub, obj, old, ctx) {
      if (sub !== 'approval') return;
      // approval changes only the Approved/Denied conditions; everything else stays.
      obj.spec = clone(old.spec);
      const conditions = arr(rec(obj.status).conditions);
      obj.status = { ...rec(clone(old.status)), conditions };
      if (!conditions.length) delete (obj.status as Obj).conditions;
      populateConditionTimestamps(obj, old, rfc3339(ctx.clock.now()));
    },
    prepareForStatusUpdate: (obj, old, ctx) => populateConditionTimestamps(obj, old, rfc3339(ctx.clock.now())),
    validate: (o) => validateCSR(o),
    validateUpdate: (o) => validateConditions(o),
    validateStatusUpdate: (o, old) => {
      const errs = validateConditions(o);
      const cert = str(rec(o.status).certificate);
      const oldCert = str(rec(old.status).certificate);
      if (oldCert && cert !== oldCert) errs.push(fieldErrors.forbidden('status.certificate', 'updates may not modify existing certificate content'));
      return errs;
    },
    validateSubresourceUpdate: (_sub, o, old) => {
      const errs = validateConditions(o);
      const before = arr(rec(old.status).conditions).map((c) => str(rec(c).type));
      const after = arr(rec(o.status).conditions).map((c) => str(rec(c).type));
      for (const t of ['Approved', 'Denied']) {
        if (before.includes(t) && !after.includes(t)) errs.push(fieldErrors.forbidden('status.conditions', `updates may not remove a condition of type "${t}"`));
      }
      return errs;
    },
  }),
});

export const clusterTrustBundlesResource: ResourceDefinition = defineResource({
  group: 'certificates.k8s.io',
  plural: 'clustertrustbundles',
  kind: 'ClusterTrustBundle',
  namespaced: false,
  versions: [
    {
      ...version('v1alpha1', 'io.k8s.api.certificates.v1alpha1.ClusterTrustBundle', {
        table: table([col('SignerName', 'string', 'Signer asked to sign')], (o) => [str(rec(o.spec).signerName) || '<none>']),
      }),
      enabledByDefault: false,
    },
  ],
  strategy: standardStrategy({
    namespaced: false,
    validate: (o) => (!str(rec(o.spec).trustBundle) ? [fieldErrors.required('spec.trustBundle')] : []),
    validateUpdate: (o, old) => (deepEqual(rec(o.spec).signerName, rec(old.spec).signerName) ? [] : [fieldErrors.invalid('spec.signerName', rec(o.spec).signerName, 'field is immutable')]),
  }),
});

export function certificatesResources(): ResourceDefinition[] {
  return [certificateSigningRequestsResource, clusterTrustBundlesResource];
}
