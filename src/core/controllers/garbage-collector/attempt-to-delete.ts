// kube's attemptToDeleteItem, attemptToOrphan and removeFinalizer: what the
// garbage collector does with one node of the graph. Each function talks to
// the API through GarbageCollectorDeps and reports graph changes (a virtual
// delete, more nodes to look at) through GcEffects.

import type { KubeObject, OwnerReference } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import type { GarbageCollectorDeps, Mapping } from './deps';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, type DependencyGraph, type GraphNode, type ObjectIdentity } from './graph';

export interface GcEffects {
  /** The API says this identity does not exist: feed a virtual delete to the graph. */
  virtualDelete(identity: ObjectIdentity): void;
  attemptToDelete(node: GraphNode): void;
}

/** No REST mapping for an apiVersion/kind yet (a CRD not served yet, or a wrong reference): retried. */
export class RestMappingError extends Error {}
/** A cluster-scoped object naming a namespaced owner: never resolves, so not retried. */
export class NamespacedOwnerOfClusterScopedObjectError extends Error {}

function mappingFor(deps: GarbageCollectorDeps, apiVersion: string, kind: string): Mapping {
  const m = deps.mapping(apiVersion, kind);
  if (!m) throw new RestMappingError(`unable to get REST mapping for ${apiVersion}/${kind}.`);
  return m;
}

const hasFinalizer = (obj: KubeObject, f: string) => !!obj.metadata?.finalizers?.includes(f);

export interface Classified {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waitingForDependentsDeletion: OwnerReference[];
}

/** Whether an owner reference points at nothing (kube's isDangling), with the live owner when it exists. */
export async function isDangling(deps: GarbageCollectorDeps, graph: DependencyGraph, ref: OwnerReference, item: ObjectIdentity): Promise<{ dangling: boolean; owner?: KubeObject }> {
  const coordinates = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid };
  if (graph.isAbsent({ ...coordinates, namespace: '' })) return { dangling: true };
  if (graph.isAbsent({ ...coordinates, namespace: item.namespace })) return { dangling: true };
  const m = mappingFor(deps, ref.apiVersion, ref.kind);
  if (!item.namespace && m.namespaced) {
    throw new NamespacedOwnerOfClusterScopedObjectError(`cluster-scoped object ${item.name} refers to a namespaced owner ${ref.kind}/${ref.name}`);
  }
  const absentKey = { ...coordinates, namespace: m.namespaced ? item.namespace : '' };
  const owner = await deps.get(m.gvr, m.namespaced ? item.namespace : '', ref.name);
  if (!owner || owner.metadata?.uid !== ref.uid) {
    graph.markAbsent(absentKey);
    return { dangling: true };
  }
  return { dangling: false, owner };
}

export async function classifyReferences(deps: GarbageCollectorDeps, graph: DependencyGraph, item: ObjectIdentity, refs: readonly OwnerReference[]): Promise<Classified> {
  const out: Classified = { solid: [], dangling: [], waitingForDependentsDeletion: [] };
  for (const ref of refs) {
    const { dangling, owner } = await isDangling(deps, graph, ref, item);
    if (dangling) out.dangling.push(ref);
    else if (owner && owner.metadata?.deletionTimestamp && hasFinalizer(owner, FINALIZER_FOREGROUND)) out.waitingForDependentsDeletion.push(ref);
    else out.solid.push(ref);
  }
  return out;
}

/** Merge patch keeping the ownerReferences whose uid is not listed (resourceVersion as a precondition). */
export function deleteOwnerRefsPatch(obj: KubeObject, uids: readonly string[]): unknown {
  const remaining = (obj.metadata?.ownerReferences ?? []).filter((r) => !uids.includes(r.uid));
  return { metadata: { resourceVersion: obj.metadata?.resourceVersion, ownerReferences: remaining.length ? remaining : null } };
}

/** Merge patch turning every blockOwnerDeletion off (kube's unblockOwnerReferences). */
export function unblockOwnerRefsPatch(obj: KubeObject): unknown {
  const refs = (obj.metadata?.ownerReferences ?? []).map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r));
  return { metadata: { resourceVersion: obj.metadata?.resourceVersion, ownerReferences: refs } };
}

/**
 * DELETE with uid and resourceVersion preconditions. On a conflict, the
 * delete is retried with the uid only if the ownerReferences did not change
 * meanwhile; otherwise the conflict is returned for a later look.
 */
export async function deleteObject(deps: GarbageCollectorDeps, item: ObjectIdentity, latest: KubeObject, policy: 'Orphan' | 'Background' | 'Foreground'): Promise<void> {
  const m = mappingFor(deps, item.apiVersion, item.kind);
  const namespace = m.namespaced ? item.namespace : '';
  const rv = latest.metadata?.resourceVersion;
  try {
    await deps.delete(m.gvr, namespace, item.name, { propagationPolicy: policy, preconditions: rv ? { uid: item.uid, resourceVersion: rv } : { uid: item.uid } });
  } catch (err) {
    if (isNotFound(err)) return;
    if (!isConflict(err) || !rv) throw err;
    const live = await deps.get(m.gvr, namespace, item.name);
    if (!live || live.metadata?.uid !== item.uid) return;
    if (JSON.stringify(live.metadata?.ownerReferences ?? []) !== JSON.stringify(latest.metadata?.ownerReferences ?? [])) throw err;
    try {
      await deps.delete(m.gvr, namespace, item.name, { propagationPolicy: policy, preconditions: { uid: item.uid } });
    } catch (again) {
      if (!isNotFound(again)) throw again;
    }
  }
}

/** Removes one finalizer from the object (merge patch with resourceVersion, again on conflicts). */
export async function removeFinalizer(deps: GarbageCollectorDeps, item: ObjectIdentity, finalizer: string): Promise<void> {
  const m = mappingFor(deps, item.apiVersion, item.kind);
  const namespace = m.namespaced ? item.namespace : '';
  for (let attempt = 0; attempt < 5; attempt++) {
    const obj = await deps.get(m.gvr, namespace, item.name);
    if (!obj || obj.metadata?.uid !== item.uid) return;
    const finalizers = obj.metadata?.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return;
    const rest = finalizers.filter((f) => f !== finalizer);
    try {
      await deps.mergePatch(m.gvr, namespace, item.name, { metadata: { resourceVersion: obj.metadata?.resourceVersion, finalizers: rest.length ? rest : null } });
      return;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
  throw new Error(`failed to remove the ${finalizer} finalizer from ${item.kind} ${item.name}: too many conflicts`);
}

/** An owner in foreground deletion: wait for blocking dependents, then drop the finalizer. */
async function processDeletingDependents(deps: GarbageCollectorDeps, item: GraphNode, effects: GcEffects): Promise<void> {
  const blocking = item.blockingDependents();
  if (blocking.length === 0) {
    await removeFinalizer(deps, item.identity, FINALIZER_FOREGROUND);
    return;
  }
  for (const dep of blocking) if (!dep.deletingDependents) effects.attemptToDelete(dep);
}

/** kube's attemptToDeleteItem: decide what to do with one object of the graph. */
export async function attemptToDeleteItem(deps: GarbageCollectorDeps, graph: DependencyGraph, item: GraphNode, effects: GcEffects): Promise<void> {
  // Being deleted without waiting for dependents: nothing to do until it is gone.
  if (item.beingDeleted && !item.deletingDependents) return;
  const m = mappingFor(deps, item.identity.apiVersion, item.identity.kind);
  const latest = await deps.get(m.gvr, m.namespaced ? item.identity.namespace : '', item.identity.name);
  if (!latest || latest.metadata?.uid !== item.identity.uid) {
    effects.virtualDelete(item.identity);
    return;
  }
  if (item.deletingDependents) return processDeletingDependents(deps, item, effects);
  const refs = latest.metadata?.ownerReferences ?? [];
  if (refs.length === 0) return;
  const { solid, dangling, waitingForDependentsDeletion } = await classifyReferences(deps, graph, item.identity, refs);
  if (solid.length > 0) {
    if (dangling.length === 0 && waitingForDependentsDeletion.length === 0) return;
    // Some owners are alive: only the references to absent owners, and to owners deleting their dependents, go.
    const uids = [...dangling, ...waitingForDependentsDeletion].map((r) => r.uid);
    await deps.mergePatch(m.gvr, m.namespaced ? item.identity.namespace : '', item.identity.name, deleteOwnerRefsPatch(latest, uids));
    return;
  }
  if (waitingForDependentsDeletion.length > 0 && item.dependents.size > 0) {
    for (const dep of item.dependents) {
      if (!dep.deletingDependents) continue;
      // A possible cycle of foreground deletions: stop blocking the owners, then delete in the foreground.
      await deps.mergePatch(m.gvr, m.namespaced ? item.identity.namespace : '', item.identity.name, unblockOwnerRefsPatch(latest));
      break;
    }
    return deleteObject(deps, item.identity, latest, 'Foreground');
  }
  const policy = hasFinalizer(latest, FINALIZER_ORPHAN) ? 'Orphan' : hasFinalizer(latest, FINALIZER_FOREGROUND) ? 'Foreground' : 'Background';
  return deleteObject(deps, item.identity, latest, policy);
}

/** kube's attemptToOrphan: the owner's dependents lose their reference to it, then the owner loses its orphan finalizer. */
export async function attemptToOrphan(deps: GarbageCollectorDeps, owner: GraphNode): Promise<void> {
  const failures: string[] = [];
  for (const dep of [...owner.dependents]) {
    try {
      const m = mappingFor(deps, dep.identity.apiVersion, dep.identity.kind);
      const namespace = m.namespaced ? dep.identity.namespace : '';
      for (let attempt = 0; ; attempt++) {
        const obj = await deps.get(m.gvr, namespace, dep.identity.name);
        if (!obj || obj.metadata?.uid !== dep.identity.uid) break;
        if (!(obj.metadata?.ownerReferences ?? []).some((r) => r.uid === owner.identity.uid)) break;
        try {
          await deps.mergePatch(m.gvr, namespace, dep.identity.name, deleteOwnerRefsPatch(obj, [owner.identity.uid]));
          break;
        } catch (err) {
          if (!isConflict(err) || attempt >= 4) throw err;
        }
      }
    } catch (err) {
      failures.push(err instanceof Error ? err.message : String(err));
    }
  }
  if (failures.length) throw new Error(`orphaning ${owner.identity.kind} ${owner.identity.name} failed: ${failures.join('; ')}`);
  await removeFinalizer(deps, owner.identity, FINALIZER_ORPHAN);
}
