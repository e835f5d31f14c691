// kube-controller-manager's persistent-volume binder (persistentvolume-
// binder-controller, events from "persistentvolume-controller"): binds
// claims to volumes and keeps both sides and their phases consistent.
//
// A claim without pv.kubernetes.io/bind-completed is unbound: it takes a
// volume pre-bound to it or the best Available match (volume-matching.ts),
// waits for its first consumer (WaitForFirstConsumer class, no node chosen
// yet), or asks its class's provisioner for one (ExternalProvisioning:
// KubeTab's local-path provisioner answers for kind's `standard` class). A
// bound claim whose volume is gone or taken is Lost. A volume whose claim
// is gone is Released and reclaimed by its policy: Retain keeps it; Delete
// leaves a provisioned volume to its provisioner and fails a static one (no
// in-tree deleter); Recycle is not simulated (Failed, as for a volume
// plugin that cannot recycle). Everything is synced again every 15 s of
// cluster time, as --pvclaimbinder-sync-period, so waiting claims repeat
// their event (kubectl shows "x4 over 60s").

import type { KubeObject } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { ClockRequeue } from '../workloads';
import { clone } from '../job/json';
import { arr, rec, str } from '../scheduler/objects';
import { splitKey } from '../workloads/objects';
import { ANN, NODES, PODS, PV_CONTROLLER_COMPONENT, PVCS, PVS, REASON, RESYNC_PERIOD_MS, STORAGE_CLASSES } from './volume-names';
import { claimClass, findBestMatchForClaim, isVolumeBoundToClaim, volumeMismatchReason, type CandidateNode } from './volume-matching';
import { podClaimNames } from './pod-claims';

export const PV_BINDER_CONTROLLER = 'persistentvolume-binder-controller';

type Phase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed' | 'Lost';

const phaseOf = (obj: KubeObject | undefined): string => str(rec(obj?.status).phase);
const annotationsOf = (obj: KubeObject): Record<string, string> => obj.metadata?.annotations ?? {};

/** What a claim's spec.volumeName and annotations should be once it is bound to `volume`. */
function claimReference(claim: KubeObject): Record<string, unknown> {
  return {
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata?.namespace,
    name: claim.metadata?.name,
    uid: claim.metadata?.uid,
    apiVersion: 'v1',
    resourceVersion: claim.metadata?.resourceVersion,
  };
}

export function persistentVolumeBinder(ctx: ControllerContext): Controller {
  const claims = ctx.informers.for(PVCS);
  const volumes = ctx.informers.for(PVS);
  const classes = ctx.informers.for(STORAGE_CLASSES);
  const nodes = ctx.informers.for(NODES);
  const pods = ctx.informers.for(PODS);
  const recorder = ctx.recorder(PV_CONTROLLER_COMPONENT);
  const unsubscribe: (() => void)[] = [];

  const event = (obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string) => recorder.record(obj, { type, reason, message });

  // ---- writes (each returns the object as stored, or undefined when a conflict says the cache is behind) ----

  const write = async (fn: () => Promise<KubeObject>): Promise<KubeObject | undefined> => {
    try {
      return await fn();
    } catch (err) {
      // The informer's next event brings the newer object and a new sync.
      if (isConflict(err) || isNotFound(err)) return undefined;
      throw err;
    }
  };

  const updateClaimStatus = async (claim: KubeObject, phase: Phase, volume?: KubeObject): Promise<KubeObject | undefined> => {
    const status = rec(claim.status);
    const next: Record<string, unknown> = { ...status, phase };
    if (volume) {
      const modes = arr(rec(volume.spec).accessModes);
      const capacity = rec(rec(volume.spec).capacity);
      if (modes.length) next.accessModes = modes;
      if (capacity.storage !== undefined) next.capacity = { ...rec(status.capacity), storage: capacity.storage };
    }
    if (JSON.stringify(next) === JSON.stringify(status)) return claim;
    return write(() => ctx.client.update(PVCS, claim.metadata?.namespace ?? '', { ...claim, status: next }, 'status'));
  };

  const updateVolumePhase = async (volume: KubeObject, phase: Phase, message?: string): Promise<KubeObject | undefined> => {
    const status = rec(volume.status);
    if (status.phase === phase && (message === undefined || status.message === message)) return volume;
    const next: Record<string, unknown> = { ...status, phase };
    if (message !== undefined) next.message = message;
    else delete next.message;
    return write(() => ctx.client.update(PVS, '', { ...volume, status: next }, 'status'));
  };

  // ---- binding ----

  /** bindVolumeToClaim: the volume's claimRef names the claim with its UID. */
  const bindVolumeToClaim = async (volume: KubeObject, claim: KubeObject): Promise<KubeObject | undefined> => {
    const ref = rec(rec(volume.spec).claimRef);
    const complete = isVolumeBoundToClaim(volume, claim) && str(ref.uid) === claim.metadata?.uid;
    const mustAnnotate = !complete && !rec(volume.spec).claimRef;
    if (complete) return volume;
    const next = clone(volume);
    next.spec = { ...rec(next.spec), claimRef: claimReference(claim) };
    if (mustAnnotate) next.metadata = { ...next.metadata, annotations: { ...annotationsOf(next), [ANN.boundByController]: 'yes' } };
    return write(() => ctx.client.update(PVS, '', next));
  };

  /** bindClaimToVolume: spec.volumeName and the bind-completed (and, when the controller chose, bound-by-controller) annotations. */
  const bindClaimToVolume = async (claim: KubeObject, volume: KubeObject): Promise<KubeObject | undefined> => {
    const volumeName = volume.metadata?.name ?? '';
    const annotations = { ...annotationsOf(claim) };
    const spec = rec(claim.spec);
    let changed = false;
    const next = clone(claim);
    if (str(spec.volumeName) !== volumeName) {
      next.spec = { ...rec(next.spec), volumeName };
      annotations[ANN.boundByController] = 'yes';
      changed = true;
    }
    if (annotations[ANN.bindCompleted] !== 'yes') {
      annotations[ANN.bindCompleted] = 'yes';
      changed = true;
    }
    if (!changed) return claim;
    next.metadata = { ...next.metadata, annotations };
    return write(() => ctx.client.update(PVCS, claim.metadata?.namespace ?? '', next));
  };

  /** bind: volume → Bound, claim → bound to it and Bound, in kube's order. */
  const bind = async (volume: KubeObject, claim: KubeObject): Promise<void> => {
    const boundVolume = await bindVolumeToClaim(volume, claim);
    if (!boundVolume) return;
    const bound = await updateVolumePhase(boundVolume, 'Bound');
    if (!bound) return;
    const boundClaim = await bindClaimToVolume(claim, bound);
    if (!boundClaim) return;
    await updateClaimStatus(boundClaim, 'Bound', bound);
  };

  // ---- claims ----

  const selectedNodeOf = (claim: KubeObject): CandidateNode | undefined => {
    const name = annotationsOf(claim)[ANN.selectedNode];
    if (!name) return undefined;
    const node = nodes.get('', name);
    return { name, labels: node?.metadata?.labels ?? { 'kubernetes.io/hostname': name } };
  };

  const isDelayBinding = (claim: KubeObject): boolean => {
    const className = claimClass(claim);
    if (!className) return false;
    return rec(classes.get('', className)).volumeBindingMode === 'WaitForFirstConsumer';
  };

  /** emitEventForUnboundDelayBindingClaim: waiting for a consumer, or for the consumers already there to be scheduled. */
  const waitingForConsumer = async (claim: KubeObject): Promise<void> => {
    const namespace = claim.metadata?.namespace ?? '';
    const waiting = pods
      .list(namespace)
      .filter((p) => !str(rec(p.spec).nodeName) && podClaimNames(p).includes(claim.metadata?.name ?? ''))
      .map((p) => p.metadata?.name ?? '')
      .sort();
    if (waiting.length === 0) await event(claim, 'Normal', REASON.waitForFirstConsumer, 'waiting for first consumer to be created before binding');
    else if (waiting.length === 1) await event(claim, 'Normal', 'WaitForPodScheduled', `waiting for pod ${waiting[0]} to be scheduled`);
    else await event(claim, 'Normal', 'WaitForPodScheduled', `waiting for pods ${waiting.join(',')} to be scheduled`);
  };

  /** provisionClaim for a class whose provisioner is not in-tree: name it on the claim and wait for it. */
  const provisionClaim = async (claim: KubeObject): Promise<KubeObject | undefined> => {
    const className = claimClass(claim);
    const storageClass = classes.get('', className);
    if (!storageClass) {
      await event(claim, 'Warning', REASON.provisioningFailed, `storageclass.storage.k8s.io ${JSON.stringify(className)} not found`);
      return claim;
    }
    const provisioner = str(storageClass['provisioner']);
    if (provisioner.startsWith('kubernetes.io/')) {
      // The in-tree provisioners are gone (migrated to CSI); no-provisioner never provisions.
      await event(claim, 'Warning', REASON.provisioningFailed, `no volume plugin matched name: ${provisioner}`);
      return claim;
    }
    let current: KubeObject | undefined = claim;
    const annotations = annotationsOf(claim);
    if (annotations[ANN.storageProvisioner] !== provisioner || annotations[ANN.betaStorageProvisioner] !== provisioner) {
      const next = clone(claim);
      next.metadata = { ...next.metadata, annotations: { ...annotations, [ANN.storageProvisioner]: provisioner, [ANN.betaStorageProvisioner]: provisioner } };
      current = await write(() => ctx.client.update(PVCS, claim.metadata?.namespace ?? '', next));
      if (!current) return undefined;
    }
    await event(
      current,
      'Normal',
      REASON.externalProvisioning,
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    );
    return current;
  };

  const syncUnboundClaim = async (claim: KubeObject): Promise<void> => {
    const volumeName = str(rec(claim.spec).volumeName);
    if (!volumeName) {
      const node = selectedNodeOf(claim);
      const delayBinding = isDelayBinding(claim) && !node;
      const volume = findBestMatchForClaim(claim, volumes.list(), { delayBinding, ...(node ? { node } : {}) });
      if (volume) return bind(volume, claim);
      let current: KubeObject | undefined = claim;
      if (delayBinding) await waitingForConsumer(claim);
      else if (claimClass(claim)) current = await provisionClaim(claim);
      else await event(claim, 'Normal', REASON.failedBinding, 'no persistent volumes available for this claim and no storage class is set');
      if (current) await updateClaimStatus(current, 'Pending');
      return;
    }
    // The user asked for a particular volume.
    const volume = volumes.get('', volumeName);
    if (!volume) {
      await updateClaimStatus(claim, 'Pending');
      return;
    }
    const ref = rec(volume.spec).claimRef;
    if (!ref) {
      const mismatch = volumeMismatchReason(volume, claim);
      if (mismatch) {
        await event(claim, 'Warning', REASON.volumeMismatch, `Cannot bind to requested volume ${JSON.stringify(volumeName)}: ${mismatch}`);
        await updateClaimStatus(claim, 'Pending');
        return;
      }
      return bind(volume, claim);
    }
    if (isVolumeBoundToClaim(volume, claim)) return bind(volume, claim);
    if (!annotationsOf(claim)[ANN.boundByController]) {
      await event(claim, 'Warning', REASON.failedBinding, `volume ${JSON.stringify(volumeName)} already bound to a different claim.`);
      await updateClaimStatus(claim, 'Pending');
      return;
    }
    throw new Error(`invalid binding of claim ${JSON.stringify(`${claim.metadata?.namespace}/${claim.metadata?.name}`)} to volume ${JSON.stringify(volumeName)}: volume already claimed by another claim`);
  };

  const syncBoundClaim = async (claim: KubeObject): Promise<void> => {
    const volumeName = str(rec(claim.spec).volumeName);
    if (!volumeName) {
      if (phaseOf(claim) !== 'Lost') await event(claim, 'Warning', REASON.claimLost, 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!');
      await updateClaimStatus(claim, 'Lost');
      return;
    }
    const volume = volumes.get('', volumeName);
    if (!volume) {
      if (phaseOf(claim) !== 'Lost') await event(claim, 'Warning', REASON.claimLost, 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
      await updateClaimStatus(claim, 'Lost');
      return;
    }
    const ref = rec(rec(volume.spec).claimRef);
    if (!rec(volume.spec).claimRef || str(ref.uid) === claim.metadata?.uid) return bind(volume, claim);
    if (phaseOf(claim) !== 'Lost') await event(claim, 'Warning', REASON.claimMisbound, 'Two claims are bound to the same volume, this one is bound incorrectly');
    await updateClaimStatus(claim, 'Lost');
  };

  // ---- volumes ----

  /** The claim a volume's claimRef names, from the cache or, when the cache has none, from the server. */
  const claimOf = async (volume: KubeObject): Promise<KubeObject | undefined> => {
    const ref = rec(rec(volume.spec).claimRef);
    const namespace = str(ref.namespace);
    const name = str(ref.name);
    let claim = claims.get(namespace, name);
    if (!claim) {
      try {
        claim = await ctx.client.get(PVCS, namespace, name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    if (claim && str(ref.uid) && claim.metadata?.uid !== str(ref.uid)) return undefined;
    return claim;
  };

  const reclaimVolume = async (volume: KubeObject): Promise<void> => {
    const policy = str(rec(volume.spec).persistentVolumeReclaimPolicy) || 'Retain';
    if (policy === 'Retain') return;
    if (policy === 'Recycle') {
      if (phaseOf(volume) === 'Failed') return;
      await event(volume, 'Warning', REASON.volumeFailedRecycle, 'No recycler plugin found for the volume!');
      await updateVolumePhase(volume, 'Failed', 'No recycler plugin found for the volume!');
      return;
    }
    if (policy !== 'Delete') return;
    const provisioner = annotationsOf(volume)[ANN.provisionedBy];
    // An external provisioner deletes what it made (KubeTab's local-path provisioner does).
    if (provisioner && !provisioner.startsWith('kubernetes.io/')) return;
    if (phaseOf(volume) === 'Failed') return;
    const message = `error getting deleter volume plugin for volume ${JSON.stringify(volume.metadata?.name ?? '')}: no deletable volume plugin matched`;
    await event(volume, 'Warning', REASON.volumeFailedDelete, message);
    await updateVolumePhase(volume, 'Failed', message);
  };

  const syncVolume = async (volume: KubeObject): Promise<void> => {
    const spec = rec(volume.spec);
    if (!spec.claimRef) {
      await updateVolumePhase(volume, 'Available');
      return;
    }
    const ref = rec(spec.claimRef);
    if (!str(ref.uid)) {
      // Pre-bound by the user to a claim that has not been bound yet.
      await updateVolumePhase(volume, 'Available');
      return;
    }
    const claim = await claimOf(volume);
    if (!claim) {
      // The claim is gone: the volume is released and reclaimed.
      if (phaseOf(volume) !== 'Released' && phaseOf(volume) !== 'Failed') {
        const released = await updateVolumePhase(volume, 'Released');
        if (!released) return;
        return reclaimVolume(released);
      }
      return reclaimVolume(volume);
    }
    const claimVolume = str(rec(claim.spec).volumeName);
    if (!claimVolume) {
      // Binding in progress (or a user's pre-binding): the claim's sync completes it.
      claimQueue.add(`${claim.metadata?.namespace}/${claim.metadata?.name}`);
      return;
    }
    if (claimVolume === volume.metadata?.name) {
      await updateVolumePhase(volume, 'Bound');
      return;
    }
    // The claim went to another volume.
    if (annotationsOf(volume)[ANN.provisionedBy] && str(spec.persistentVolumeReclaimPolicy) === 'Delete') {
      if (phaseOf(volume) !== 'Released' && phaseOf(volume) !== 'Failed') {
        const released = await updateVolumePhase(volume, 'Released');
        if (released) await reclaimVolume(released);
      }
      return;
    }
    if (annotationsOf(volume)[ANN.boundByController]) {
      // unbindVolume: the controller's own binding is undone.
      const next = clone(volume);
      const nextSpec = { ...rec(next.spec) };
      delete nextSpec.claimRef;
      next.spec = nextSpec;
      const annotations = { ...annotationsOf(next) };
      delete annotations[ANN.boundByController];
      next.metadata = { ...next.metadata, annotations };
      const unbound = await write(() => ctx.client.update(PVS, '', next));
      if (unbound) await updateVolumePhase(unbound, 'Available');
      return;
    }
    await updateVolumePhase(volume, 'Released');
  };

  // ---- queues ----

  const claimQueue = new WorkQueue(
    `${PV_BINDER_CONTROLLER}-claims`,
    ctx.activity,
    async (key) => {
      const { namespace, name } = splitKey(key);
      const claim = claims.get(namespace, name);
      if (!claim) return;
      if (annotationsOf(claim)[ANN.bindCompleted]) await syncBoundClaim(claim);
      else await syncUnboundClaim(claim);
    },
    ctx.log,
  );
  const volumeQueue = new WorkQueue(
    `${PV_BINDER_CONTROLLER}-volumes`,
    ctx.activity,
    async (name) => {
      const volume = volumes.get('', name);
      if (!volume) return;
      await syncVolume(volume);
    },
    ctx.log,
  );

  const claimKey = (claim: KubeObject) => `${claim.metadata?.namespace ?? ''}/${claim.metadata?.name ?? ''}`;
  const enqueueClaim = (claim: KubeObject) => claimQueue.add(claimKey(claim));
  const enqueueVolume = (volume: KubeObject) => volumeQueue.add(volume.metadata?.name ?? '');
  const claimRefKey = (volume: KubeObject): string | undefined => {
    const ref = rec(rec(volume.spec).claimRef);
    return str(ref.name) ? `${str(ref.namespace)}/${str(ref.name)}` : undefined;
  };

  // The periodic resync of every claim and volume, on the cluster's Clock.
  const resync = new ClockRequeue(ctx.timers, () => {
    for (const c of claims.list()) enqueueClaim(c);
    for (const v of volumes.list()) enqueueVolume(v);
    resync.after('all', RESYNC_PERIOD_MS);
  });

  return {
    name: PV_BINDER_CONTROLLER,
    start() {
      void Promise.all([claims.synced, volumes.synced, classes.synced, nodes.synced, pods.synced]).then(() => {
        unsubscribe.push(
          claims.addHandler({
            onAdd: enqueueClaim,
            onUpdate: (_old, cur) => enqueueClaim(cur),
            onDelete: (claim) => {
              // The volume bound to it is released.
              const volumeName = str(rec(claim.spec).volumeName);
              if (volumeName) volumeQueue.add(volumeName);
              for (const v of volumes.list()) if (isVolumeBoundToClaim(v, claim)) enqueueVolume(v);
            },
          }),
          volumes.addHandler({
            onAdd: (v) => {
              enqueueVolume(v);
              const key = claimRefKey(v);
              if (key) claimQueue.add(key);
            },
            onUpdate: (old, v) => {
              enqueueVolume(v);
              const key = claimRefKey(v);
              if (key) claimQueue.add(key);
              // A volume that has just become Available may serve a waiting claim now rather than at the next resync.
              if (phaseOf(v) === 'Available' && phaseOf(old) !== 'Available') {
                for (const c of claims.list()) if (!str(rec(c.spec).volumeName) && phaseOf(c) === 'Pending') enqueueClaim(c);
              }
            },
            onDelete: (v) => {
              const key = claimRefKey(v);
              if (key) claimQueue.add(key);
            },
          }),
          // A new class, or a node appearing, may let a waiting claim go on.
          classes.addHandler({ onAdd: () => claims.list().filter((c) => phaseOf(c) !== 'Bound').forEach(enqueueClaim) }),
        );
        resync.after('all', RESYNC_PERIOD_MS);
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      resync.stop();
      await Promise.all([claimQueue.stop(), volumeQueue.stop()]);
    },
  };
}
