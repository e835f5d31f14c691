// KubeTab's stand-in for kind's local-path-provisioner (rancher.io/local-path,
// built on sig-storage-lib-external-provisioner): the external provisioner of
// the default `standard` StorageClass.
//
// A claim the PV controller has handed to rancher.io/local-path (the
// volume.kubernetes.io/storage-provisioner annotation), of a class with that
// provisioner, not yet bound, gets a hostPath volume `pvc-<claim uid>` under
// /var/local-path-provisioner on the node the scheduler chose (the
// selected-node annotation; required, as local-path has no shared file
// system), with the claim's size and access modes, the class's reclaim
// policy and mount options, a claimRef to the claim and node affinity to
// the node; the PV controller then binds the two. Events on the claim say
// Provisioning / ProvisioningSucceeded (or ProvisioningFailed). A Released
// volume it made, with policy Delete, is deleted. There is no helper pod
// and no directory: the simulated nodes have no disks.

import type { KubeObject } from '../../kinds/types';
import { errorMessage, isAlreadyExists, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { arr, rec, str } from '../scheduler/objects';
import { splitKey } from '../workloads/objects';
import { ANN, NODES, PVCS, PVS, REASON, STORAGE_CLASSES } from './volume-names';
import { claimClass } from './volume-matching';

export const LOCAL_PATH_PROVISIONER_CONTROLLER = 'local-path-provisioner';
export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
/** kind's local-path-config nodePathMap default. */
export const LOCAL_PATH_ROOT = '/var/local-path-provisioner';
/** The node a local-path volume lives on, as local-path-provisioner annotates it. */
export const ANN_LOCAL_PATH_NODE = 'local.path.provisioner/selected-node';

const SUPPORTED_ACCESS_MODES = new Set(['ReadWriteOnce', 'ReadWriteOncePod']);

/** The volume local-path-provisioner makes for a claim on a node, as the external-provisioner library completes it. */
export function localPathVolume(claim: KubeObject, storageClass: KubeObject, node: { name: string; hostname: string }): KubeObject {
  const meta = claim.metadata ?? {};
  const name = `pvc-${meta.uid ?? ''}`;
  const spec = rec(claim.spec);
  const mountOptions = arr(storageClass['mountOptions']);
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name,
      annotations: { [ANN_LOCAL_PATH_NODE]: node.name, [ANN.provisionedBy]: LOCAL_PATH_PROVISIONER },
    },
    spec: {
      accessModes: arr(spec.accessModes),
      capacity: { storage: rec(rec(spec.resources).requests).storage },
      claimRef: {
        kind: 'PersistentVolumeClaim',
        namespace: meta.namespace,
        name: meta.name,
        uid: meta.uid,
        apiVersion: 'v1',
        resourceVersion: meta.resourceVersion,
      },
      hostPath: { path: `${LOCAL_PATH_ROOT}/${name}_${meta.namespace}_${meta.name}`, type: 'DirectoryOrCreate' },
      nodeAffinity: {
        required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node.hostname] }] }] },
      },
      persistentVolumeReclaimPolicy: str(storageClass['reclaimPolicy']) || 'Delete',
      storageClassName: claimClass(claim),
      volumeMode: 'Filesystem',
      ...(mountOptions.length ? { mountOptions } : {}),
    },
  };
}

/** Why local-path cannot provision the claim, or undefined. */
export function localPathRefusal(claim: KubeObject): string | undefined {
  for (const mode of arr(rec(claim.spec).accessModes).map(String)) {
    if (!SUPPORTED_ACCESS_MODES.has(mode)) return 'NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes';
  }
  if (str(rec(claim.spec).volumeMode) === 'Block') return 'Block volume mode is not supported';
  if (!claim.metadata?.annotations?.[ANN.selectedNode]) return 'configuration error, no node was specified';
  return undefined;
}

export function localPathProvisioner(ctx: ControllerContext): Controller {
  const claims = ctx.informers.for(PVCS);
  const volumes = ctx.informers.for(PVS);
  const classes = ctx.informers.for(STORAGE_CLASSES);
  const nodes = ctx.informers.for(NODES);
  // The library's identity: <provisioner>_<host>_<uuid>, the source of its events.
  const recorder = ctx.recorder(`${LOCAL_PATH_PROVISIONER}_local-path-provisioner_${crypto.randomUUID()}`);
  const unsubscribe: (() => void)[] = [];

  /** shouldProvision: handed to us, of our class, unbound, and (WaitForFirstConsumer) with its node chosen. */
  const classToProvision = (claim: KubeObject): KubeObject | undefined => {
    if (str(rec(claim.spec).volumeName) || claim.metadata?.deletionTimestamp) return undefined;
    const annotations = claim.metadata?.annotations ?? {};
    const handedTo = annotations[ANN.storageProvisioner] ?? annotations[ANN.betaStorageProvisioner];
    if (handedTo !== LOCAL_PATH_PROVISIONER) return undefined;
    const storageClass = classes.get('', claimClass(claim));
    if (!storageClass || str(storageClass['provisioner']) !== LOCAL_PATH_PROVISIONER) return undefined;
    if (storageClass['volumeBindingMode'] === 'WaitForFirstConsumer' && !annotations[ANN.selectedNode]) return undefined;
    return storageClass;
  };

  const provision = async (claim: KubeObject, storageClass: KubeObject): Promise<void> => {
    const name = `pvc-${claim.metadata?.uid ?? ''}`;
    if (volumes.get('', name)) return;
    await recorder.record(claim, { type: 'Normal', reason: REASON.provisioning, message: `External provisioner is provisioning volume for claim "${claim.metadata?.namespace}/${claim.metadata?.name}"` });
    const refusal = localPathRefusal(claim);
    if (refusal) {
      await recorder.record(claim, {
        type: 'Warning',
        reason: REASON.provisioningFailed,
        message: `failed to provision volume with StorageClass ${JSON.stringify(storageClass.metadata?.name ?? '')}: ${refusal}`,
      });
      return;
    }
    const nodeName = claim.metadata?.annotations?.[ANN.selectedNode] ?? '';
    const node = nodes.get('', nodeName);
    const hostname = node?.metadata?.labels?.['kubernetes.io/hostname'] ?? nodeName;
    try {
      await ctx.client.create(PVS, '', localPathVolume(claim, storageClass, { name: nodeName, hostname }));
    } catch (err) {
      if (isAlreadyExists(err)) return;
      await recorder.record(claim, {
        type: 'Warning',
        reason: REASON.provisioningFailed,
        message: `failed to provision volume with StorageClass ${JSON.stringify(storageClass.metadata?.name ?? '')}: ${errorMessage(err)}`,
      });
      throw err;
    }
    await recorder.record(claim, { type: 'Normal', reason: REASON.provisioningSucceeded, message: `Successfully provisioned volume ${name}` });
  };

  /** shouldDelete: a Released volume of ours whose policy is Delete. */
  const deletable = (volume: KubeObject): boolean =>
    volume.metadata?.annotations?.[ANN.provisionedBy] === LOCAL_PATH_PROVISIONER &&
    str(rec(volume.status).phase) === 'Released' &&
    str(rec(volume.spec).persistentVolumeReclaimPolicy) === 'Delete' &&
    !volume.metadata?.deletionTimestamp;

  const claimQueue = new WorkQueue(
    `${LOCAL_PATH_PROVISIONER_CONTROLLER}-claims`,
    ctx.activity,
    async (key) => {
      const { namespace, name } = splitKey(key);
      const claim = claims.get(namespace, name);
      if (!claim) return;
      const storageClass = classToProvision(claim);
      if (storageClass) await provision(claim, storageClass);
    },
    ctx.log,
  );
  const volumeQueue = new WorkQueue(
    `${LOCAL_PATH_PROVISIONER_CONTROLLER}-volumes`,
    ctx.activity,
    async (name) => {
      const volume = volumes.get('', name);
      if (!volume || !deletable(volume)) return;
      try {
        await ctx.client.delete(PVS, '', name, { preconditions: { uid: volume.metadata?.uid } });
      } catch (err) {
        if (isNotFound(err)) return;
        await recorder.record(volume, { type: 'Warning', reason: REASON.volumeFailedDelete, message: errorMessage(err) });
        throw err;
      }
    },
    ctx.log,
  );
  const enqueueClaim = (claim: KubeObject) => {
    if (classToProvision(claim)) claimQueue.add(`${claim.metadata?.namespace}/${claim.metadata?.name}`);
  };
  const enqueueVolume = (volume: KubeObject) => {
    if (deletable(volume)) volumeQueue.add(volume.metadata?.name ?? '');
  };

  return {
    name: LOCAL_PATH_PROVISIONER_CONTROLLER,
    start() {
      void Promise.all([claims.synced, volumes.synced, classes.synced, nodes.synced]).then(() => {
        unsubscribe.push(
          claims.addHandler({ onAdd: enqueueClaim, onUpdate: (_old, cur) => enqueueClaim(cur) }),
          volumes.addHandler({ onAdd: enqueueVolume, onUpdate: (_old, cur) => enqueueVolume(cur) }),
        );
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await Promise.all([claimQueue.stop(), volumeQueue.stop()]);
    },
  };
}
