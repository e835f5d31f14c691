// StorageObjectInUseProtection: every PersistentVolume and
// PersistentVolumeClaim is created with its protection finalizer, which the
// pv/pvc-protection controllers remove once nothing uses the object.

import type { AdmissionAttributes, AdmissionPlugin } from '../types';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

function admit(attrs: AdmissionAttributes): void {
  if (attrs.resource.group !== '' || attrs.subresource || !attrs.object) return;
  const finalizer =
    attrs.resource.resource === 'persistentvolumeclaims' ? PVC_PROTECTION_FINALIZER : attrs.resource.resource === 'persistentvolumes' ? PV_PROTECTION_FINALIZER : '';
  if (!finalizer) return;
  const meta = (attrs.object.metadata ??= {});
  const finalizers = meta.finalizers ?? [];
  if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
}

export function storageObjectInUseProtection(): AdmissionPlugin {
  return { name: 'StorageObjectInUseProtection', handles: (op) => op === 'CREATE', admit };
}
