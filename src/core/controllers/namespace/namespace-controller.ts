// kube-controller-manager's namespace controller: every namespace with a
// deletionTimestamp is emptied and then finalized (see namespace-deleter).
// While content remains (objects held by finalizers, pods within their grace
// period), the namespace is checked again after kube's estimate, and sooner
// when an object in it changes or goes away: the controller watches the
// namespaced resources (metadata only) for that.

import type { KubeObject } from '../../kinds/types';
import { discoverResources, gvrKey } from '../client/discovery';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { apiNamespaceDeps, NAMESPACES } from './deps';
import { syncNamespace } from './namespace-deleter';

export const NAMESPACE_CONTROLLER = 'namespace-controller';

export function namespaceController(ctx: ControllerContext): Controller {
  const deps = apiNamespaceDeps(ctx.client, () => ctx.clock.now());
  /** Namespaces waiting for remaining content to go. */
  const waiting = new Set<string>();
  const watched = new Set<string>();
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(NAMESPACE_CONTROLLER, ctx.activity, async (name) => {
    const result = await syncNamespace(name, deps, ctx.log);
    if (result.requeueAfterMs !== undefined) {
      waiting.add(name);
      await watchContent();
      return { requeueAfterMs: result.requeueAfterMs };
    }
    waiting.delete(name);
  }, ctx.log);

  const contentChanged = (obj: KubeObject) => {
    const ns = obj.metadata?.namespace;
    if (ns && waiting.has(ns)) queue.add(ns);
  };

  async function watchContent(): Promise<void> {
    const { resources } = await discoverResources(ctx.client);
    for (const r of resources) {
      if (!r.preferred || !r.namespaced || r.resource.includes('/') || !r.verbs.includes('watch')) continue;
      const key = gvrKey(r);
      if (watched.has(key)) continue;
      watched.add(key);
      unsubscribe.push(ctx.informers.for(r, true).addHandler({ onUpdate: (_old, obj) => contentChanged(obj), onDelete: contentChanged }));
    }
  }

  const enqueueIfDeleting = (ns: KubeObject) => {
    if (ns.metadata?.deletionTimestamp) queue.add(ns.metadata.name ?? '');
  };

  return {
    name: NAMESPACE_CONTROLLER,
    start() {
      unsubscribe.push(ctx.informers.for(NAMESPACES).addHandler({ onAdd: enqueueIfDeleting, onUpdate: (_old, ns) => enqueueIfDeleting(ns) }));
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
