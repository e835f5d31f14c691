// The Secrets a pod refers to (podutil.VisitPodSecretNames): image pull
// secrets, env and envFrom of every container kind, secret and projected
// volumes, and the secret references of volume sources that take one.
// The legacy token cleaner never invalidates a token a pod still mounts.

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from '../job/json';

const SECRET_REF_SOURCES: readonly (readonly [string, string])[] = [
  ['azureFile', 'secretName'],
  ['cephfs', 'secretRef'],
  ['cinder', 'secretRef'],
  ['flexVolume', 'secretRef'],
  ['rbd', 'secretRef'],
  ['scaleIO', 'secretRef'],
  ['iscsi', 'secretRef'],
  ['storageos', 'secretRef'],
  ['csi', 'nodePublishSecretRef'],
];

export function podSecretNames(pod: KubeObject): Set<string> {
  const names = new Set<string>();
  const add = (name: unknown) => {
    if (str(name)) names.add(str(name));
  };
  const spec = rec(pod.spec);
  for (const ref of arr(spec.imagePullSecrets)) add(rec(ref).name);
  for (const list of [spec.initContainers, spec.containers, spec.ephemeralContainers]) {
    for (const c of arr(list).map(rec)) {
      for (const from of arr(c.envFrom)) add(rec(rec(from).secretRef).name);
      for (const env of arr(c.env)) add(rec(rec(rec(env).valueFrom).secretKeyRef).name);
    }
  }
  for (const volume of arr(spec.volumes).map(rec)) {
    add(rec(volume.secret).secretName);
    for (const source of arr(rec(volume.projected).sources)) add(rec(rec(source).secret).name);
    for (const [kind, field] of SECRET_REF_SOURCES) {
      const src = rec(volume[kind]);
      add(field === 'secretName' ? src[field] : rec(src[field]).name);
    }
  }
  return names;
}
