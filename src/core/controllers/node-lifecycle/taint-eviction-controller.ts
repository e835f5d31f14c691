// kube-controller-manager's taint-eviction-controller (1.32: separate from
// the node-lifecycle controller, acting as the node-controller service
// account, recording as "taint-eviction-controller"): pods on a node with
// NoExecute taints they do not tolerate are deleted at once; pods that
// tolerate them for tolerationSeconds (DefaultTolerationSeconds gives every
// pod 300 s for not-ready and unreachable) are deleted when the shortest of
// those runs out, counted on the cluster's Clock from when the controller saw
// the taint. A deletion first adds the DisruptionTarget condition
// (DeletionByTaintManager) and records TaintManagerEviction "Marking for
// deletion Pod ns/name"; a taint removed in time cancels it ("Cancelling
// deletion of Pod ns/name"). Moving the Clock forward fires due evictions.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { errorMessage, isNotFound } from '../client/api-error';
import { objectKey } from '../client/informer';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import type { TimerHandle } from '../../util/clock-timers';
import { matchingTolerations, minTolerationMs, nodeNameOf, noExecuteTaints, NODES, PODS, tolerationsOf, type Taint } from './taints';

export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';

interface Eviction {
  readonly createdAt: number;
  readonly fireAt: number;
  timer: TimerHandle | undefined;
  /** The deletion ran (kube keeps the key so that it is not scheduled again). */
  done: boolean;
}

const DELETE_RETRIES = 5;

function sameTolerations(a: KubeObject, b: KubeObject): boolean {
  return JSON.stringify(tolerationsOf(a)) === JSON.stringify(tolerationsOf(b));
}

export function taintEvictionController(ctx: ControllerContext): Controller {
  const nodes = ctx.informers.for(NODES);
  const pods = ctx.informers.for(PODS);
  const recorder = ctx.recorder(TAINT_EVICTION_CONTROLLER);
  const taintedNodes = new Map<string, Taint[]>();
  const evictions = new Map<string, Eviction>();
  const unsubscribe: (() => void)[] = [];
  let stopped = false;

  const podRef = (key: string): KubeObject => {
    const slash = key.indexOf('/');
    return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: key.slice(0, slash), name: key.slice(slash + 1) } };
  };

  function cancelWithEvent(key: string): void {
    const e = evictions.get(key);
    if (!e) return;
    evictions.delete(key);
    if (e.done) return;
    ctx.timers.cancel(e.timer);
    recorder.emit(podRef(key), { type: 'Normal', reason: 'TaintManagerEviction', message: `Cancelling deletion of Pod ${key}` });
  }

  /** addConditionAndDeletePod: DisruptionTarget first, then a delete with the pod's own grace period. */
  async function addConditionAndDelete(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const pod = await ctx.client.get(PODS, namespace, name);
    const status = (pod['status'] as Record<string, unknown> | undefined) ?? {};
    const conditions = Array.isArray(status['conditions']) ? (status['conditions'] as Record<string, unknown>[]) : [];
    const old = conditions.find((c) => c['type'] === 'DisruptionTarget');
    const condition = {
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: old && old['status'] === 'True' ? old['lastTransitionTime'] : rfc3339(ctx.clock.now()),
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    };
    if (!old || old['status'] !== 'True' || old['reason'] !== condition.reason || old['message'] !== condition.message) {
      const next = old ? conditions.map((c) => (c === old ? condition : c)) : [...conditions, condition];
      await ctx.client.update(PODS, namespace, { ...pod, status: { ...status, conditions: next } }, 'status');
    }
    await ctx.client.delete(PODS, namespace, name);
  }

  function fire(key: string): void {
    const e = evictions.get(key);
    if (!e || stopped) return;
    e.done = true;
    recorder.emit(podRef(key), { type: 'Normal', reason: 'TaintManagerEviction', message: `Marking for deletion Pod ${key}` });
    const end = ctx.activity.begin();
    void (async () => {
      let last: unknown;
      for (let i = 0; i < DELETE_RETRIES; i++) {
        try {
          await addConditionAndDelete(key);
          return;
        } catch (err) {
          if (isNotFound(err)) return;
          last = err;
        }
      }
      ctx.log(`failed to delete pod ${key}: ${errorMessage(last)}`);
    })().finally(end);
  }

  function addWork(key: string, createdAt: number, fireAt: number): void {
    if (evictions.has(key)) return;
    const e: Eviction = { createdAt, fireAt, timer: undefined, done: false };
    evictions.set(key, e);
    e.timer = ctx.timers.at(fireAt, () => fire(key));
  }

  function processPodOnNode(pod: KubeObject, taints: readonly Taint[], now: number): void {
    const key = objectKey(pod);
    if (taints.length === 0) return cancelWithEvent(key);
    const { all, used } = matchingTolerations(taints, tolerationsOf(pod));
    if (!all) {
      // Not tolerated: deleted right away.
      cancelWithEvent(key);
      return addWork(key, now, now);
    }
    const min = minTolerationMs(used);
    if (min < 0) return cancelWithEvent(key);
    let start = now;
    const trigger = now + min;
    const scheduled = evictions.get(key);
    if (scheduled) {
      start = scheduled.createdAt;
      if (start + min < trigger) return;
      cancelWithEvent(key);
    }
    addWork(key, start, trigger);
  }

  function handleNode(name: string): void {
    const node = nodes.get('', name);
    if (!node) {
      taintedNodes.delete(name);
      return;
    }
    const taints = noExecuteTaints(node);
    if (taints.length === 0) taintedNodes.delete(name);
    else taintedNodes.set(name, taints);
    const onNode = pods.list().filter((p) => nodeNameOf(p) === name);
    if (onNode.length === 0) return;
    if (taints.length === 0) {
      for (const p of onNode) cancelWithEvent(objectKey(p));
      return;
    }
    const now = ctx.clock.now();
    for (const p of onNode) processPodOnNode(p, taints, now);
  }

  function handlePod(key: string): void {
    const slash = key.indexOf('/');
    const pod = pods.get(key.slice(0, slash), key.slice(slash + 1));
    if (!pod) return cancelWithEvent(key);
    const nodeName = nodeNameOf(pod);
    if (!nodeName) return;
    const taints = taintedNodes.get(nodeName);
    if (!taints) return;
    processPodOnNode(pod, taints, ctx.clock.now());
  }

  const queue = new WorkQueue(
    TAINT_EVICTION_CONTROLLER,
    ctx.activity,
    async (key) => {
      // Node updates first, as kube's workers prefer them, so a pod never meets a stale taint list.
      if (key.startsWith('node/')) handleNode(key.slice(5));
      else handlePod(key.slice(4));
    },
    ctx.log,
  );

  return {
    name: TAINT_EVICTION_CONTROLLER,
    start() {
      void Promise.all([nodes.synced, pods.synced]).then(() => {
        if (stopped) return;
        unsubscribe.push(
          nodes.addHandler({
            onAdd: (n) => queue.add(`node/${n.metadata?.name ?? ''}`),
            onUpdate: (o, n) => {
              if (JSON.stringify(noExecuteTaints(o)) !== JSON.stringify(noExecuteTaints(n))) queue.add(`node/${n.metadata?.name ?? ''}`);
            },
            onDelete: (n) => queue.add(`node/${n.metadata?.name ?? ''}`),
          }),
          pods.addHandler({
            onAdd: (p) => queue.add(`pod/${objectKey(p)}`),
            onUpdate: (o, p) => {
              if (!sameTolerations(o, p) || nodeNameOf(o) !== nodeNameOf(p)) queue.add(`pod/${objectKey(p)}`);
            },
            onDelete: (p) => queue.add(`pod/${objectKey(p)}`),
          }),
        );
      });
    },
    async stop() {
      stopped = true;
      for (const u of unsubscribe.splice(0)) u();
      for (const e of evictions.values()) ctx.timers.cancel(e.timer);
      evictions.clear();
      await queue.stop();
    },
  };
}
