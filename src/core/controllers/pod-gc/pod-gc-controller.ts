// kube-controller-manager's pod garbage collector (pkg/controller/podgc).
// Every 20 s of cluster time it deletes, with grace 0: terminated pods
// beyond --terminated-pod-gc-threshold; terminating pods on out-of-service
// nodes; pods bound to a node that no longer exists — once the node has
// been missing for a 40 s quarantine and a GET confirms it is gone — and
// terminating pods that were never scheduled. A pod not yet terminal is
// first marked Failed (server-side apply of pods/status as field manager
// "PodGC"), an orphan with the DisruptionTarget condition (DeletionByPodGC,
// "PodGC: node no longer exists"), so its controller counts it as failed.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { isNotFound } from '../client/api-error';
import { resourcePath, type GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import type { TimerHandle } from '../../util/clock-timers';
import { rec, str } from '../job/json';
import { DEFAULT_TERMINATED_POD_GC_THRESHOLD, outOfServiceTerminatingPods, terminatedPodsToDelete, unscheduledTerminatingPods } from './pod-gc-policy';

export const POD_GC_CONTROLLER = 'pod-garbage-collector-controller';
export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
export const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };
export const GC_CHECK_PERIOD_MS = 20_000;
export const QUARANTINE_MS = 40_000;
const FIELD_MANAGER = 'PodGC';

export interface PodGCOptions {
  readonly terminatedPodThreshold?: number;
}

interface PodCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

export function podGCController(ctx: ControllerContext, options: PodGCOptions = {}): Controller {
  const pods = ctx.informers.for(PODS);
  const nodes = ctx.informers.for(NODES);
  const threshold = options.terminatedPodThreshold ?? DEFAULT_TERMINATED_POD_GC_THRESHOLD;
  /** Missing nodes in quarantine: when each may be looked up. */
  const quarantine = new Map<string, number>();
  let timer: TimerHandle | undefined;
  let stopped = false;

  async function markFailedAndDelete(pod: KubeObject, condition?: PodCondition): Promise<void> {
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const phase = str(rec(pod.status).phase);
    try {
      if (phase !== 'Succeeded' && phase !== 'Failed') {
        const status: Record<string, unknown> = { phase: 'Failed' };
        if (condition) status.conditions = [{ ...condition, lastTransitionTime: rfc3339(ctx.clock.now()) }];
        const path = `${resourcePath(PODS, { namespace, name, subresource: 'status' })}?fieldManager=${FIELD_MANAGER}&force=true`;
        await ctx.client.call('PATCH', path, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, status }, { 'Content-Type': 'application/apply-patch+yaml' });
      }
      await ctx.client.delete(PODS, namespace, name, { gracePeriodSeconds: 0 });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
  }

  /** discoverDeletedNodes: quarantined nodes whose time has come and that the API confirms are gone. */
  async function deletedNodes(existing: ReadonlySet<string>): Promise<Set<string>> {
    const gone = new Set<string>();
    const now = ctx.clock.now();
    for (const [node, due] of [...quarantine]) {
      if (due > now) continue;
      quarantine.delete(node);
      if (existing.has(node)) continue;
      try {
        await ctx.client.get(NODES, '', node);
      } catch (err) {
        if (isNotFound(err)) gone.add(node);
        else ctx.log(`error while getting node ${node}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return gone;
  }

  async function gc(): Promise<void> {
    const allPods = pods.list();
    const nodeList = nodes.list();
    const byName = new Map(nodeList.map((n) => [n.metadata?.name ?? '', n]));
    const failures: unknown[] = [];
    const run = async (list: readonly KubeObject[], condition?: PodCondition) => {
      await Promise.all(list.map((p) => markFailedAndDelete(p, condition).catch((err) => failures.push(err))));
    };
    await run(terminatedPodsToDelete(allPods, threshold));
    await run(outOfServiceTerminatingPods(allPods, byName));
    // gcOrphaned: missing nodes wait out the quarantine before their pods go.
    const now = ctx.clock.now();
    for (const pod of allPods) {
      const node = str(rec(pod.spec).nodeName);
      if (node && !byName.has(node) && !quarantine.has(node)) quarantine.set(node, now + QUARANTINE_MS);
    }
    const gone = await deletedNodes(new Set(byName.keys()));
    const orphans = allPods.filter((p) => gone.has(str(rec(p.spec).nodeName)));
    await run(orphans, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
    await run(unscheduledTerminatingPods(allPods));
    if (failures.length > 0) ctx.log(`pod GC: ${failures.length} deletion(s) failed: ${failures.map((e) => (e instanceof Error ? e.message : String(e))).join('; ')}`);
  }

  const queue = new WorkQueue(
    POD_GC_CONTROLLER,
    ctx.activity,
    async () => {
      try {
        await gc();
      } finally {
        // wait.Until: the next pass a period after this one ends.
        if (!stopped) timer = ctx.timers.after(GC_CHECK_PERIOD_MS, () => queue.add('gc'));
      }
    },
    ctx.log,
  );

  return {
    name: POD_GC_CONTROLLER,
    start() {
      void Promise.all([pods.synced, nodes.synced]).then(() => {
        if (!stopped) queue.add('gc');
      });
    },
    async stop() {
      stopped = true;
      ctx.timers.cancel(timer);
      await queue.stop();
    },
  };
}
