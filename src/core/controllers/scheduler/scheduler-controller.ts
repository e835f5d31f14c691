// KubeTab's kube-scheduler (docs/decisions/0142): every pod of schedulerName
// default-scheduler that is not bound, not being deleted, not gated and not
// finished is placed by the default profile's plugins (framework.ts) and
// bound through pods/binding; when nothing fits it writes PodScheduled=False
// (reason Unschedulable, kube's FitError message; SchedulerError when the
// binding fails) and a FailedScheduling
// event, and waits in the scheduling queue for a cluster change that may
// help (scheduling-queue.ts). Decisions are made one pod at a time against
// the scheduler's cache, in which a pod being bound already counts on its
// node; bindings run in the background, as kube's binding cycle does. A pod
// with WaitForFirstConsumer claims is bound only once the PV controller has
// bound them (VolumeBinding's PreBind, checked every second for at most
// bindTimeoutSeconds, on the Clock and not as work in hand).

import type { KubeObject } from '../../kinds/types';
import { afterCurrentTask } from '../../util/after-current-task';
import { isConflict, isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import { resourcePath, type GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { fitErrorMessage, NO_NODES_AVAILABLE } from './fit-error';
import { schedule, type ClusterView } from './framework';
import { arr, rec, str, type Obj } from './objects';
import { podInfo, type PodInfo } from './pod-info';
import { preempt, type Candidate } from './preemption';
import { SchedulerCache } from './scheduler-cache';
import { SchedulerEventRecorder, SCHEDULER_NAME } from './scheduler-events';
import { SchedulingQueue } from './scheduling-queue';
import { rfc3339 } from '../../clock';
import { ANNOTATION_SELECTED_NODE, type VolumeState } from './volume-binding';

export const SCHEDULER_CONTROLLER = 'kube-scheduler';
const gvr = (group: string, version: string, resource: string): GroupVersionResource => ({ group, version, resource });
export const PODS = gvr('', 'v1', 'pods');
export const NODES = gvr('', 'v1', 'nodes');
const NAMESPACES = gvr('', 'v1', 'namespaces');
const PVCS = gvr('', 'v1', 'persistentvolumeclaims');
const PVS = gvr('', 'v1', 'persistentvolumes');
const STORAGE_CLASSES = gvr('storage.k8s.io', 'v1', 'storageclasses');
const SERVICES = gvr('', 'v1', 'services');
const REPLICATION_CONTROLLERS = gvr('', 'v1', 'replicationcontrollers');
const REPLICA_SETS = gvr('apps', 'v1', 'replicasets');
const STATEFUL_SETS = gvr('apps', 'v1', 'statefulsets');

/** VolumeBinding's PreBind: how often it checks that the claims are bound, and for how long (bindTimeoutSeconds). */
const VOLUME_BIND_POLL_MS = 1000;
const VOLUME_BIND_TIMEOUT_MS = 600_000;
const ANNOTATION_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';

interface VolumeWait {
  readonly info: PodInfo;
  readonly node: string;
  readonly claimNames: readonly string[];
  /** The resourceVersion of each claim this scheduler annotated. */
  readonly written: ReadonlyMap<string, number>;
  readonly deadline: number;
  /** The outcome is being acted on. */
  checking: boolean;
}

/** Pods scheduled in a row before the loop lets the informers and requests run. */
const BATCH = 25;

const isTerminal = (pod: KubeObject) => ['Succeeded', 'Failed'].includes(str(rec(pod.status).phase));

/** A pod this scheduler should place. */
export function needsScheduling(pod: KubeObject): boolean {
  const spec = rec(pod.spec);
  return (
    (spec.schedulerName ?? SCHEDULER_NAME) === SCHEDULER_NAME &&
    !spec.nodeName &&
    !pod.metadata?.deletionTimestamp &&
    arr(spec.schedulingGates).length === 0 &&
    !isTerminal(pod)
  );
}

/** The pod's status with PodScheduled=False as the scheduler writes it, or undefined when it already says so. */
export function unschedulableStatus(pod: KubeObject, message: string, nowMs: number, reason = 'Unschedulable'): Obj | undefined {
  const status = rec(pod.status);
  const conditions = arr(status.conditions).map(rec);
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = i >= 0 ? conditions[i] : undefined;
  if (old && old.status === 'False' && old.reason === reason && old.message === message) return undefined;
  // podutil.UpdatePodCondition: the transition time moves only when the status changes.
  const lastTransitionTime = old && old.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(nowMs);
  const condition = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime, reason, message };
  const next = [...conditions];
  if (i >= 0) next[i] = condition;
  else next.push(condition);
  return { ...status, conditions: next };
}

/** Whether an update of a pending pod may change where it fits (not a status-only write). */
function podSpecChanged(old: KubeObject, pod: KubeObject): boolean {
  const strip = (p: KubeObject) => JSON.stringify([p.spec, p.metadata?.labels, p.metadata?.annotations]);
  return strip(old) !== strip(pod);
}

/** Whether a node change may make a waiting pod fit, and which plugins care (nodeSchedulingPropertiesChange). */
function nodeChangePlugins(old: KubeObject, node: KubeObject): string[] {
  const plugins: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const ready = (n: KubeObject) => arr(rec(n.status).conditions).map(rec).find((c) => c.type === 'Ready')?.status;
  if (rec(old.spec).unschedulable !== rec(node.spec).unschedulable) plugins.push('NodeUnschedulable');
  if (!same(rec(old.status).allocatable, rec(node.status).allocatable)) plugins.push('NodeResourcesFit');
  if (!same(old.metadata?.labels, node.metadata?.labels)) plugins.push('NodeAffinity', 'PodTopologySpread', 'InterPodAffinity', 'VolumeBinding');
  if (!same(rec(old.spec).taints, rec(node.spec).taints) || ready(old) !== ready(node)) plugins.push('TaintToleration', 'PodTopologySpread');
  return plugins;
}

export function schedulerController(ctx: ControllerContext): Controller {
  const informer = (g: GroupVersionResource) => ctx.informers.for(g);
  const pods = informer(PODS);
  const nodes = informer(NODES);
  const namespaces = informer(NAMESPACES);
  const claims = informer(PVCS);
  const volumes = informer(PVS);
  const classes = informer(STORAGE_CLASSES);
  const services = informer(SERVICES);
  const rcs = informer(REPLICATION_CONTROLLERS);
  const replicaSets = informer(REPLICA_SETS);
  const statefulSets = informer(STATEFUL_SETS);
  const all = [pods, nodes, namespaces, claims, volumes, classes, services, rcs, replicaSets, statefulSets];

  const cache = new SchedulerCache();
  const events = new SchedulerEventRecorder(ctx);
  const unsubscribe: (() => void)[] = [];
  let stopped = false;
  let running: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();
  /** Pods whose binding waits for the PV controller, by uid. */
  const volumeWaits = new Map<string, VolumeWait>();

  const view: ClusterView = {
    namespaceLabels: (ns) => namespaces.get('', ns)?.metadata?.labels,
    claim: (ns, name) => claims.get(ns, name),
    volume: (name) => volumes.get('', name),
    storageClass: (name) => classes.get('', name),
    services: (ns) => services.list(ns),
    replicaSet: (ns, name) => replicaSets.get(ns, name),
    statefulSet: (ns, name) => statefulSets.get(ns, name),
    replicationController: (ns, name) => rcs.get(ns, name),
  };

  const queue = new SchedulingQueue(ctx.timers, () => kick());

  /** Runs an API action in the background, counted as work in hand. */
  function background(action: () => Promise<void>): void {
    const end = ctx.activity.begin();
    const p = action()
      .catch((err) => ctx.log(`${SCHEDULER_CONTROLLER}: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        inFlight.delete(p);
        end();
      });
    inFlight.add(p);
  }

  function kick(): void {
    if (running || stopped) return;
    const end = ctx.activity.begin();
    running = (async () => {
      try {
        // Let the informers deliver what arrived with the event that woke us.
        await new Promise<void>((resolve) => afterCurrentTask(resolve));
        let n = 0;
        while (!stopped) {
          const key = queue.pop();
          if (key === undefined) break;
          scheduleOne(key);
          if (++n % BATCH === 0) await new Promise<void>((resolve) => afterCurrentTask(resolve));
        }
      } finally {
        running = undefined;
        end();
        if (!stopped && queue.activeCount > 0) kick();
      }
    })();
  }

  function scheduleOne(key: string): void {
    const slash = key.indexOf('/');
    const pod = pods.get(key.slice(0, slash), key.slice(slash + 1));
    if (!pod || !needsScheduling(pod)) return queue.done(key);
    const info = podInfo(pod);
    if (cache.isAssumed(info.uid)) return;
    const decision = schedule(info, cache.nodeList(), view);
    if (decision.kind === 'bind') {
      cache.assume(info, decision.node);
      background(() => bind(info, decision.node, decision.volumes));
      return;
    }
    if (decision.kind === 'noNodes') {
      queue.unschedulable(key, new Set());
      background(() => failed(pod, NO_NODES_AVAILABLE));
      return;
    }
    const outcome = preempt(info, decision.diagnosis, cache.nodeList(), view);
    queue.unschedulable(key, decision.diagnosis.plugins);
    const message = fitErrorMessage(decision.diagnosis, outcome.message);
    background(async () => {
      if (outcome.candidate) await preemptFor(info, outcome.candidate);
      await failed(pod, message, outcome.candidate?.node);
    });
  }

  async function bind(info: PodInfo, node: string, volumeState: VolumeState): Promise<void> {
    const { namespace } = info;
    const claimNames = volumeState.delayedClaims.map((c) => c.metadata?.name ?? '');
    // The claims as written here: the informer may not have them yet (kube's assume cache).
    const written = new Map<string, number>();
    try {
      // PreBind (VolumeBinding): tell the PV controller where the pod goes.
      for (const claim of volumeState.delayedClaims) {
        if (claim.metadata?.annotations?.[ANNOTATION_SELECTED_NODE] === node) continue;
        const patch = { metadata: { annotations: { [ANNOTATION_SELECTED_NODE]: node } } };
        const updated = await ctx.client.patch(PVCS, namespace, claim.metadata?.name ?? '', patch, 'application/merge-patch+json');
        written.set(claim.metadata?.name ?? '', Number(updated.metadata?.resourceVersion ?? 0));
      }
    } catch (err) {
      return bindingFailed(info, err, `running PreBind plugin "VolumeBinding": ${err instanceof Error ? err.message : String(err)}`);
    }
    if (claimNames.length > 0) return awaitClaims(info, node, claimNames, written, ctx.clock.now() + VOLUME_BIND_TIMEOUT_MS);
    await bindToNode(info, node);
  }

  /**
   * BindPodVolumes' wait: whether the PV controller has bound each claim (or
   * dropped the node it was told, a failed provisioning), checked every
   * second until the timeout, and at once when one of the claims changes.
   * The wait is on the Clock, not work in hand.
   */
  function awaitClaims(info: PodInfo, node: string, claimNames: readonly string[], written: ReadonlyMap<string, number>, deadline: number): void {
    const waiting: VolumeWait = { info, node, claimNames, written, deadline, checking: false };
    volumeWaits.set(info.uid, waiting);
    pollClaims(waiting);
  }

  function pollClaims(waiting: VolumeWait): void {
    ctx.timers.after(VOLUME_BIND_POLL_MS, () => {
      if (stopped || volumeWaits.get(waiting.info.uid) !== waiting) return;
      checkClaims(waiting);
      if (volumeWaits.get(waiting.info.uid) === waiting) pollClaims(waiting);
    });
  }

  function checkClaims(waiting: VolumeWait): void {
    if (waiting.checking) return;
    const { info, node, claimNames } = waiting;
    const pod = pods.get(info.namespace, info.name);
    if (!pod || pod.metadata?.uid !== info.uid || !needsScheduling(pod)) {
      volumeWaits.delete(info.uid);
      cache.forget(info.uid);
      return queue.done(info.key);
    }
    let problem: string | undefined;
    let bound = true;
    for (const claimName of claimNames) {
      const claim = claims.get(info.namespace, claimName);
      if (!claim) {
        problem = `failed to check provisioning pvc: persistentvolumeclaim "${claimName}" not found`;
        break;
      }
      if (Number(claim.metadata?.resourceVersion ?? 0) < (waiting.written.get(claimName) ?? 0)) {
        bound = false;
        continue;
      }
      if (claim.metadata?.annotations?.[ANNOTATION_SELECTED_NODE] !== node) {
        problem = `provisioning failed for PVC "${claimName}"`;
        break;
      }
      if (!str(rec(claim.spec).volumeName) || claim.metadata?.annotations?.[ANNOTATION_BIND_COMPLETED] === undefined) bound = false;
    }
    if (!problem && !bound && ctx.clock.now() < waiting.deadline) return;
    volumeWaits.delete(info.uid);
    waiting.checking = true;
    if (!problem && bound) return background(() => bindToNode(info, node));
    const cause = problem ?? 'context deadline exceeded';
    background(() => bindingFailed(info, undefined, `running PreBind plugin "VolumeBinding": binding volumes: ${cause}`));
  }

  /** A changed claim may end the wait of pods whose binding waits for it. */
  const onClaimChange = (claim: KubeObject) => {
    for (const waiting of [...volumeWaits.values()]) {
      if (waiting.info.namespace === claim.metadata?.namespace && waiting.claimNames.includes(claim.metadata?.name ?? '')) checkClaims(waiting);
    }
  };

  /** handleBindingCycleError: an error, not a misfit (reason SchedulerError), retried after the back-off. */
  async function bindingFailed(info: PodInfo, err: unknown, message: string): Promise<void> {
    cache.forget(info.uid);
    if (err !== undefined && isNotFound(err)) return queue.done(info.key);
    const current = pods.get(info.namespace, info.name);
    if (!current || current.metadata?.uid !== info.uid) return queue.done(info.key);
    queue.retryAfterError(info.key);
    await failed(current, message, undefined, 'SchedulerError');
  }

  async function bindToNode(info: PodInfo, node: string): Promise<void> {
    const { namespace, name } = info;
    try {
      await ctx.client.call('POST', resourcePath(PODS, { namespace, name, subresource: 'binding' }), {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace, uid: info.uid },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      });
    } catch (err) {
      return bindingFailed(info, err, `running Bind plugin "DefaultBinder": ${err instanceof Error ? err.message : String(err)}`);
    }
    queue.done(info.key);
    await events.record(info.pod, { type: 'Normal', reason: 'Scheduled', action: 'Binding', note: `Successfully assigned ${namespace}/${name} to ${node}` });
  }

  async function failed(pod: KubeObject, message: string, nominatedNode?: string, reason = 'Unschedulable'): Promise<void> {
    await events.record(pod, { type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note: message });
    // updatePod: write the condition (and nomination) only when they change; on a conflict, read the pod again.
    let current = pod;
    for (let attempt = 0; attempt < 3; attempt++) {
      const changed = unschedulableStatus(current, message, ctx.clock.now(), reason);
      const status = changed ?? rec(current.status);
      const nominate = nominatedNode !== undefined && status.nominatedNodeName !== nominatedNode;
      if (!changed && !nominate) return;
      try {
        await ctx.client.update(PODS, current.metadata?.namespace ?? '', { ...current, status: nominate ? { ...status, nominatedNodeName: nominatedNode } : status }, 'status');
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err)) throw err;
        current = await ctx.client.get(PODS, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
        if (!needsScheduling(current)) return;
      }
    }
  }

  /** Evicts the chosen victims: DisruptionTarget, delete, and a Preempted event on each. */
  async function preemptFor(preemptor: PodInfo, candidate: Candidate): Promise<void> {
    for (const victim of candidate.victims) {
      const path = resourcePath(PODS, { namespace: victim.namespace, name: victim.name, subresource: 'status' });
      const condition = {
        type: 'DisruptionTarget',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: rfc3339(ctx.clock.now()),
        reason: 'PreemptionByScheduler',
        message: `${SCHEDULER_NAME}: preempting to accommodate a higher priority pod`,
      };
      try {
        const conditions = arr(rec(victim.pod.status).conditions).filter((c) => rec(c).type !== 'DisruptionTarget');
        await ctx.client.call('PATCH', path, { status: { conditions: [...conditions, condition] } }, { 'Content-Type': 'application/merge-patch+json' });
        await ctx.client.delete(PODS, victim.namespace, victim.name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        continue;
      }
      await events.record(victim.pod, { type: 'Normal', reason: 'Preempted', action: 'Preempting', note: `Preempted by pod ${preemptor.uid} on node ${candidate.node}`, related: preemptor.pod });
    }
  }

  // Informer handlers: the cache follows bound pods and nodes; the queue, pending pods.
  const onPodAdd = (pod: KubeObject) => {
    const nodeName = str(rec(pod.spec).nodeName);
    if (nodeName) {
      if (!isTerminal(pod)) {
        cache.addOrUpdatePod(podInfo(pod));
        queue.moveForEvent(['InterPodAffinity', 'PodTopologySpread']);
      }
    } else if (needsScheduling(pod)) queue.add(objectKey(pod), podInfo(pod).priority);
  };
  const onPodUpdate = (old: KubeObject, pod: KubeObject) => {
    const key = objectKey(pod);
    const nodeName = str(rec(pod.spec).nodeName);
    if (nodeName) {
      queue.remove(key);
      if (isTerminal(pod)) {
        if (cache.removePod(podInfo(pod).uid)) queue.moveForEvent(['NodeResourcesFit', 'NodePorts', 'InterPodAffinity', 'PodTopologySpread']);
        return;
      }
      cache.addOrUpdatePod(podInfo(pod));
      if (!str(rec(old.spec).nodeName) || JSON.stringify(old.metadata?.labels) !== JSON.stringify(pod.metadata?.labels)) {
        queue.moveForEvent(['InterPodAffinity', 'PodTopologySpread']);
      }
      return;
    }
    if (!needsScheduling(pod)) return queue.remove(key);
    if (!queue.has(key)) queue.add(key, podInfo(pod).priority);
    else if (podSpecChanged(old, pod)) queue.podUpdated(key, podInfo(pod).priority);
  };
  const onPodDelete = (pod: KubeObject) => {
    queue.remove(objectKey(pod));
    if (cache.removePod(pod.metadata?.uid ?? objectKey(pod))) queue.moveForEvent(['NodeResourcesFit', 'NodePorts', 'InterPodAffinity', 'PodTopologySpread', 'VolumeBinding']);
  };

  const volumeEvent = () => queue.moveForEvent(['VolumeBinding']);

  return {
    name: SCHEDULER_CONTROLLER,
    start() {
      // Decide only once every cache is filled, as the scheduler waits for its informers.
      void Promise.all(all.map((i) => i.synced)).then(() => {
        if (stopped) return;
        unsubscribe.push(
          nodes.addHandler({
            onAdd: (node) => {
              cache.setNode(node);
              queue.moveForEvent();
            },
            onUpdate: (old, node) => {
              cache.setNode(node);
              const plugins = nodeChangePlugins(old, node);
              if (plugins.length > 0) queue.moveForEvent(plugins);
            },
            onDelete: (node) => {
              cache.removeNode(node.metadata?.name ?? '');
              queue.moveForEvent(['PodTopologySpread', 'InterPodAffinity']);
            },
          }),
        );
        unsubscribe.push(pods.addHandler({ onAdd: onPodAdd, onUpdate: onPodUpdate, onDelete: onPodDelete }));
        for (const i of [claims, volumes, classes]) unsubscribe.push(i.addHandler({ onAdd: volumeEvent, onUpdate: volumeEvent }));
        unsubscribe.push(claims.addHandler({ onUpdate: (_old, claim) => onClaimChange(claim), onDelete: onClaimChange }));
        unsubscribe.push(
          namespaces.addHandler({
            onUpdate: (old, ns) => {
              if (JSON.stringify(old.metadata?.labels) !== JSON.stringify(ns.metadata?.labels)) queue.moveForEvent(['InterPodAffinity']);
            },
          }),
        );
      });
    },
    async stop() {
      stopped = true;
      volumeWaits.clear();
      for (const u of unsubscribe.splice(0)) u();
      queue.clear();
      events.stop();
      await running;
      await Promise.all([...inFlight]);
    },
  };
}
