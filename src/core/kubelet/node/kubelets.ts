// The kubelets of a cluster's simulated nodes, started inside the server as
// API clients: per NodeConfig a node agent (registration, status, lease,
// static pods) and, once the node has its podCIDR, the pod manager that runs
// the pods bound to it, whose KubeletConnection is registered under the
// node's name for the API server's log/exec/stats handlers. A node can be
// stopped (its lease then expires and the node-lifecycle controller marks it
// Unknown) and started again (it keeps its Node object, as a restarted
// kubelet does).
//
// The pod manager is given as a factory (index.ts passes the real one), so
// that the node side can be tested on its own.

import type { Clock } from '../../clock';
import { KUBELET_RATE } from '../../controllers/client/rate-limiter';
import { ApiClient, type Send } from '../../controllers/client/api-client';
import { errorMessage } from '../../controllers/client/api-error';
import { Activity } from '../../controllers/runtime/activity';
import { EventRecorder } from '../../controllers/runtime/event-recorder';
import { ClockTimers } from '../../util/clock-timers';
import type { KubeletConnection, KubeletConnections } from '../connection';
import type { NodeConfig } from '../topology';
import { KUBELET_VERSION, kubeletUserAgent, nodeFacts } from './node-facts';
import { startNodeAgent, type NodeAgent } from './node-agent';

/** What the pod manager takes (src/core/kubelet/pods/pod-manager.ts). */
export interface PodManagerOptions {
  readonly client: ApiClient;
  readonly clock: Clock;
  readonly timers: ClockTimers;
  readonly activity: Activity;
  readonly node: NodeConfig;
  readonly nodeIP: string;
  readonly podCIDR: string;
  readonly recorder: EventRecorder;
  log(message: string): void;
}

export interface PodManager {
  readonly connection: Omit<KubeletConnection, 'nodeName'>;
  images(): { names: string[]; sizeBytes: number }[];
  stop(): Promise<void>;
}

export type PodManagerFactory = (options: PodManagerOptions) => PodManager;

export interface StartKubeletsOptions {
  /** The server; each kubelet's requests carry its own User-Agent (system:node:<name>). */
  readonly send: Send;
  readonly clock: Clock;
  readonly nodes: readonly NodeConfig[];
  /** Where each running kubelet registers its connection. */
  readonly connections: KubeletConnections;
  readonly startPodManager: PodManagerFactory;
  /** Nodes whose kubelet does not start now (stopped by the user before a restart). */
  readonly stopped?: readonly string[];
  readonly log?: (message: string) => void;
  readonly baseUrl?: string;
}

export interface RunningKubelets {
  /** Stops every kubelet (the server is closing). */
  stop(): Promise<void>;
  /** Stops one node's kubelet: its lease stops, its pods are no longer run, its connection is gone. */
  stopNode(name: string): Promise<void>;
  /** Starts a stopped node's kubelet again. */
  startNode(name: string): void;
  /** The names of the nodes whose kubelet runs. */
  running(): string[];
  /** Resolves when every kubelet has done what it has in hand. */
  idle(): Promise<void>;
}

interface RunningNode {
  readonly agent: NodeAgent;
  readonly timers: ClockTimers;
  podManager?: PodManager;
  unregister?: () => void;
  stopped: boolean;
}

/** kubeadm's client, acting as kubernetes-admin (the server serves it in system:masters). */
const KUBEADM_USER_AGENT = `kubeadm/${KUBELET_VERSION} (linux/amd64) kubernetes/kubetab`;

export function startKubelets(options: StartKubeletsOptions): RunningKubelets {
  const log = options.log ?? ((message: string) => console.info(`[kubelet] ${message}`));
  const activity = new Activity();
  const root = new ApiClient({ send: options.send, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) });
  const admin = root.withUserAgent(KUBEADM_USER_AGENT);
  const running = new Map<string, RunningNode>();
  let closed = false;

  function start(config: NodeConfig, index: number): void {
    // A kubelet's client has the kubelet's default rate limit (kubeAPIQPS 50, kubeAPIBurst 100).
    const client = root.withUserAgent(kubeletUserAgent(config.name), KUBELET_RATE);
    const facts = nodeFacts(config, index);
    const nodeLog = (m: string) => log(m);
    const timers = new ClockTimers(options.clock, (err) => nodeLog(`kubelet ${config.name}: timer failed: ${errorMessage(err)}`));
    const recorder = new EventRecorder(client, options.clock, { component: 'kubelet', host: config.name }, nodeLog);
    const agent = startNodeAgent({ client, admin, timers, activity, facts, recorder, log: nodeLog });
    const node: RunningNode = { agent, timers, stopped: false };
    running.set(config.name, node);
    agent.start();
    void agent.podCIDR.then((podCIDR) => {
      if (node.stopped) return;
      try {
        const podManager = options.startPodManager({
          client,
          clock: options.clock,
          timers,
          activity,
          node: config,
          nodeIP: facts.internalIP,
          podCIDR,
          recorder,
          log: (m) => nodeLog(`kubelet ${config.name}: ${m}`),
        });
        node.podManager = podManager;
        agent.setImages(() => podManager.images());
        node.unregister = options.connections.register({ ...podManager.connection, nodeName: config.name });
      } catch (err) {
        nodeLog(`kubelet ${config.name}: the pod manager failed to start: ${errorMessage(err)}`);
      }
    });
  }

  async function stopNode(name: string): Promise<void> {
    const node = running.get(name);
    if (!node) return;
    running.delete(name);
    node.stopped = true;
    node.unregister?.();
    await node.agent.stop();
    await node.podManager?.stop().catch((err) => log(`kubelet ${name}: stopping the pod manager: ${errorMessage(err)}`));
    node.timers.stop();
  }

  const initiallyStopped = new Set(options.stopped ?? []);
  options.nodes.forEach((config, index) => {
    if (!initiallyStopped.has(config.name)) start(config, index);
  });

  return {
    async stop() {
      closed = true;
      await Promise.all([...running.keys()].map((name) => stopNode(name)));
    },
    stopNode,
    startNode(name) {
      if (closed || running.has(name)) return;
      const index = options.nodes.findIndex((n) => n.name === name);
      if (index < 0) throw new Error(`no node named ${JSON.stringify(name)} in this cluster`);
      start(options.nodes[index]!, index);
    },
    running: () => options.nodes.map((n) => n.name).filter((n) => running.has(n)),
    idle: () => activity.idle(),
  };
}
