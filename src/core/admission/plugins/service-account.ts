// ServiceAccount: every pod runs as a service account ("default" unless it
// names one), the account must exist, and unless the pod or the account opts
// out (automountServiceAccountToken: false) every container and init
// container mounts a projected kube-api-access-<5 chars> volume (a bound
// token, the cluster CA and the namespace) read-only at
// /var/run/secrets/kubernetes.io/serviceaccount. Ephemeral containers do not
// get the mount. The account's imagePullSecrets become the pod's when it has
// none. Mirror pods may reference no service account, secret or token.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { onlyWhen } from './only-when';
import { isMirrorPod, isObj, isPodRequest, objs, podOf, type Obj } from './pod-helpers';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const SERVICE_ACCOUNT_VOLUME_PREFIX = 'kube-api-access-';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: one hour and seven seconds, so tokens are recognisable as auto-mounted. */
export const TOKEN_EXPIRATION_SECONDS = 3607;

/** The projected source kube's TokenVolumeSource builds, fields in the Go types' order. */
export function tokenVolumeSource(): Obj {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 420,
  };
}

async function lookupServiceAccount(attrs: AdmissionAttributes, ctx: AdmissionContext, name: string): Promise<KubeObject> {
  const sa = await ctx.reader.get({ group: '', resource: 'serviceaccounts' }, attrs.namespace, name);
  if (sa) return sa;
  // kube's error names the resource in the singular here.
  const notFound = errors.notFound({ group: '', resource: 'serviceaccount' }, name);
  throw admissionForbidden(attrs, `error looking up service account ${attrs.namespace}/${name}: ${notFound.message}`);
}

function shouldAutomount(sa: KubeObject, spec: Obj): boolean {
  if (typeof spec['automountServiceAccountToken'] === 'boolean') return spec['automountServiceAccountToken'];
  if (typeof sa['automountServiceAccountToken'] === 'boolean') return sa['automountServiceAccountToken'];
  return true;
}

function mountToken(spec: Obj, randomString: (n: number) => string): void {
  const volumes = objs(spec['volumes']);
  const existing = volumes.find((v) => typeof v['name'] === 'string' && v['name'].startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX));
  const volumeName = existing ? (existing['name'] as string) : SERVICE_ACCOUNT_VOLUME_PREFIX + randomString(5);
  let needsVolume = false;
  for (const field of ['initContainers', 'containers']) {
    for (const container of objs(spec[field])) {
      const mounts = objs(container['volumeMounts']);
      // A mount of its own at the token path keeps the container as it is.
      if (mounts.some((m) => m['mountPath'] === TOKEN_MOUNT_PATH)) continue;
      container['volumeMounts'] = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needsVolume = true;
    }
  }
  if (!existing && needsVolume) spec['volumes'] = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}

/** v1's deprecated spec.serviceAccount mirrors serviceAccountName (kube's conversion fills one from the other). */
function syncDeprecatedField(spec: Obj): void {
  if (!spec['serviceAccountName'] && typeof spec['serviceAccount'] === 'string' && spec['serviceAccount']) {
    spec['serviceAccountName'] = spec['serviceAccount'];
  }
  if (spec['serviceAccountName']) spec['serviceAccount'] = spec['serviceAccountName'];
  else delete spec['serviceAccount'];
}

async function admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const pod = podOf(attrs);
  if (!pod) return;
  const spec = pod.spec;
  syncDeprecatedField(spec);
  if (attrs.operation !== 'CREATE' || isMirrorPod(pod)) return;
  if (!spec['serviceAccountName']) spec['serviceAccountName'] = DEFAULT_SERVICE_ACCOUNT;
  syncDeprecatedField(spec);
  const sa = await lookupServiceAccount(attrs, ctx, spec['serviceAccountName'] as string);
  if (shouldAutomount(sa, spec)) mountToken(spec, ctx.randomString);
  const pullSecrets = objs(spec['imagePullSecrets']);
  const saPullSecrets = objs(sa['imagePullSecrets']);
  if (pullSecrets.length === 0 && saPullSecrets.length) spec['imagePullSecrets'] = saPullSecrets.map((s) => ({ name: s['name'] }));
}

function referencesSecrets(spec: Obj): boolean {
  if (objs(spec['imagePullSecrets']).length) return true;
  for (const v of objs(spec['volumes'])) {
    if (isObj(v['secret'])) return true;
    for (const key of ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos', 'csi']) {
      const source = v[key];
      if (isObj(source) && (isObj(source['secretRef']) || isObj(source['nodePublishSecretRef']) || typeof source['secretName'] === 'string')) return true;
    }
    if (isObj(v['projected']) && objs(v['projected']['sources']).some((s) => isObj(s['secret']))) return true;
  }
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of objs(spec[field])) {
      if (objs(c['envFrom']).some((e) => isObj(e['secretRef']))) return true;
      if (objs(c['env']).some((e) => isObj(e['valueFrom']) && isObj(e['valueFrom']['secretKeyRef']))) return true;
    }
  }
  return false;
}

async function validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const pod = podOf(attrs);
  if (!pod || attrs.operation !== 'CREATE') return;
  const spec = pod.spec;
  if (isMirrorPod(pod)) {
    if (spec['serviceAccountName']) throw admissionForbidden(attrs, 'a mirror pod may not reference service accounts');
    if (referencesSecrets(spec)) throw admissionForbidden(attrs, 'a mirror pod may not reference secrets');
    for (const v of objs(spec['volumes'])) {
      const sources = isObj(v['projected']) ? objs(v['projected']['sources']) : [];
      if (sources.some((s) => isObj(s['serviceAccountToken']))) {
        throw admissionForbidden(attrs, 'a mirror pod may not use ServiceAccountToken volume projections');
      }
      if (sources.some((s) => isObj(s['clusterTrustBundle']))) throw admissionForbidden(attrs, 'a mirror pod may not use ClusterTrustBundle projections');
    }
    return;
  }
  const name = spec['serviceAccountName'];
  if (!name) throw admissionForbidden(attrs, `no service account specified for pod ${attrs.namespace}/${pod.metadata?.name ?? ''}`);
  await lookupServiceAccount(attrs, ctx, name as string);
}

export function serviceAccount(): AdmissionPlugin {
  return { name: 'ServiceAccount', handles: (op) => op === 'CREATE' || op === 'UPDATE', admit: onlyWhen(isPodRequest, admit), validate: onlyWhen(isPodRequest, validate) };
}
