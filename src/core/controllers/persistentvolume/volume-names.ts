// The names kube's persistent-volume machinery agrees on: resources,
// annotations the PV controller, the scheduler and external provisioners
// write on claims and volumes, and the event reasons `kubectl describe`
// shows (pkg/controller/volume/events, storage helpers).

import type { GroupVersionResource } from '../client/resource-path';

export const PVCS: GroupVersionResource = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
export const PVS: GroupVersionResource = { group: '', version: 'v1', resource: 'persistentvolumes' };
export const STORAGE_CLASSES: GroupVersionResource = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' };
export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
export const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };

export const ANN = {
  /** On a claim: the PV controller finished binding it. */
  bindCompleted: 'pv.kubernetes.io/bind-completed',
  /** On a claim or volume: the binding was made by the controller, not the user. */
  boundByController: 'pv.kubernetes.io/bound-by-controller',
  /** On a volume: the provisioner that made it. */
  provisionedBy: 'pv.kubernetes.io/provisioned-by',
  /** On a claim: the provisioner expected to provision it (both spellings are written). */
  storageProvisioner: 'volume.kubernetes.io/storage-provisioner',
  betaStorageProvisioner: 'volume.beta.kubernetes.io/storage-provisioner',
  /** On a claim: the node the scheduler chose for a WaitForFirstConsumer claim. */
  selectedNode: 'volume.kubernetes.io/selected-node',
  /** The storage class before spec.storageClassName existed. */
  betaStorageClass: 'volume.beta.kubernetes.io/storage-class',
  isDefaultClass: 'storageclass.kubernetes.io/is-default-class',
} as const;

/** Event reasons of the PV controller and of external provisioners. */
export const REASON = {
  failedBinding: 'FailedBinding',
  volumeMismatch: 'VolumeMismatch',
  claimLost: 'ClaimLost',
  claimMisbound: 'ClaimMisbound',
  waitForFirstConsumer: 'WaitForFirstConsumer',
  externalProvisioning: 'ExternalProvisioning',
  provisioningFailed: 'ProvisioningFailed',
  provisioning: 'Provisioning',
  provisioningSucceeded: 'ProvisioningSucceeded',
  volumeFailedDelete: 'VolumeFailedDelete',
  volumeFailedRecycle: 'VolumeFailedRecycle',
  volumeDelete: 'VolumeDelete',
} as const;

/** The PV controller's event source (kube's persistentvolume-controller). */
export const PV_CONTROLLER_COMPONENT = 'persistentvolume-controller';
/** kube's --pvclaimbinder-sync-period default: claims and volumes are synced again this often. */
export const RESYNC_PERIOD_MS = 15_000;
