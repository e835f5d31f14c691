// The garbage collector's dependency graph (kube's GraphBuilder): one node
// per object uid, with the object's ownerReferences and the set of objects
// that name it as an owner. Owners referenced but not (yet) observed are
// "virtual" nodes until the API confirms or denies them.
//
// The graph is pure: `observe` and `observeDelete` take informer events (or
// a virtual delete) and return what must be looked at next (attempt to
// delete, attempt to orphan), which the garbage collector queues.

import type { KubeObject, OwnerReference } from '../../kinds/types';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  /** '' for cluster-scoped objects (and for virtual owners, the dependent's namespace). */
  readonly namespace: string;
}

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[] = [];
  observed = false;
  beingDeleted = false;
  deletingDependents = false;
  constructor(public identity: ObjectIdentity) {}

  /** Dependents whose reference to this node has blockOwnerDeletion. */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true));
  }
}

/** What the graph wants looked at after an event. */
export interface GraphWork {
  readonly attemptToDelete: GraphNode[];
  readonly attemptToOrphan: GraphNode[];
}

export function identityString(id: ObjectIdentity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

export function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && a.apiVersion === b.apiVersion && a.namespace === b.namespace;
}

const hasFinalizer = (obj: KubeObject | undefined, f: string) => !!obj?.metadata?.finalizers?.includes(f);
const beingDeleted = (obj: KubeObject | undefined) => !!obj?.metadata?.deletionTimestamp;

/** The object now is being deleted with finalizer f and before it was not (kube's deletionStartsWithFinalizer). */
function deletionStartsWithFinalizer(old: KubeObject | undefined, obj: KubeObject, f: string): boolean {
  if (!beingDeleted(obj) || !hasFinalizer(obj, f)) return false;
  return !old || !beingDeleted(old) || !hasFinalizer(old, f);
}

function refMatches(ref: OwnerReference, id: ObjectIdentity): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;
}

/** Dependents whose reference to `owner.uid` matches / contradicts the given coordinates (kube's partitionDependents). */
export function partitionDependents(dependents: Iterable<GraphNode>, owner: ObjectIdentity): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (owner.namespace && owner.namespace !== dep.identity.namespace) mismatch = true;
    else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (refMatches(ref, owner)) match = true;
        else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

export class DependencyGraph {
  readonly nodes = new Map<string, GraphNode>();
  /** Owners the API said are absent (kube's absentOwnerCache), by identity string. */
  readonly absentOwners = new Set<string>();
  private static readonly ABSENT_LIMIT = 500;

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  markAbsent(id: ObjectIdentity): void {
    this.absentOwners.add(identityString(id));
    if (this.absentOwners.size > DependencyGraph.ABSENT_LIMIT) {
      const oldest = this.absentOwners.values().next().value;
      if (oldest !== undefined) this.absentOwners.delete(oldest);
    }
  }

  isAbsent(id: ObjectIdentity): boolean {
    return this.absentOwners.has(identityString(id));
  }

  private addDependentToOwners(n: GraphNode, owners: readonly OwnerReference[], work: GraphWork): void {
    let suspect = false;
    for (const ref of owners) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        // A virtual node stands for the owner until it is observed or found absent.
        owner = new GraphNode({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: n.identity.namespace });
        this.nodes.set(ref.uid, owner);
        owner.dependents.add(n);
        work.attemptToDelete.push(owner);
        continue;
      }
      owner.dependents.add(n);
      // A reference whose coordinates contradict the owner's node may be wrong: let the dependent be verified.
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== n.identity.namespace) suspect = true;
      else if (!refMatches(ref, owner.identity)) suspect = true;
      else if (!ownerNamespaced && owner.identity.namespace !== n.identity.namespace && !owner.observed) suspect = true;
    }
    if (suspect) work.attemptToDelete.push(n);
  }

  private removeDependentFromOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    for (const ref of owners) this.nodes.get(ref.uid)?.dependents.delete(n);
  }

  private processTransitions(old: KubeObject | undefined, obj: KubeObject, n: GraphNode, work: GraphWork): void {
    if (deletionStartsWithFinalizer(old, obj, FINALIZER_ORPHAN)) {
      work.attemptToOrphan.push(n);
      return;
    }
    if (deletionStartsWithFinalizer(old, obj, FINALIZER_FOREGROUND)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) work.attemptToDelete.push(dep);
      work.attemptToDelete.push(n);
    }
  }

  /** An object was added or updated (identity carries the resource's apiVersion and kind). */
  observe(identity: ObjectIdentity, old: KubeObject | undefined, obj: KubeObject): GraphWork {
    const work: GraphWork = { attemptToDelete: [], attemptToOrphan: [] };
    const owners = obj.metadata?.ownerReferences ?? [];
    let n = this.nodes.get(identity.uid);
    if (n && !n.observed) {
      // A virtual node is now observed: dependents that named it differently need another look.
      if (!sameIdentity(n.identity, identity)) {
        for (const dep of partitionDependents(n.dependents, identity).nonmatching) work.attemptToDelete.push(dep);
        n.identity = identity;
      }
      n.observed = true;
    }
    if (!n) {
      n = new GraphNode(identity);
      n.observed = true;
      n.owners = [...owners];
      n.beingDeleted = beingDeleted(obj);
      n.deletingDependents = beingDeleted(obj) && hasFinalizer(obj, FINALIZER_FOREGROUND);
      this.nodes.set(identity.uid, n);
      this.addDependentToOwners(n, owners, work);
      this.processTransitions(old, obj, n, work);
      return work;
    }
    const { added, removed, unblocked } = referenceDiffs(n.owners, owners);
    if (added.length || removed.length || unblocked.length) {
      // Owners waiting for this dependent may no longer be blocked by it.
      for (const ref of [...removed.filter((r) => r.blockOwnerDeletion === true), ...unblocked]) {
        const owner = this.nodes.get(ref.uid);
        if (owner) work.attemptToDelete.push(owner);
      }
      n.owners = [...owners];
      this.addDependentToOwners(n, added, work);
      this.removeDependentFromOwners(n, removed);
    }
    if (beingDeleted(obj)) n.beingDeleted = true;
    this.processTransitions(old, obj, n, work);
    return work;
  }

  /**
   * An object is gone: observed by an informer, or (virtual) confirmed absent
   * by the API. Its dependents are looked at; owners waiting on it too.
   */
  observeDelete(identity: ObjectIdentity, virtual: boolean): GraphWork {
    const work: GraphWork = { attemptToDelete: [], attemptToOrphan: [] };
    const existing = this.nodes.get(identity.uid);
    if (!existing) return work;
    if (virtual && (!existing.observed || !sameIdentity(existing.identity, identity))) {
      const { matching, nonmatching } = partitionDependents(existing.dependents, identity);
      if (nonmatching.length > 0 || (existing.observed && !sameIdentity(existing.identity, identity))) {
        // Some dependents know this owner by other coordinates: keep the node, act on the ones that match.
        if (matching.length) this.markAbsent(identity);
        work.attemptToDelete.push(...matching);
        if (!existing.observed && sameIdentity(existing.identity, identity)) {
          const other = nonmatching[0]?.owners.find((r) => r.uid === identity.uid);
          if (other) {
            existing.identity = { apiVersion: other.apiVersion, kind: other.kind, name: other.name, uid: other.uid, namespace: nonmatching[0]!.identity.namespace };
            work.attemptToDelete.push(existing);
          }
        }
        return work;
      }
    }
    this.nodes.delete(identity.uid);
    this.removeDependentFromOwners(existing, existing.owners);
    if (existing.dependents.size > 0) this.markAbsent(identity);
    work.attemptToDelete.push(...existing.dependents);
    for (const ref of existing.owners) {
      const owner = this.nodes.get(ref.uid);
      if (owner?.deletingDependents) work.attemptToDelete.push(owner);
    }
    return work;
  }
}

/** Added and removed references by uid, and references whose blockOwnerDeletion was turned off. */
export function referenceDiffs(old: readonly OwnerReference[], next: readonly OwnerReference[]): { added: OwnerReference[]; removed: OwnerReference[]; unblocked: OwnerReference[] } {
  const oldByUid = new Map(old.map((r) => [r.uid, r]));
  const nextByUid = new Map(next.map((r) => [r.uid, r]));
  const added = next.filter((r) => !oldByUid.has(r.uid));
  const removed = old.filter((r) => !nextByUid.has(r.uid));
  const unblocked = next.filter((r) => oldByUid.get(r.uid)?.blockOwnerDeletion === true && r.blockOwnerDeletion !== true);
  return { added, removed, unblocked };
}
