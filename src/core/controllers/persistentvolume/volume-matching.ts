// Which PersistentVolume a claim may bind to, as kube's PV controller decides
// it (persistentvolume/util FindMatchingVolume and the controller's
// access-mode index): a volume pre-bound to the claim wins; otherwise an
// Available, unclaimed, not-deleted volume of the claim's class, volume mode
// and selector, at least as large as the request, with the fewest access
// modes that cover the claim's, and among those the smallest. Pure
// functions over the objects' JSON, so they are tested on their own.

import type { KubeObject } from '../../kinds/types';
import { parseQuantity } from '../../kinds/builtin/common/quantity';
import { matchesTerm } from '../scheduler/node-affinity';
import { arr, rec, str } from '../scheduler/objects';
import { structuredSelector } from '../workloads/selectors';
import { ANN } from './volume-names';

/** The claim's storage class: the beta annotation first, then spec.storageClassName ('' for none). */
export function claimClass(claim: KubeObject): string {
  const beta = claim.metadata?.annotations?.[ANN.betaStorageClass];
  if (beta !== undefined) return beta;
  return str(rec(claim.spec).storageClassName);
}

/** The volume's storage class, read the same way. */
export function volumeClass(volume: KubeObject): string {
  const beta = volume.metadata?.annotations?.[ANN.betaStorageClass];
  if (beta !== undefined) return beta;
  return str(rec(volume.spec).storageClassName);
}

export function requestedStorage(claim: KubeObject): number {
  return parseQuantity(rec(rec(rec(claim.spec).resources).requests).storage) ?? 0;
}

export function volumeCapacity(volume: KubeObject): number {
  return parseQuantity(rec(rec(volume.spec).capacity).storage) ?? 0;
}

const modeOf = (spec: unknown): string => str(rec(spec).volumeMode) || 'Filesystem';

export function volumeModeMismatch(claim: KubeObject, volume: KubeObject): boolean {
  return modeOf(claim.spec) !== modeOf(volume.spec);
}

export function accessModes(obj: KubeObject): string[] {
  return arr(rec(obj.spec).accessModes).map(String);
}

/** Every access mode the claim asks for is one the volume offers. */
export function accessModesSatisfied(claim: KubeObject, volume: KubeObject): boolean {
  const offered = new Set(accessModes(volume));
  return accessModes(claim).every((m) => offered.has(m));
}

/** The volume's claimRef names this claim (and its UID, when the reference has one). */
export function isVolumeBoundToClaim(volume: KubeObject, claim: KubeObject): boolean {
  const ref = rec(rec(volume.spec).claimRef);
  if (str(ref.name) !== claim.metadata?.name || str(ref.namespace) !== claim.metadata?.namespace) return false;
  return !str(ref.uid) || str(ref.uid) === claim.metadata?.uid;
}

export interface CandidateNode {
  readonly name: string;
  readonly labels: Record<string, string>;
}

/** The volume's required node affinity admits the node (no affinity: every node). */
export function volumeReachableFrom(volume: KubeObject, node: CandidateNode): boolean {
  const required = rec(rec(rec(volume.spec).nodeAffinity).required);
  if (Object.keys(required).length === 0) return true;
  return arr(required.nodeSelectorTerms).some((t) => matchesTerm(node.name, node.labels, rec(t)));
}

/** checkVolumeSatisfyClaim: why a volume the user named cannot serve the claim, or undefined. */
export function volumeMismatchReason(volume: KubeObject, claim: KubeObject): string | undefined {
  if (requestedStorage(claim) > volumeCapacity(volume)) return 'requested PV is too small';
  if (claimClass(claim) !== volumeClass(volume)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, volume)) return 'incompatible volumeMode';
  if (!accessModesSatisfied(claim, volume)) return 'incompatible accessMode';
  return undefined;
}

export interface MatchOptions {
  /** The claim waits for its first consumer and no node is chosen yet: only a pre-bound volume may be taken. */
  readonly delayBinding: boolean;
  /** The node chosen for the claim's consumer: volumes must be reachable from it. */
  readonly node?: CandidateNode;
}

/** FindMatchingVolume over volumes of one access-mode set. */
function matchAmong(claim: KubeObject, volumes: readonly KubeObject[], options: MatchOptions): KubeObject | undefined {
  const requested = requestedStorage(claim);
  const requestedClass = claimClass(claim);
  const selector = rec(claim.spec).selector;
  const labelSelector = selector ? structuredSelector(selector) : undefined;
  let smallest: KubeObject | undefined;
  for (const volume of volumes) {
    if (volumeModeMismatch(claim, volume)) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const capacity = volumeCapacity(volume);
    if (capacity < requested) continue;
    const reachable = !options.node || volumeReachableFrom(volume, options.node);
    if (isVolumeBoundToClaim(volume, claim)) return reachable ? volume : undefined;
    if (!options.node && options.delayBinding) continue;
    if (str(rec(volume.status).phase) !== 'Available') continue;
    if (rec(volume.spec).claimRef) continue;
    if (selector && (!labelSelector || !labelSelector.matches(volume.metadata?.labels ?? {}))) continue;
    if (volumeClass(volume) !== requestedClass) continue;
    if (!reachable) continue;
    if (options.node && !accessModesSatisfied(claim, volume)) continue;
    if (!smallest || volumeCapacity(smallest) > capacity) smallest = volume;
  }
  return smallest;
}

/**
 * findBestMatchForClaim: the volumes are grouped by their access-mode sets;
 * the sets holding every mode the claim asks for are tried fewest modes first.
 */
export function findBestMatchForClaim(claim: KubeObject, volumes: readonly KubeObject[], options: MatchOptions): KubeObject | undefined {
  const wanted = accessModes(claim);
  const groups = new Map<string, KubeObject[]>();
  for (const volume of volumes) {
    const modes = [...new Set(accessModes(volume))].sort();
    const key = modes.join(',');
    const group = groups.get(key) ?? [];
    group.push(volume);
    groups.set(key, group);
  }
  const candidates = [...groups.entries()]
    .map(([key, members]) => ({ modes: key ? key.split(',') : [], members }))
    .filter((g) => wanted.every((m) => g.modes.includes(m)))
    .sort((a, b) => a.modes.length - b.modes.length);
  for (const group of candidates) {
    const match = matchAmong(claim, group.members, options);
    if (match) return match;
  }
  return undefined;
}
