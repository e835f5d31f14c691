// The pod side of one simulated node's kubelet: it watches the pods bound
// to its node (a field selector on spec.nodeName, as the real kubelet's
// API source does), runs one PodWorker per pod, and serves the kubelet's
// connection (logs, exec, attach, port-forward, stats) for them. It is
// started by the node agent (../node) with the kubelet's own client,
// identity system:node:<name>.

import type { ApiClient } from '../../controllers/client/api-client';
import { Informer } from '../../controllers/client/informer';
import type { Activity } from '../../controllers/runtime/activity';
import type { EventRecorder } from '../../controllers/runtime/event-recorder';
import type { Clock } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { rec } from '../../kinds/builtin/common/table';
import type { ClockTimers } from '../../util/clock-timers';
import type { KubeletConnection } from '../connection';
import type { NodeConfig } from '../topology';
import { ImageStore } from '../images/image-store';
import { NodeVolumes } from '../volumes/volume-builder';
import { Backoff } from './backoff';
import { IpAllocator } from './ip-allocator';
import { kubeletConnection } from './kubelet-connection';
import { ObjectSource } from './object-source';
import { PODS, PodWorker } from './pod-worker';
import type { WorkerContext } from './worker-context';

export interface PodManagerOptions {
  readonly client: ApiClient;
  readonly clock: Clock;
  readonly timers: ClockTimers;
  readonly activity: Activity;
  readonly node: NodeConfig;
  /** status.hostIP, e.g. 172.18.0.3. */
  readonly nodeIP: string;
  /** Pod IPs come from it, e.g. 10.244.1.0/24. */
  readonly podCIDR: string;
  readonly recorder: EventRecorder;
  readonly log: (message: string) => void;
}

export interface PodManager {
  /** The KubeletConnection methods (the node agent adds nodeName and registers it). */
  readonly connection: Omit<KubeletConnection, 'nodeName'>;
  /** Images present on the node (for node.status.images), names and sizes. */
  images(): { names: string[]; sizeBytes: number }[];
  stop(): Promise<void>;
}

/** What the node's system daemons hold besides the pods (kubelet, containerd, systemd). */
function overhead(node: NodeConfig): { cpuNanoCores: number; memoryBytes: number } {
  return node.role === 'control-plane' ? { cpuNanoCores: 60_000_000, memoryBytes: 420 * 1024 * 1024 } : { cpuNanoCores: 25_000_000, memoryBytes: 260 * 1024 * 1024 };
}

export function startPodManager(options: PodManagerOptions): PodManager {
  const { client, node } = options;
  const ctx: WorkerContext = {
    client,
    clock: options.clock,
    timers: options.timers,
    activity: options.activity,
    recorder: options.recorder,
    log: options.log,
    node,
    nodeIP: options.nodeIP,
    ips: new IpAllocator(options.podCIDR),
    images: new ImageStore(options.clock, options.timers),
    restartBackoff: new Backoff(),
    pullBackoff: new Backoff(),
    source: new ObjectSource(client),
    volumes: new NodeVolumes(),
    allocatable: { cpu: node.cpu, memory: node.memory, ephemeralStorage: node.ephemeralStorage },
  };
  const workers = new Map<string, PodWorker>();
  const byName = new Map<string, PodWorker>();
  const key = (pod: KubeObject) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

  const informer = new Informer(client, PODS, options.activity, { fieldSelector: `spec.nodeName=${node.name}`, log: options.log });

  const upsert = (pod: KubeObject) => {
    const uid = pod.metadata?.uid ?? '';
    if (!uid) return;
    let worker = workers.get(uid);
    if (!worker) {
      try {
        worker = new PodWorker(ctx, pod);
      } catch (err) {
        options.log(`pod ${key(pod)}: cannot run: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      workers.set(uid, worker);
      // A pod of the same name that was deleted for good is replaced.
      const old = byName.get(key(pod));
      if (old && old.uid !== uid) removeWorker(old);
      byName.set(key(pod), worker);
      worker.kick();
      return;
    }
    worker.update(pod);
  };

  const removeWorker = (worker: PodWorker) => {
    worker.removed();
    workers.delete(worker.uid);
    if (byName.get(`${worker.namespace}/${worker.name}`) === worker) byName.delete(`${worker.namespace}/${worker.name}`);
  };

  informer.addHandler({
    onAdd: upsert,
    onUpdate: (_old, pod) => upsert(pod),
    onDelete: (pod) => {
      const worker = workers.get(pod.metadata?.uid ?? '');
      if (worker) removeWorker(worker);
    },
  });
  // A restarted kubelet remembers the images its node reported.
  void client
    .get({ group: '', version: 'v1', resource: 'nodes' }, '', node.name)
    .then((n) => {
      for (const image of (rec(n.status).images as { names?: string[] }[] | undefined) ?? []) for (const name of image.names ?? []) if (!name.includes('@')) ctx.images.addName(name);
    })
    .catch(() => undefined)
    .finally(() => informer.start());

  const connection = kubeletConnection({
    byUID: (uid) => workers.get(uid),
    byName: (namespace, name) => byName.get(`${namespace}/${name}`),
    all: () => [...workers.values()],
    now: () => options.clock.now(),
    nodeOverhead: () => overhead(node),
  });

  let stopped: Promise<void> | undefined;
  return {
    connection,
    images: () => ctx.images.list(),
    stop() {
      stopped ??= (async () => {
        await informer.stop();
        // The kubelet stops; its containers' processes end with it (a restart replays them).
        for (const w of [...workers.values()]) w.removed();
        workers.clear();
        byName.clear();
      })();
      return stopped;
    },
  };
}

