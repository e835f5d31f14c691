// kind's default StorageClass: `standard`, served by its local-path
// provisioner (rancher.io/local-path; KubeTab's stand-in is
// controllers/persistentvolume/local-path-provisioner.ts), the default class
// for claims that name none, deleting volumes with their claims and binding
// only once a pod using the claim is scheduled. kind applies it when it
// creates the cluster; KubeTab creates it with kubeadm's add-ons, once.

import type { KubeObject } from '../../kinds/types';
import { STORAGE_CLASSES } from '../persistentvolume/volume-names';
import type { AddonObject } from './addons-objects';

export const DEFAULT_STORAGE_CLASS = 'standard';

export function defaultStorageClass(): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: DEFAULT_STORAGE_CLASS, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: 'rancher.io/local-path',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

export function defaultStorageObjects(): AddonObject[] {
  return [{ gvr: STORAGE_CLASSES, object: defaultStorageClass() }];
}
