// The simulated nodes a cluster starts with. The default is a `kind`
// cluster's shape: one control-plane node (with its NoSchedule taint) and
// two workers. Hosts take it from flags (--nodes) or Settings; an empty
// list is a bare API server with no nodes.

export interface NodeConfig {
  /** The node's name (and its kubelet's identity system:node:<name>). */
  readonly name: string;
  readonly role: 'control-plane' | 'worker';
  /** Capacity as quantities: cpu '8', memory '16Gi', ephemeral-storage '100Gi'. */
  readonly cpu: string;
  readonly memory: string;
  readonly ephemeralStorage: string;
  /** Most pods the kubelet runs (--max-pods, 110 by default). */
  readonly maxPods: number;
  /** topology.kubernetes.io/zone, when set. */
  readonly zone?: string;
}

export const DEFAULT_NODE_SIZE = { cpu: '4', memory: '8Gi', ephemeralStorage: '100Gi', maxPods: 110 } as const;

/** kind's default cluster, named for KubeTab. */
export const DEFAULT_TOPOLOGY: readonly NodeConfig[] = Object.freeze([
  { name: 'kubetab-control-plane', role: 'control-plane', ...DEFAULT_NODE_SIZE },
  { name: 'kubetab-worker', role: 'worker', ...DEFAULT_NODE_SIZE },
  { name: 'kubetab-worker2', role: 'worker', ...DEFAULT_NODE_SIZE },
]);
