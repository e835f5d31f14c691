// kube-controller-manager's PVC protection controller: every claim carries
// the kubernetes.io/pvc-protection finalizer (the StorageObjectInUseProtection
// admission plugin adds it on create; the controller adds it to claims made
// without), and a claim being deleted keeps it while a pod uses the claim —
// a scheduled pod naming it in a persistentVolumeClaim volume, or owning it
// as a generic ephemeral volume and not yet shut down. The cache says "in
// use" cheaply; "not in use" is confirmed with a live list of the
// namespace's pods before the finalizer goes, as kube asks the API server.

import type { KubeObject } from '../../kinds/types';
import { PVC_PROTECTION_FINALIZER } from '../../admission/plugins/storage-object-in-use-protection';
import { isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { clone } from '../job/json';
import { rec, str } from '../scheduler/objects';
import { splitKey } from '../workloads/objects';
import { PODS, PVCS } from '../persistentvolume/volume-names';
import { podClaims } from '../persistentvolume/pod-claims';

export const PVC_PROTECTION_CONTROLLER = 'persistentvolumeclaim-protection-controller';

/** A pod the kubelet is done with: deleted with no grace left (the API server's last step, or a force delete). */
function podIsShutDown(pod: KubeObject): boolean {
  return !!pod.metadata?.deletionTimestamp && pod.metadata?.deletionGracePeriodSeconds === 0;
}

/** podUsesPVC. */
export function podUsesClaim(pod: KubeObject, claim: KubeObject): boolean {
  if (pod.metadata?.namespace !== claim.metadata?.namespace || !str(rec(pod.spec).nodeName)) return false;
  const name = claim.metadata?.name;
  return podClaims(pod).some((c) => {
    if (c.claimName !== name) return false;
    if (!c.ephemeral) return true;
    const ownedByPod = (claim.metadata?.ownerReferences ?? []).some((o) => o.controller && o.uid === pod.metadata?.uid);
    return !podIsShutDown(pod) && ownedByPod;
  });
}

export function withoutFinalizer(obj: KubeObject, finalizer: string): KubeObject {
  const next = clone(obj);
  next.metadata = { ...next.metadata, finalizers: (next.metadata?.finalizers ?? []).filter((f) => f !== finalizer) };
  return next;
}

export function withFinalizer(obj: KubeObject, finalizer: string): KubeObject {
  const next = clone(obj);
  next.metadata = { ...next.metadata, finalizers: [...(next.metadata?.finalizers ?? []), finalizer] };
  return next;
}

export function pvcProtectionController(ctx: ControllerContext): Controller {
  const claims = ctx.informers.for(PVCS);
  const pods = ctx.informers.for(PODS);
  const unsubscribe: (() => void)[] = [];

  const inUse = async (claim: KubeObject): Promise<boolean> => {
    const namespace = claim.metadata?.namespace ?? '';
    if (pods.list(namespace).some((p) => podUsesClaim(p, claim))) return true;
    const live = await ctx.client.list(PODS, namespace);
    return live.items.some((p) => podUsesClaim({ ...p, metadata: { ...p.metadata, namespace } }, claim));
  };

  const queue = new WorkQueue(
    PVC_PROTECTION_CONTROLLER,
    ctx.activity,
    async (key) => {
      const { namespace, name } = splitKey(key);
      const claim = claims.get(namespace, name);
      if (!claim) return;
      const finalizers = claim.metadata?.finalizers ?? [];
      const has = finalizers.includes(PVC_PROTECTION_FINALIZER);
      try {
        if (!claim.metadata?.deletionTimestamp) {
          if (!has) await ctx.client.update(PVCS, namespace, withFinalizer(claim, PVC_PROTECTION_FINALIZER));
          return;
        }
        if (has && !(await inUse(claim))) await ctx.client.update(PVCS, namespace, withoutFinalizer(claim, PVC_PROTECTION_FINALIZER));
      } catch (err) {
        // A newer claim (or none) is on its way through the informer.
        if (isConflict(err) || isNotFound(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  const enqueueClaim = (claim: KubeObject) => queue.add(`${claim.metadata?.namespace ?? ''}/${claim.metadata?.name ?? ''}`);
  /** A pod going away (or leaving its node) may free the claims it used. */
  const enqueuePodClaims = (pod: KubeObject) => {
    for (const c of podClaims(pod)) {
      const claim = claims.get(pod.metadata?.namespace ?? '', c.claimName);
      if (claim?.metadata?.deletionTimestamp) enqueueClaim(claim);
    }
  };

  return {
    name: PVC_PROTECTION_CONTROLLER,
    start() {
      void Promise.all([claims.synced, pods.synced]).then(() => {
        unsubscribe.push(
          claims.addHandler({ onAdd: enqueueClaim, onUpdate: (_old, cur) => enqueueClaim(cur) }),
          pods.addHandler({ onAdd: enqueuePodClaims, onUpdate: (_old, cur) => enqueuePodClaims(cur), onDelete: enqueuePodClaims }),
        );
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
