// kube-controller-manager's garbage collector: it watches (metadata only)
// every resource that can be listed, watched and deleted, keeps the graph of
// ownerReferences, and
// - deletes dependents whose owners are all gone (Background, or Foreground
//   when an owner is itself deleting in the foreground and the dependent has
//   dependents of its own);
// - for an owner deleting in the foreground (`foregroundDeletion`), deletes
//   its dependents first and removes the finalizer once no dependent with
//   blockOwnerDeletion remains;
// - for an owner deleting with `orphan`, removes the ownerReferences pointing
//   at it from its dependents, then the finalizer.
// Discovery is read again when CustomResourceDefinitions change.

import type { KubeObject } from '../../kinds/types';
import { discoverResources, gvrKey, supportsVerbs, type DiscoveredResource } from '../client/discovery';
import { apiVersionOf } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { attemptToDeleteItem, attemptToOrphan, NamespacedOwnerOfClusterScopedObjectError, RestMappingError, type GcEffects } from './attempt-to-delete';
import { apiGarbageCollectorDeps } from './deps';
import { DependencyGraph, type GraphWork, type ObjectIdentity } from './graph';

export const GARBAGE_COLLECTOR = 'garbage-collector-controller';

/** Resources the garbage collector leaves alone (kube's DefaultIgnoredResources). */
export const IGNORED_RESOURCES = new Set(['/events', 'events.k8s.io/events']);
const SYNC_TIMEOUT_MS = 10_000;

export function deletableResources(resources: readonly DiscoveredResource[]): DiscoveredResource[] {
  return resources.filter(
    (r) => r.preferred && !r.resource.includes('/') && supportsVerbs(r, ['delete', 'list', 'watch']) && !IGNORED_RESOURCES.has(`${r.group}/${r.resource}`),
  );
}

export function garbageCollector(ctx: ControllerContext): Controller {
  const graph = new DependencyGraph();
  let resources: readonly DiscoveredResource[] = [];
  const deps = apiGarbageCollectorDeps(ctx.client, () => resources);
  const monitors = new Map<string, () => void>();
  const unverified = new Map<string, number>();
  let stopped = false;

  const apply = (work: GraphWork) => {
    for (const n of work.attemptToDelete) deleteQueue.add(n.identity.uid);
    for (const n of work.attemptToOrphan) orphanQueue.add(n.identity.uid);
  };
  const effects: GcEffects = {
    virtualDelete: (identity) => apply(graph.observeDelete(identity, true)),
    attemptToDelete: (node) => deleteQueue.add(node.identity.uid),
  };

  const deleteQueue = new WorkQueue(`${GARBAGE_COLLECTOR}/attempt-to-delete`, ctx.activity, async (uid) => {
    const node = graph.get(uid);
    if (!node) return;
    try {
      await attemptToDeleteItem(deps, graph, node, effects);
    } catch (err) {
      if (err instanceof NamespacedOwnerOfClusterScopedObjectError) return;
      if (err instanceof RestMappingError) {
        // A kind not served (yet): look again later, without holding `idle()`.
        return { requeueAfterMs: 5000 };
      }
      throw err;
    }
    if (!graph.get(uid)?.observed && graph.get(uid)) {
      // An owner that exists but has not been seen by an informer yet: check again later (kube requeues too).
      const n = (unverified.get(uid) ?? 0) + 1;
      unverified.set(uid, n);
      return { requeueAfterMs: Math.min(100 * 2 ** n, 60_000) };
    }
    unverified.delete(uid);
  }, ctx.log);

  const orphanQueue = new WorkQueue(`${GARBAGE_COLLECTOR}/attempt-to-orphan`, ctx.activity, async (uid) => {
    const node = graph.get(uid);
    if (node) await attemptToOrphan(deps, node);
  }, ctx.log);

  function identityOf(r: DiscoveredResource, obj: KubeObject): ObjectIdentity {
    return {
      apiVersion: apiVersionOf(r.group, r.version),
      kind: r.kind,
      name: obj.metadata?.name ?? '',
      uid: obj.metadata?.uid ?? '',
      namespace: r.namespaced ? (obj.metadata?.namespace ?? '') : '',
    };
  }

  function monitor(r: DiscoveredResource): Promise<void> {
    const informer = ctx.informers.for(r, true);
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    monitors.set(gvrKey(r), () => {
      cancelled = true;
      unsubscribe?.();
    });
    // The graph takes the resource in once its cache is complete, so that no owner is judged on half a graph.
    return informer.synced.then(() => {
      if (cancelled || stopped) return;
      unsubscribe = informer.addHandler({
        onAdd: (obj) => apply(graph.observe(identityOf(r, obj), undefined, obj)),
        onUpdate: (old, obj) => apply(graph.observe(identityOf(r, obj), old, obj)),
        onDelete: (obj) => apply(graph.observeDelete(identityOf(r, obj), false)),
      });
    });
  }

  /** Reads discovery and starts or stops monitors to match (kube's resyncMonitors). */
  async function resync(): Promise<void> {
    const discovered = await discoverResources(ctx.client);
    resources = discovered.resources;
    const wanted = new Map(deletableResources(resources).map((r) => [gvrKey(r), r]));
    const started: Promise<void>[] = [];
    for (const [key, r] of wanted) if (!monitors.has(key)) started.push(monitor(r));
    for (const [key, cancel] of [...monitors]) {
      if (wanted.has(key)) continue;
      cancel();
      monitors.delete(key);
    }
    // Wait (bounded) for the new monitors, as kube waits for its caches before collecting.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(started), new Promise<void>((resolve) => (timer = setTimeout(resolve, SYNC_TIMEOUT_MS)))]);
    clearTimeout(timer);
  }

  const discoveryQueue = new WorkQueue(`${GARBAGE_COLLECTOR}/discovery`, ctx.activity, () => resync(), ctx.log);
  let crdUnsubscribe: (() => void) | undefined;

  return {
    name: GARBAGE_COLLECTOR,
    start() {
      discoveryQueue.add('resync');
      const crds = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
      // New custom resources become collectable once discovery shows them.
      void discoverResources(ctx.client).then(({ resources: found }) => {
        if (stopped || !found.some((r) => r.group === crds.group && r.resource === crds.resource)) return;
        const resyncSoon = () => discoveryQueue.add('resync');
        crdUnsubscribe = ctx.informers.for(crds, true).addHandler({ onAdd: resyncSoon, onUpdate: resyncSoon, onDelete: resyncSoon });
      });
    },
    async stop() {
      stopped = true;
      crdUnsubscribe?.();
      for (const cancel of monitors.values()) cancel();
      await Promise.all([discoveryQueue.stop(), deleteQueue.stop(), orphanQueue.stop()]);
    },
  };
}
