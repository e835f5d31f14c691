// A small stand-in for kube-scheduler (KubeTab has no kubelets to run pods,
// but a client sees the scheduler's work through the API): every pod of
// schedulerName default-scheduler that is not bound to a node, not being
// deleted and not gated is placed on a node that fits it (node-fit.ts) —
// the one with the fewest pods, then by name — through pods/binding, as the
// scheduler binds. When no node fits it writes the PodScheduled=False
// condition (reason Unschedulable, kube's message) into the pod's status,
// and it records the scheduler's Scheduled / FailedScheduling events. Pods
// are looked at again when nodes change. See docs/decisions/0142.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import { resourcePath, type GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { fitErrorMessage, NO_NODES_AVAILABLE } from './fit-error';
import { misfit } from './node-fit';
import { recordEvent, SCHEDULER_NAME } from './scheduler-events';

export const SCHEDULER_CONTROLLER = 'kube-scheduler';
export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
export const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A pod this scheduler should place. */
export function needsScheduling(pod: KubeObject): boolean {
  const spec = rec(pod.spec);
  const phase = rec(pod.status).phase;
  return (
    (spec.schedulerName ?? SCHEDULER_NAME) === SCHEDULER_NAME &&
    !spec.nodeName &&
    !pod.metadata?.deletionTimestamp &&
    arr(spec.schedulingGates).length === 0 &&
    phase !== 'Succeeded' &&
    phase !== 'Failed'
  );
}

const isTerminated = (pod: KubeObject) => ['Succeeded', 'Failed'].includes(rec(pod.status).phase as string);

/** The node to bind to, or the message of why none fits. */
export function chooseNode(pod: KubeObject, nodes: readonly KubeObject[], podsOn: (node: string) => number): { node: string } | { message: string } {
  if (nodes.length === 0) return { message: NO_NODES_AVAILABLE };
  const reasons: string[] = [];
  const fitting: string[] = [];
  for (const node of nodes) {
    const why = misfit(pod, node);
    if (why) reasons.push(why);
    else fitting.push(node.metadata?.name ?? '');
  }
  if (fitting.length === 0) return { message: fitErrorMessage(reasons, rec(pod.spec).preemptionPolicy as string | undefined) };
  fitting.sort((a, b) => podsOn(a) - podsOn(b) || (a < b ? -1 : a > b ? 1 : 0));
  return { node: fitting[0]! };
}

/** The pod's status with PodScheduled=False as the scheduler writes it, or undefined when it already says so. */
export function unschedulableStatus(pod: KubeObject, message: string, nowMs: number): Obj | undefined {
  const status = rec(pod.status);
  const conditions = arr(status.conditions).map(rec);
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = i >= 0 ? conditions[i] : undefined;
  if (old && old.status === 'False' && old.reason === 'Unschedulable' && old.message === message) return undefined;
  // podutil.UpdatePodCondition: the transition time moves only when the status changes.
  const lastTransitionTime = old && old.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(nowMs);
  const condition = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime, reason: 'Unschedulable', message };
  const next = [...conditions];
  if (i >= 0) next[i] = condition;
  else next.push(condition);
  return { ...status, conditions: next };
}

export function schedulerController(ctx: ControllerContext): Controller {
  const pods = ctx.informers.for(PODS);
  const nodes = ctx.informers.for(NODES);
  const unsubscribe: (() => void)[] = [];

  const podsOn = (node: string) => pods.list().filter((p) => rec(p.spec).nodeName === node && !isTerminated(p)).length;

  async function bind(pod: KubeObject, node: string): Promise<void> {
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    await ctx.client.call('POST', resourcePath(PODS, { namespace, name, subresource: 'binding' }), {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name, namespace, uid: pod.metadata?.uid },
      target: { apiVersion: 'v1', kind: 'Node', name: node },
    });
    await recordEvent(ctx, pod, { type: 'Normal', reason: 'Scheduled', action: 'Binding', note: `Successfully assigned ${namespace}/${name} to ${node}` });
  }

  async function markUnschedulable(pod: KubeObject, message: string): Promise<void> {
    const status = unschedulableStatus(pod, message, ctx.clock.now());
    if (!status) return;
    await ctx.client.update(PODS, pod.metadata?.namespace ?? '', { ...pod, status }, 'status');
    await recordEvent(ctx, pod, { type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note: message });
  }

  const queue = new WorkQueue(
    SCHEDULER_CONTROLLER,
    ctx.activity,
    async (key) => {
      const slash = key.indexOf('/');
      const pod = pods.get(key.slice(0, slash), key.slice(slash + 1));
      if (!pod || !needsScheduling(pod)) return;
      const choice = chooseNode(pod, nodes.list(), podsOn);
      try {
        if ('node' in choice) await bind(pod, choice.node);
        else await markUnschedulable(pod, choice.message);
      } catch (err) {
        // Gone, or changed meanwhile (the informer brings the new version and the key again).
        if (isNotFound(err) || isConflict(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  const enqueue = (pod: KubeObject) => {
    if (needsScheduling(pod)) queue.add(objectKey(pod));
  };
  const retryAll = () => {
    for (const pod of pods.list()) enqueue(pod);
  };

  return {
    name: SCHEDULER_CONTROLLER,
    start() {
      // Decide only once both caches are filled, as the scheduler waits for its informers.
      void Promise.all([pods.synced, nodes.synced]).then(() => {
        unsubscribe.push(nodes.addHandler({ onAdd: retryAll, onUpdate: retryAll, onDelete: retryAll }));
        unsubscribe.push(pods.addHandler({ onAdd: enqueue, onUpdate: (_old, pod) => enqueue(pod) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
