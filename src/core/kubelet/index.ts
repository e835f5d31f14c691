// The kubelets of KubeTab's simulated nodes, with the pod manager that runs
// each node's pods (see node/kubelets.ts for the node side and how they
// start and stop).

import { startPodManager } from './pods/pod-manager';
import { startKubelets as startWith, type RunningKubelets, type StartKubeletsOptions } from './node/kubelets';

export function startKubelets(options: Omit<StartKubeletsOptions, 'startPodManager'> & Partial<Pick<StartKubeletsOptions, 'startPodManager'>>): RunningKubelets {
  return startWith({ startPodManager, ...options });
}

export type { RunningKubelets, StartKubeletsOptions } from './node/kubelets';
export { DEFAULT_TOPOLOGY, DEFAULT_NODE_SIZE, type NodeConfig } from './topology';
export { KubeletConnections, KUBELET_CONNECTIONS } from './connection';
