// The scheduler's cache (internal/cache): a NodeInfo per node with the pods
// bound to it, plus the pods the scheduler has assumed onto a node while
// their binding is in flight — so the next attempt, a millisecond later,
// already counts them, and a burst of pods neither piles onto one node nor
// overcommits it. The informer's view of a bound pod replaces its assumed
// copy; a failed binding forgets it.

import type { KubeObject } from '../../kinds/types';
import { compareStrings } from './objects';
import { NodeInfo } from './node-info';
import type { PodInfo } from './pod-info';

export class SchedulerCache {
  private readonly nodes = new Map<string, NodeInfo>();
  /** Pod uid → the node it is counted on. */
  private readonly podNodes = new Map<string, string>();
  private readonly assumed = new Set<string>();
  private sorted: NodeInfo[] | undefined;

  private info(name: string): NodeInfo {
    let n = this.nodes.get(name);
    if (!n) this.nodes.set(name, (n = new NodeInfo(name)));
    return n;
  }

  setNode(node: KubeObject): void {
    const name = node.metadata?.name ?? '';
    const info = this.info(name);
    if (!info.node) this.sorted = undefined;
    info.setNode(node);
  }

  removeNode(name: string): void {
    const info = this.nodes.get(name);
    if (!info) return;
    info.node = undefined;
    if (info.pods.size === 0) this.nodes.delete(name);
    this.sorted = undefined;
  }

  /** The nodes that exist, by name (a node known only from its pods is left out). */
  nodeList(): NodeInfo[] {
    if (!this.sorted) this.sorted = [...this.nodes.values()].filter((n) => n.node).sort((a, b) => compareStrings(a.name, b.name));
    return this.sorted;
  }

  node(name: string): NodeInfo | undefined {
    return this.nodes.get(name);
  }

  isAssumed(uid: string): boolean {
    return this.assumed.has(uid);
  }

  /** A bound pod as the informer shows it (also confirms an assumed one). */
  addOrUpdatePod(pod: PodInfo): void {
    this.removePod(pod.uid);
    this.info(pod.nodeName).addPod(pod);
    this.podNodes.set(pod.uid, pod.nodeName);
  }

  /** Takes a pod off its node; whether it was counted somewhere. */
  removePod(uid: string): boolean {
    const at = this.podNodes.get(uid);
    this.assumed.delete(uid);
    if (at === undefined) return false;
    this.podNodes.delete(uid);
    const info = this.nodes.get(at);
    info?.removePod(uid);
    if (info && !info.node && info.pods.size === 0) this.nodes.delete(at);
    return true;
  }

  /** Counts a pod on the node it is being bound to. */
  assume(pod: PodInfo, nodeName: string): void {
    this.removePod(pod.uid);
    this.info(nodeName).addPod({ ...pod, nodeName });
    this.podNodes.set(pod.uid, nodeName);
    this.assumed.add(pod.uid);
  }

  /** Its binding failed: the assumed pod no longer counts. */
  forget(uid: string): void {
    if (this.assumed.has(uid)) this.removePod(uid);
  }
}
