// What a pod spec refers to, for NodeRestriction's rule that a node may only
// create mirror pods that reference no other API object: the secret and
// config map names kube's pod visitors (VisitPodSecretNames,
// VisitPodConfigmapNames over all containers: init, regular, ephemeral)
// would visit. Only whether there is one matters, not the names.

import type { KubeObject } from '../../kinds/types';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Obj => !!x) : []);
const has = (v: unknown): boolean => obj(v) !== undefined;

function containers(spec: Obj): Obj[] {
  return [...arr(spec['initContainers']), ...arr(spec['containers']), ...arr(spec['ephemeralContainers'])];
}

/** Volume sources that name a Secret (kube's list: secret, projected secret, and the plugins' secretRefs). */
const SECRET_REF_SOURCES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

export function podReferencesSecrets(pod: KubeObject): boolean {
  const spec = obj(pod['spec']) ?? {};
  if (Array.isArray(spec['imagePullSecrets']) && spec['imagePullSecrets'].length > 0) return true;
  for (const c of containers(spec)) {
    if (arr(c['envFrom']).some((e) => has(e['secretRef']))) return true;
    if (arr(c['env']).some((e) => has(obj(e['valueFrom'])?.['secretKeyRef']))) return true;
  }
  for (const v of arr(spec['volumes'])) {
    if (has(v['secret']) || has(v['azureFile'])) return true;
    if (SECRET_REF_SOURCES.some((s) => has(obj(v[s])?.['secretRef']))) return true;
    if (has(obj(v['csi'])?.['nodePublishSecretRef'])) return true;
    if (arr(obj(v['projected'])?.['sources']).some((s) => has(s['secret']))) return true;
  }
  return false;
}

export function podReferencesConfigMaps(pod: KubeObject): boolean {
  const spec = obj(pod['spec']) ?? {};
  for (const c of containers(spec)) {
    if (arr(c['envFrom']).some((e) => has(e['configMapRef']))) return true;
    if (arr(c['env']).some((e) => has(obj(e['valueFrom'])?.['configMapKeyRef']))) return true;
  }
  for (const v of arr(spec['volumes'])) {
    if (has(v['configMap'])) return true;
    if (arr(obj(v['projected'])?.['sources']).some((s) => has(s['configMap']))) return true;
  }
  return false;
}

export function podReferencesClusterTrustBundles(pod: KubeObject): boolean {
  const spec = obj(pod['spec']) ?? {};
  return arr(spec['volumes']).some((v) => arr(obj(v['projected'])?.['sources']).some((s) => has(s['clusterTrustBundle'])));
}

export function podReferencesPersistentVolumeClaims(pod: KubeObject): boolean {
  const spec = obj(pod['spec']) ?? {};
  return arr(spec['volumes']).some((v) => has(v['persistentVolumeClaim']));
}
