// A node's kubelet, the node side of it (the pods are the pod manager's): it
// registers the Node through the API as the kubelet does (create; when the
// Node exists, as after a restart, it keeps it), watches its own Node (a
// field selector on its name, as the kubelet's node informer) to learn its
// uid and its podCIDR, renews its Lease every 10 s, posts its status when it
// changes and at least every nodeStatusReportFrequency (5 min), checking
// every nodeStatusUpdateFrequency (10 s), records the kubelet's Node events,
// and on a control-plane node keeps the mirror pods of the static pods.
//
// The pod network is ready once the node has its podCIDR (kind: kindnet
// configures CNI from it); until then the Ready condition is False with the
// container runtime's "cni plugin not initialized", as on a fresh kind node.
// All waiting is on the cluster's Clock; failed API calls are retried at the
// next tick, or after a short real back-off while registering.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../../controllers/client/api-client';
import { errorMessage, isAlreadyExists, isConflict, isNotFound } from '../../controllers/client/api-error';
import { Informer } from '../../controllers/client/informer';
import { resourcePath, type GroupVersionResource } from '../../controllers/client/resource-path';
import type { Activity } from '../../controllers/runtime/activity';
import type { EventRecorder } from '../../controllers/runtime/event-recorder';
import type { ClockTimers, TimerHandle } from '../../util/clock-timers';
import type { NodeFacts } from './node-facts';
import { markNode, NODES } from './kubeadm-node';
import { startNodeLease, type NodeLease } from './node-lease';
import { nodeStatus, registrationNode, statusWithoutHeartbeats, type NodeImage } from './node-object';
import { HASH_ANNOTATION, MIRROR_ANNOTATION, mirrorPod, staticPods } from './static-pods';

const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
/** The kubelet's nodeStatusUpdateFrequency: how often it computes its status. */
export const NODE_STATUS_UPDATE_FREQUENCY_MS = 10_000;
/** The kubelet's nodeStatusReportFrequency: how often it posts an unchanged status. */
export const NODE_STATUS_REPORT_FREQUENCY_MS = 5 * 60_000;
const REGISTER_RETRY_MS = [50, 200, 1000, 5000];

export interface NodeAgentOptions {
  /** The kubelet's client (system:node:<name>). */
  readonly client: ApiClient;
  /** kubeadm's client (kubernetes-admin), for the mark-control-plane phase. */
  readonly admin: ApiClient;
  readonly timers: ClockTimers;
  readonly activity: Activity;
  readonly facts: NodeFacts;
  readonly recorder: EventRecorder;
  readonly log: (message: string) => void;
}

export interface NodeAgent {
  start(): void;
  /** Resolves with the node's podCIDR once it has one (the pod network is then up). */
  readonly podCIDR: Promise<string>;
  /** Where the node's image list comes from (the pod manager's images, once it runs). */
  setImages(images: () => readonly NodeImage[]): void;
  stop(): Promise<void>;
}

export function startNodeAgent(options: NodeAgentOptions): NodeAgent {
  const { client, timers, facts, recorder } = options;
  const name = facts.config.name;
  const controlPlane = facts.config.role === 'control-plane';
  const log = (m: string) => options.log(`kubelet ${name}: ${m}`);
  const self = new Informer(client, NODES, options.activity, { fieldSelector: `metadata.name=${name}`, log });
  let registered: KubeObject | undefined;
  let images: () => readonly NodeImage[] = () => [];
  let stopped = false;
  let statusTimer: TimerHandle | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let lastPosted = '';
  let lastPostedAt = -Infinity;
  let statusRunning = false;
  /** An immediate status post asked for while one was running. */
  let rerun = false;
  let resolveCIDR!: (cidr: string) => void;
  const podCIDR = new Promise<string>((resolve) => (resolveCIDR = resolve));
  let cidr: string | undefined;
  // The kubelet's events name the Node with its name as uid (kubectl describe node looks for both).
  const nodeRef: KubeObject = { kind: 'Node', metadata: { name, uid: name } };
  const lease: NodeLease = startNodeLease({
    client,
    timers,
    nodeName: name,
    nodeUid: () => current()?.metadata?.uid,
    log,
    begin: () => options.activity.begin(),
  });

  const current = (): KubeObject | undefined => self.get('', name) ?? registered;

  function noticeCIDR(node: KubeObject | undefined): void {
    const value = (node?.['spec'] as { podCIDR?: string } | undefined)?.podCIDR;
    if (!value || cidr) return;
    cidr = value;
    resolveCIDR(value);
    // The network came up: the Ready condition changes now, not at the next tick.
    scheduleStatus(0);
  }

  async function register(): Promise<void> {
    try {
      registered = await client.create(NODES, '', registrationNode(facts));
      log('successfully registered node');
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // A restart: the Node is still there, with its podCIDR and uid; the kubelet keeps it.
      registered = await client.get(NODES, '', name);
      await reconcileDefaultLabels(registered);
    }
    try {
      await markNode(options.admin, registered, controlPlane);
    } catch (err) {
      if (!isConflict(err)) throw err;
      await markNode(options.admin, await options.admin.get(NODES, '', name), controlPlane);
    }
  }

  /** kubelet's updateDefaultLabels: its own labels put back on an existing Node when they differ. */
  async function reconcileDefaultLabels(node: KubeObject): Promise<void> {
    const want = registrationNode(facts).metadata?.labels ?? {};
    const have = node.metadata?.labels ?? {};
    const changed = Object.entries(want).filter(([k, v]) => have[k] !== v);
    if (changed.length === 0) return;
    registered = await client.patch(NODES, '', name, { metadata: { labels: Object.fromEntries(changed) } }, 'application/strategic-merge-patch+json');
  }

  async function postStatus(): Promise<void> {
    const node = current();
    if (!node) return;
    const now = timers.clock.now();
    const { status, events } = nodeStatus({ facts, current: node['status'] as Record<string, unknown> | undefined, networkReady: cidr !== undefined, images: images(), nowMs: now });
    const fingerprint = statusWithoutHeartbeats(status);
    const observed = statusWithoutHeartbeats(node['status'] as Record<string, unknown> | undefined);
    // Post when something changed (here or on the Node: the node controller may have written Unknown), or the report period passed.
    if (fingerprint === lastPosted && fingerprint === observed && now - lastPostedAt < NODE_STATUS_REPORT_FREQUENCY_MS) return;
    // PATCH nodes/<name>/status, as the kubelet's PatchNodeStatus.
    const updated = await client.call<KubeObject>('PATCH', resourcePath(NODES, { name, subresource: 'status' }), { status }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    registered = updated;
    lastPosted = fingerprint;
    lastPostedAt = now;
    for (const reason of events) recorder.emit(nodeRef, { type: 'Normal', reason, message: `Node ${name} status is now: ${reason}` });
  }

  async function syncMirrorPods(): Promise<void> {
    const node = current();
    const uid = node?.metadata?.uid;
    if (!controlPlane || !uid) return;
    // The pods bound to this node, as the kubelet's pod informer lists them (a node may not read other pods).
    const bound = (await client.list(PODS, undefined, { fieldSelector: `spec.nodeName=${name}` })).items;
    for (const pod of staticPods(name, facts.internalIP)) {
      const desired = mirrorPod(pod, { name, uid }, timers.clock.now());
      const podName = desired.metadata?.name ?? '';
      const existing = bound.find((p) => p.metadata?.namespace === 'kube-system' && p.metadata?.name === podName);
      if (existing) {
        const annotations = existing.metadata?.annotations ?? {};
        const owner = existing.metadata?.ownerReferences?.[0];
        const upToDate = annotations[MIRROR_ANNOTATION] === desired.metadata?.annotations?.[HASH_ANNOTATION] && owner?.uid === uid && !existing.metadata?.deletionTimestamp;
        if (upToDate) continue;
        // An outdated mirror pod (another manifest, or an earlier Node of this name): replaced, as the kubelet does.
        if (existing.metadata?.deletionTimestamp) continue;
        try {
          await client.delete(PODS, 'kube-system', podName, { preconditions: { uid: existing.metadata?.uid } });
        } catch (err) {
          if (!isNotFound(err) && !isConflict(err)) throw err;
        }
        continue;
      }
      try {
        await client.create(PODS, 'kube-system', desired);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
    }
  }

  function scheduleStatus(ms: number): void {
    if (stopped) return;
    if (statusRunning) {
      if (ms === 0) rerun = true;
      return;
    }
    timers.cancel(statusTimer);
    statusTimer = timers.after(ms, statusTick);
  }

  function statusTick(): void {
    if (stopped || statusRunning) return;
    statusRunning = true;
    const end = options.activity.begin();
    void (async () => {
      try {
        await postStatus();
      } catch (err) {
        log(`error updating node status, will retry: ${errorMessage(err)}`);
      }
      try {
        await syncMirrorPods();
      } catch (err) {
        log(`failed to sync mirror pods: ${errorMessage(err)}`);
      }
    })().finally(() => {
      statusRunning = false;
      end();
      const again = rerun;
      rerun = false;
      scheduleStatus(again ? 0 : NODE_STATUS_UPDATE_FREQUENCY_MS);
    });
  }

  function attemptRegistration(attempt: number): void {
    if (stopped) return;
    const end = options.activity.begin();
    void register()
      .then(
        () => {
          if (stopped) return;
          recorder.emit(nodeRef, { type: 'Normal', reason: 'NodeAllocatableEnforced', message: 'Updated Node Allocatable limit across pods' });
          self.start();
          // The lease from now on, owned by the registered Node.
          lease.start();
          noticeCIDR(registered);
          scheduleStatus(0);
        },
        (err) => {
          log(`unable to register node with API server: ${errorMessage(err)}`);
          const wait = REGISTER_RETRY_MS[Math.min(attempt, REGISTER_RETRY_MS.length - 1)]!;
          retryTimer = setTimeout(() => attemptRegistration(attempt + 1), wait);
        },
      )
      .finally(end);
  }

  return {
    podCIDR,
    start() {
      recorder.emit(nodeRef, { type: 'Normal', reason: 'Starting', message: 'Starting kubelet.' });
      self.addHandler({ onAdd: noticeCIDR, onUpdate: (_old, node) => noticeCIDR(node) });
      attemptRegistration(0);
    },
    setImages(fn) {
      images = fn;
    },
    async stop() {
      stopped = true;
      lease.stop();
      timers.cancel(statusTimer);
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      await self.stop();
    },
  };
}
