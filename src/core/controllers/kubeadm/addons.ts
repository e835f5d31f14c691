// What `kubeadm init`'s upload-config and addon phases leave in kube-system
// (addons-objects.ts), created once, on the cluster's first start, as
// kubeadm creates them once: the kubeadm-config ConfigMap comes last and
// says the phase is done, so add-ons a user deletes afterwards (e.g.
// `kubectl -n kube-system delete deployment coredns`) stay deleted across
// restarts, as on kubeadm. Objects that exist are left as they are. kind's
// default StorageClass (default-storage-class.ts) is created with them.

import { errorMessage, isAlreadyExists, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { addonObjects, KUBEADM_CONFIG, kubeadmConfig } from './addons-objects';
import { defaultStorageObjects } from './default-storage-class';

export const KUBEADM_ADDONS_CONTROLLER = 'kubeadm-addons';

export function kubeadmAddonsController(ctx: ControllerContext): Controller {
  const config = kubeadmConfig();
  const queue = new WorkQueue(
    KUBEADM_ADDONS_CONTROLLER,
    ctx.activity,
    async () => {
      try {
        await ctx.client.get(config.gvr, 'kube-system', KUBEADM_CONFIG);
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      for (const { gvr, object } of [...addonObjects(), ...defaultStorageObjects(), config]) {
        try {
          await ctx.client.create(gvr, object.metadata?.namespace ?? '', object);
        } catch (err) {
          if (isAlreadyExists(err)) continue;
          throw new Error(`creating ${object.kind} ${object.metadata?.name}: ${errorMessage(err)}`);
        }
      }
    },
    ctx.log,
  );
  return {
    name: KUBEADM_ADDONS_CONTROLLER,
    start() {
      queue.add(KUBEADM_CONFIG);
    },
    stop: () => queue.stop(),
  };
}
