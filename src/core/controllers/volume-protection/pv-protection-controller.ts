// kube-controller-manager's PV protection controller: every volume carries the
// kubernetes.io/pv-protection finalizer, and a volume being deleted keeps it
// while it is Bound to a claim; once released (or never bound) the
// finalizer goes and the volume with it.

import type { KubeObject } from '../../kinds/types';
import { PV_PROTECTION_FINALIZER } from '../../admission/plugins/storage-object-in-use-protection';
import { isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { rec } from '../scheduler/objects';
import { PVS } from '../persistentvolume/volume-names';
import { withFinalizer, withoutFinalizer } from './pvc-protection-controller';

export const PV_PROTECTION_CONTROLLER = 'persistentvolume-protection-controller';

/** isVolumeInUse: a Bound volume is in use. */
export const volumeInUse = (volume: KubeObject): boolean => rec(volume.status).phase === 'Bound';

export function pvProtectionController(ctx: ControllerContext): Controller {
  const volumes = ctx.informers.for(PVS);
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(
    PV_PROTECTION_CONTROLLER,
    ctx.activity,
    async (name) => {
      const volume = volumes.get('', name);
      if (!volume) return;
      const has = (volume.metadata?.finalizers ?? []).includes(PV_PROTECTION_FINALIZER);
      try {
        if (!volume.metadata?.deletionTimestamp) {
          if (!has) await ctx.client.update(PVS, '', withFinalizer(volume, PV_PROTECTION_FINALIZER));
          return;
        }
        if (has && !volumeInUse(volume)) await ctx.client.update(PVS, '', withoutFinalizer(volume, PV_PROTECTION_FINALIZER));
      } catch (err) {
        if (isConflict(err) || isNotFound(err)) return;
        throw err;
      }
    },
    ctx.log,
  );
  const enqueue = (volume: KubeObject) => queue.add(volume.metadata?.name ?? '');

  return {
    name: PV_PROTECTION_CONTROLLER,
    start() {
      void volumes.synced.then(() => {
        unsubscribe.push(volumes.addHandler({ onAdd: enqueue, onUpdate: (_old, cur) => enqueue(cur) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
