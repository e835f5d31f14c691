// DefaultStorageClass: a PersistentVolumeClaim created with no class (neither
// spec.storageClassName, not even "", nor the beta annotation) gets the
// cluster's default StorageClass, when there is one.

import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { newestDefault } from './default-class';
import { onlyWhen } from './only-when';
import { isObj } from './pod-helpers';

const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
const IS_DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const IS_DEFAULT_BETA = 'storageclass.beta.kubernetes.io/is-default-class';

async function admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'persistentvolumeclaims' || attrs.subresource) return;
  const pvc = attrs.object;
  if (!pvc) return;
  if (pvc.metadata?.annotations?.[BETA_CLASS_ANNOTATION] !== undefined) return;
  if (!isObj(pvc['spec'])) pvc['spec'] = {};
  const spec = pvc['spec'] as Record<string, unknown>;
  // An explicit "" asks for no class at all.
  if (spec['storageClassName'] !== undefined && spec['storageClassName'] !== null) return;
  const classes = await ctx.reader.list({ group: 'storage.k8s.io', resource: 'storageclasses' }, '');
  const annotated = (c: (typeof classes)[number]) => c.metadata?.annotations?.[IS_DEFAULT] === 'true' || c.metadata?.annotations?.[IS_DEFAULT_BETA] === 'true';
  const def = newestDefault(classes, annotated);
  if (def) spec['storageClassName'] = def.metadata?.name;
}

export function defaultStorageClass(): AdmissionPlugin {
  return {
    name: 'DefaultStorageClass',
    handles: (op) => op === 'CREATE',
    admit: onlyWhen((attrs) => attrs.resource.group === '' && attrs.resource.resource === 'persistentvolumeclaims' && !attrs.subresource, admit),
  };
}
