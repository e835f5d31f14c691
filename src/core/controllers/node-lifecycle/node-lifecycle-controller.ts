// kube-controller-manager's node-lifecycle controller (acting as the
// node-controller service account). Every node-monitor-period (5 s, on the
// cluster's Clock) it looks at every Node and its Lease in kube-node-lease
// (node-health.ts): a node whose kubelet went silent gets its conditions set
// to Unknown ("Kubelet stopped posting node status."), a NodeNotReady event,
// its pods' Ready condition set False (MarkPodsNotReady, with the pods'
// NodeNotReady events), and — through a per-zone rate-limited queue (0.1
// nodes/s) — the node.kubernetes.io/unreachable:NoExecute taint
// (not-ready:NoExecute when Ready is False), which the taint-eviction
// controller turns into evictions. A Ready node loses those taints. On every
// Node change it keeps the NoSchedule taints that mirror the conditions
// (TaintNodesByCondition: not-ready, unreachable, memory/disk/pid-pressure,
// network-unavailable, unschedulable) and the beta os/arch labels. Zones
// whose nodes are all down stop evictions (kube's disruption modes); the
// controller records RegisteredNode / RemovingNode as it first sees or loses
// a node.
//
// Time: a pass that runs much later than it was due (the Clock was moved
// forward, or the host slept — a browser's service worker stopped, a laptop
// closed) judges nothing: the kubelets, which run on the same Clock, have had
// no chance to renew their leases in between, so it only schedules the next
// pass, one period on, by which time they have. A controller that starts
// (after a restart of the server) gives every node the full grace period from
// its own start, as kube's does, so a cluster reopened the next morning is
// not found dead and evicted.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { errorMessage, isConflict, isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import type { Controller, ControllerContext } from '../runtime/controller';
import type { EventRecorder } from '../runtime/event-recorder';
import { WorkQueue } from '../runtime/work-queue';
import type { TimerHandle } from '../../util/clock-timers';
import { assessNode, DEFAULT_TIMINGS, type HealthTimings, type NodeHealth } from './node-health';
import {
  conditionsOf,
  hasTaint,
  LEASES,
  NODE_LEASE_NAMESPACE,
  nodeCondition,
  nodeNameOf,
  NODES,
  PODS,
  sameTaint,
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
  taintsOf,
  zoneKey,
  type NodeCondition,
  type Taint,
} from './taints';

export const NODE_LIFECYCLE_CONTROLLER = 'node-lifecycle-controller';

export interface NodeLifecycleOptions extends Partial<HealthTimings> {
  /** --node-monitor-period (5 s). */
  readonly monitorPeriodMs?: number;
  /** --node-eviction-rate (0.1 nodes per second). */
  readonly evictionQps?: number;
  /** --secondary-node-eviction-rate (0.01). */
  readonly secondaryEvictionQps?: number;
  /** --large-cluster-size-threshold (50). */
  readonly largeClusterThreshold?: number;
  /** --unhealthy-zone-threshold (0.55). */
  readonly unhealthyZoneThreshold?: number;
}

const UNREACHABLE_NO_EXECUTE: Taint = { key: TAINT_UNREACHABLE, effect: 'NoExecute' };
const NOT_READY_NO_EXECUTE: Taint = { key: TAINT_NOT_READY, effect: 'NoExecute' };

/** nodeConditionToTaintKeyStatusMap: the NoSchedule taint each condition status stands for. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const CONDITION_TAINT_KEYS = new Set([...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)), TAINT_UNSCHEDULABLE]);

/** The beta labels kept equal to the stable ones (reconcileNodeLabels). */
const LABEL_PAIRS: [string, string][] = [
  ['kubernetes.io/os', 'beta.kubernetes.io/os'],
  ['kubernetes.io/arch', 'beta.kubernetes.io/arch'],
];

type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

/** A zone's NoExecute tainting queue with its token-bucket limiter (burst 1) on the cluster's Clock. */
interface ZoneTainter {
  readonly queue: Map<string, string>;
  qps: number;
  tokens: number;
  refilledAt: number;
}

const MONITOR_KEY = '\u0000monitor';
const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

export function nodeLifecycleController(ctx: ControllerContext, options: NodeLifecycleOptions = {}): Controller {
  const timings: HealthTimings = { monitorGraceMs: options.monitorGraceMs ?? DEFAULT_TIMINGS.monitorGraceMs, startupGraceMs: options.startupGraceMs ?? DEFAULT_TIMINGS.startupGraceMs };
  const period = options.monitorPeriodMs ?? 5_000;
  const evictionQps = options.evictionQps ?? 0.1;
  const secondaryQps = options.secondaryEvictionQps ?? 0.01;
  const largeCluster = options.largeClusterThreshold ?? 50;
  const unhealthyThreshold = options.unhealthyZoneThreshold ?? 0.55;
  const nodes = ctx.informers.for(NODES);
  const leases = ctx.informers.for(LEASES);
  const pods = ctx.informers.for(PODS);
  const recorder: EventRecorder = ctx.recorder('node-controller');
  const known = new Map<string, KubeObject>();
  const healths = new Map<string, NodeHealth>();
  const zoneStates = new Map<string, ZoneState>();
  const tainters = new Map<string, ZoneTainter>();
  const nodesToRetry = new Set<string>();
  const unsubscribe: (() => void)[] = [];
  let monitorTimer: TimerHandle | undefined;
  let monitorDue = 0;
  let stopped = false;

  const now = () => ctx.clock.now();
  const podsOnNode = (name: string) => pods.list().filter((p) => nodeNameOf(p) === name);
  const nodeEvent = (node: KubeObject, uid: string, reason: string, message: string) =>
    recorder.emit({ apiVersion: 'v1', kind: 'Node', metadata: { name: node.metadata?.name, uid } }, { type: 'Normal', reason, message });

  // ---- writes ----

  /** Adds and removes taints on the latest Node (controller.AddOrUpdateTaintOnNode / RemoveTaintOffNode), guarded by its resourceVersion. */
  async function swapTaints(name: string, add: readonly Taint[], remove: readonly Taint[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const node = attempt === 0 ? (nodes.get('', name) ?? (await ctx.client.get(NODES, '', name))) : await ctx.client.get(NODES, '', name);
      const old = taintsOf(node);
      let next = old.filter((t) => !remove.some((r) => sameTaint(r, t)));
      const stamp = rfc3339(now());
      for (const t of add) if (!next.some((x) => sameTaint(x, t))) next = [...next, { ...t, timeAdded: stamp }];
      if (next.length === old.length && next.every((t, i) => t === old[i])) return;
      try {
        await ctx.client.patch(NODES, '', name, { metadata: { resourceVersion: node.metadata?.resourceVersion }, spec: { taints: next.length ? next : null } }, 'application/merge-patch+json');
        return;
      } catch (err) {
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }

  /** Removes the NoExecute taints and drops the node from its zone's queue (markNodeAsReachable). */
  async function markReachable(node: KubeObject): Promise<void> {
    const name = node.metadata?.name ?? '';
    if (hasTaint(nodes.get('', name) ?? node, UNREACHABLE_NO_EXECUTE) || hasTaint(nodes.get('', name) ?? node, NOT_READY_NO_EXECUTE)) {
      await swapTaints(name, [], [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE]);
    }
    tainters.get(zoneKey(node))?.queue.delete(name);
  }

  /** MarkPodsNotReady: the pods' Ready condition set False, each with a NodeNotReady event. */
  async function markPodsNotReady(list: readonly KubeObject[], nodeName: string): Promise<void> {
    const errors: string[] = [];
    for (const pod of list) {
      if (nodeNameOf(pod) !== nodeName) continue;
      const status = (pod['status'] as Record<string, unknown> | undefined) ?? {};
      const conditions = Array.isArray(status['conditions']) ? (status['conditions'] as Record<string, unknown>[]) : [];
      const i = conditions.findIndex((c) => c['type'] === 'Ready');
      if (i < 0 || conditions[i]!['status'] === 'False') continue;
      const next = conditions.map((c, j) => (j === i ? { ...c, status: 'False', lastTransitionTime: rfc3339(now()) } : c));
      try {
        await ctx.client.update(PODS, pod.metadata?.namespace ?? '', { ...pod, status: { ...status, conditions: next } }, 'status');
      } catch (err) {
        if (isNotFound(err)) continue;
        errors.push(errorMessage(err));
        continue;
      }
      recorder.emit(pod, { type: 'Warning', reason: 'NodeNotReady', message: 'Node is not ready' });
    }
    if (errors.length) throw new Error(errors.join('; '));
  }

  // ---- the monitor pass ----

  function tainterFor(zone: string): ZoneTainter {
    let t = tainters.get(zone);
    if (!t) {
      t = { queue: new Map(), qps: evictionQps, tokens: 1, refilledAt: now() };
      tainters.set(zone, t);
      zoneStates.set(zone, 'Initial');
    }
    return t;
  }

  function markForTainting(node: KubeObject, status: 'False' | 'Unknown'): void {
    const t = tainterFor(zoneKey(node));
    const name = node.metadata?.name ?? '';
    if (status === 'False' && !hasTaint(node, NOT_READY_NO_EXECUTE)) t.queue.delete(name);
    if (status === 'Unknown' && !hasTaint(node, UNREACHABLE_NO_EXECUTE)) t.queue.delete(name);
    if (!t.queue.has(name)) t.queue.set(name, node.metadata?.uid ?? '');
  }

  async function processTaintBasedEviction(node: KubeObject, observedReady: NodeCondition): Promise<void> {
    const name = node.metadata?.name ?? '';
    if (observedReady.status === 'False') {
      if (hasTaint(node, UNREACHABLE_NO_EXECUTE)) await swapTaints(name, [NOT_READY_NO_EXECUTE], [UNREACHABLE_NO_EXECUTE]);
      else markForTainting(node, 'False');
    } else if (observedReady.status === 'Unknown') {
      if (hasTaint(node, NOT_READY_NO_EXECUTE)) await swapTaints(name, [UNREACHABLE_NO_EXECUTE], [NOT_READY_NO_EXECUTE]);
      else markForTainting(node, 'Unknown');
    } else if (observedReady.status === 'True') {
      await markReachable(node);
    }
  }

  /** doNoExecuteTaintingPass: taints queued nodes as each zone's limiter allows. */
  async function noExecuteTaintingPass(): Promise<void> {
    const t0 = now();
    for (const tainter of tainters.values()) {
      tainter.tokens = Math.min(1, tainter.tokens + ((t0 - tainter.refilledAt) / 1000) * tainter.qps);
      tainter.refilledAt = t0;
      for (const [name] of [...tainter.queue]) {
        if (tainter.qps <= 0 || tainter.tokens < 1) break;
        const node = nodes.get('', name);
        // The Ready condition as this controller last saw or wrote it (the informer may not show its own write yet).
        const ready = healths.get(name)?.savedReady ?? nodeCondition(node, 'Ready');
        if (!node) {
          tainter.queue.delete(name);
          continue;
        }
        // Not known yet: tried again at the next pass.
        if (!ready) continue;
        if (ready.status !== 'False' && ready.status !== 'Unknown') {
          tainter.queue.delete(name);
          continue;
        }
        const [add, opposite] = ready.status === 'False' ? [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE] : [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
        try {
          await swapTaints(name, [add], [opposite]);
          tainter.queue.delete(name);
          tainter.tokens -= 1;
        } catch (err) {
          ctx.log(`failed to taint node ${name}: ${errorMessage(err)}`);
        }
      }
    }
  }

  function computeZoneState(readies: readonly (NodeCondition | undefined)[]): ZoneState {
    let ready = 0;
    let notReady = 0;
    for (const r of readies) if (r?.status === 'True') ready++;
    else notReady++;
    if (ready === 0 && notReady > 0) return 'FullDisruption';
    if (notReady > 2 && notReady / (notReady + ready) >= unhealthyThreshold) return 'PartialDisruption';
    return 'Normal';
  }

  function setLimiter(zone: string, size: number, state: ZoneState): void {
    const t = tainterFor(zone);
    if (state === 'Normal' || state === 'FullDisruption') t.qps = evictionQps;
    else if (state === 'PartialDisruption') t.qps = size > largeCluster ? secondaryQps : 0;
  }

  async function handleDisruption(byZone: Map<string, (NodeCondition | undefined)[]>, all: readonly KubeObject[]): Promise<void> {
    const newStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, readies] of byZone) {
      const state = computeZoneState(readies);
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
      newStates.set(zone, state);
      if (!zoneStates.has(zone)) zoneStates.set(zone, 'Initial');
    }
    let allWasFullyDisrupted = true;
    for (const [zone, state] of [...zoneStates]) {
      if (!byZone.has(zone)) {
        zoneStates.delete(zone);
        continue;
      }
      if (state !== 'FullDisruption') {
        allWasFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      ctx.log('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const node of all) await markReachable(node).catch((err) => ctx.log(`failed to remove taints from node ${node.metadata?.name}: ${errorMessage(err)}`));
      for (const zone of zoneStates.keys()) {
        tainterFor(zone).qps = 0;
        zoneStates.set(zone, 'FullDisruption');
      }
      return;
    }
    if (allWasFullyDisrupted) {
      ctx.log('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      const t = now();
      for (const node of all) {
        const name = node.metadata?.name ?? '';
        const h = healths.get(name);
        if (h) healths.set(name, { ...h, probeMs: t, readyTransitionMs: t });
      }
      for (const zone of zoneStates.keys()) {
        setLimiter(zone, byZone.get(zone)?.length ?? 0, newStates.get(zone) ?? 'Normal');
        zoneStates.set(zone, newStates.get(zone) ?? 'Normal');
      }
      return;
    }
    for (const [zone, state] of zoneStates) {
      const next = newStates.get(zone);
      if (!next || next === state) continue;
      setLimiter(zone, byZone.get(zone)?.length ?? 0, next);
      zoneStates.set(zone, next);
    }
  }

  /** tryUpdateNodeHealth with its retries: writes Unknown conditions when the node went silent. */
  async function updateHealth(node: KubeObject): Promise<{ observedReady: NodeCondition; currentReady: NodeCondition | undefined; node: KubeObject }> {
    let subject = node;
    for (let attempt = 0; ; attempt++) {
      const name = subject.metadata?.name ?? '';
      const lease = leases.get(NODE_LEASE_NAMESPACE, name);
      const renew = (lease?.['spec'] as { renewTime?: string } | undefined)?.renewTime;
      const a = assessNode(subject, healths.get(name), renew, now(), timings);
      if (!a.statusUpdate) {
        healths.set(name, a.health);
        return { observedReady: a.observedReady, currentReady: a.currentReady, node: subject };
      }
      try {
        const written = await ctx.client.update(NODES, '', a.statusUpdate, 'status');
        healths.set(name, a.afterUpdate ?? a.health);
        return { observedReady: a.observedReady, currentReady: a.currentReady, node: written };
      } catch (err) {
        healths.set(name, a.health);
        if (!isConflict(err) || attempt >= 4) throw err;
        subject = await ctx.client.get(NODES, '', name);
      }
    }
  }

  async function monitorNodeHealth(): Promise<void> {
    const all = nodes.list();
    const names = new Set(all.map((n) => n.metadata?.name ?? ''));
    for (const node of all) {
      const name = node.metadata?.name ?? '';
      if (known.has(name)) {
        tainterFor(zoneKey(node));
        continue;
      }
      nodeEvent(node, node.metadata?.uid ?? '', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
      known.set(name, node);
      tainterFor(zoneKey(node));
      await markReachable(node).catch((err) => ctx.log(`failed to remove taints from node ${name}: ${errorMessage(err)}`));
    }
    for (const [name, node] of [...known]) {
      if (names.has(name)) continue;
      nodeEvent(node, node.metadata?.uid ?? '', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
      known.delete(name);
      healths.delete(name);
      nodesToRetry.delete(name);
    }
    const byZone = new Map<string, (NodeCondition | undefined)[]>();
    for (const original of all) {
      const name = original.metadata?.name ?? '';
      let result: Awaited<ReturnType<typeof updateHealth>>;
      try {
        result = await updateHealth(original);
      } catch (err) {
        ctx.log(`Update health of Node ${name} from Controller error, Skipping - no pods will be evicted: ${errorMessage(err)}`);
        continue;
      }
      const { observedReady, currentReady, node } = result;
      // Nodes labelled node.kubernetes.io/exclude-disruption do not count towards their zone's state.
      if (!(EXCLUDE_DISRUPTION_LABEL in (original.metadata?.labels ?? {}))) {
        const zone = zoneKey(original);
        byZone.set(zone, [...(byZone.get(zone) ?? []), currentReady]);
      }
      if (!currentReady) continue;
      try {
        await processTaintBasedEviction(node, observedReady);
      } catch (err) {
        ctx.log(`failed to update the NoExecute taints of node ${name}: ${errorMessage(err)}`);
      }
      const becameNotReady = currentReady.status !== 'True' && observedReady.status === 'True';
      if (becameNotReady) nodeEvent(node, node.metadata?.uid ?? '', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
      if (becameNotReady || (nodesToRetry.has(name) && observedReady.status !== 'True')) {
        try {
          await markPodsNotReady(podsOnNode(name), name);
        } catch (err) {
          ctx.log(`unable to mark all pods NotReady on node ${name}: ${errorMessage(err)}; queuing for retry`);
          nodesToRetry.add(name);
          continue;
        }
      }
      nodesToRetry.delete(name);
    }
    await handleDisruption(byZone, all);
    await noExecuteTaintingPass();
  }

  // ---- per-node and per-pod work ----

  /** doNoScheduleTaintingPass and reconcileNodeLabels for one node. */
  async function processNode(name: string): Promise<void> {
    const node = nodes.get('', name);
    if (!node) return;
    const want: Taint[] = [];
    for (const c of conditionsOf(node)) {
      const key = CONDITION_TAINTS[c.type]?.[c.status];
      if (key) want.push({ key, effect: 'NoSchedule' });
    }
    if ((node['spec'] as { unschedulable?: boolean } | undefined)?.unschedulable === true) want.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
    const have = taintsOf(node).filter((t) => t.effect === 'NoSchedule' && CONDITION_TAINT_KEYS.has(t.key));
    const add = want.filter((w) => !have.some((h) => sameTaint(h, w)));
    const remove = have.filter((h) => !want.some((w) => sameTaint(h, w)));
    if (add.length || remove.length) await swapTaints(name, add, remove);
    const labels = node.metadata?.labels;
    if (!labels) return;
    const update: Record<string, string> = {};
    for (const [stable, beta] of LABEL_PAIRS) if (stable in labels && labels[beta] !== labels[stable]) update[beta] = labels[stable]!;
    if (Object.keys(update).length) await ctx.client.patch(NODES, '', name, { metadata: { labels: update } }, 'application/strategic-merge-patch+json');
  }

  /** processPod: a pod newly bound to a node that is not Ready is marked not ready at once. */
  async function processPod(namespace: string, name: string): Promise<void> {
    const pod = pods.get(namespace, name);
    if (!pod) return;
    const nodeName = nodeNameOf(pod);
    const health = healths.get(nodeName);
    if (!health || !nodes.get('', nodeName)) return;
    const ready = health.savedReady;
    if (ready && ready.status !== 'True') await markPodsNotReady([pod], nodeName);
  }

  const queue = new WorkQueue(
    NODE_LIFECYCLE_CONTROLLER,
    ctx.activity,
    async (key) => {
      if (key === MONITOR_KEY) {
        await monitorNodeHealth();
        return;
      }
      if (key.startsWith('node/')) return processNode(key.slice(5));
      const rest = key.slice(4);
      const slash = rest.indexOf('/');
      return processPod(rest.slice(0, slash), rest.slice(slash + 1));
    },
    ctx.log,
  );

  function scheduleMonitor(at: number): void {
    if (stopped) return;
    monitorDue = at;
    monitorTimer = ctx.timers.at(at, () => {
      const late = now() - monitorDue > period;
      // A pass long overdue judges nothing (see the header): the next one, a period on, does.
      if (!late) queue.add(MONITOR_KEY);
      scheduleMonitor(Math.max(monitorDue + period, late ? now() + period : 0));
    });
  }

  return {
    name: NODE_LIFECYCLE_CONTROLLER,
    start() {
      void Promise.all([nodes.synced, leases.synced, pods.synced]).then(() => {
        if (stopped) return;
        unsubscribe.push(
          nodes.addHandler({
            onAdd: (n) => queue.add(`node/${n.metadata?.name ?? ''}`),
            onUpdate: (_o, n) => queue.add(`node/${n.metadata?.name ?? ''}`),
          }),
          pods.addHandler({
            onAdd: (p) => {
              if (nodeNameOf(p)) queue.add(`pod/${objectKey(p)}`);
            },
            onUpdate: (o, p) => {
              if (nodeNameOf(p) && nodeNameOf(p) !== nodeNameOf(o)) queue.add(`pod/${objectKey(p)}`);
            },
          }),
        );
        queue.add(MONITOR_KEY);
        scheduleMonitor(now() + period);
      });
    },
    async stop() {
      stopped = true;
      ctx.timers.cancel(monitorTimer);
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
