// kube-controller-manager's ttl controller: it annotates every Node with
// node.alpha.kubernetes.io/ttl, the number of seconds kubelets may cache the
// Secrets and ConfigMaps they mount, from the cluster's size (0 up to 100
// nodes, then 15, 30, 60, 300 s as the cluster grows, with hysteresis
// between the steps), which is why every kind node shows `ttl: 0`.

import { isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { NODES } from './taints';

export const TTL_CONTROLLER = 'ttl-controller';
export const TTL_ANNOTATION = 'node.alpha.kubernetes.io/ttl';

/** kube's ttlBoundaries: the ttl of a size range, entered above sizeMin, left below it. */
const BOUNDARIES = [
  { sizeMin: 0, sizeMax: 100, ttlSeconds: 0 },
  { sizeMin: 90, sizeMax: 500, ttlSeconds: 15 },
  { sizeMin: 450, sizeMax: 1000, ttlSeconds: 30 },
  { sizeMin: 900, sizeMax: 2000, ttlSeconds: 60 },
  { sizeMin: 1800, sizeMax: Infinity, ttlSeconds: 300 },
];

export function ttlController(ctx: ControllerContext): Controller {
  const nodes = ctx.informers.for(NODES);
  let step = 0;
  const unsubscribe: (() => void)[] = [];

  const updateStep = () => {
    const size = nodes.list().length;
    while (step + 1 < BOUNDARIES.length && size > BOUNDARIES[step]!.sizeMax) step++;
    while (step > 0 && size < BOUNDARIES[step]!.sizeMin) step--;
  };

  const queue = new WorkQueue(
    TTL_CONTROLLER,
    ctx.activity,
    async (name) => {
      const node = nodes.get('', name);
      if (!node) return;
      const want = String(BOUNDARIES[step]!.ttlSeconds);
      if (node.metadata?.annotations?.[TTL_ANNOTATION] === want) return;
      try {
        await ctx.client.patch(NODES, '', name, { metadata: { annotations: { [TTL_ANNOTATION]: want } } }, 'application/strategic-merge-patch+json');
      } catch (err) {
        if (isNotFound(err) || isConflict(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  const all = () => nodes.list().forEach((n) => queue.add(n.metadata?.name ?? ''));

  return {
    name: TTL_CONTROLLER,
    start() {
      void nodes.synced.then(() => {
        unsubscribe.push(
          nodes.addHandler({
            onAdd: (n) => {
              const before = step;
              updateStep();
              if (step !== before) all();
              else queue.add(n.metadata?.name ?? '');
            },
            onUpdate: (_o, n) => queue.add(n.metadata?.name ?? ''),
            onDelete: () => {
              const before = step;
              updateStep();
              if (step !== before) all();
            },
          }),
        );
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
