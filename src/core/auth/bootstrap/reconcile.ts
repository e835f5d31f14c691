// Start-up reconciliation of the default RBAC objects (kube-apiserver's
// rbac/bootstrap-roles post-start hook, reconciliation.ReconcileRoleOptions
// with Confirm and without RemoveExtraPermissions/Subjects):
// - a missing object is created;
// - an existing one gets the expected labels and annotations it lacks (its own
//   values win), the rules (broken down per verb/resource) and aggregation
//   selectors it lacks, and the subjects it lacks; nothing is removed;
// - a binding whose roleRef differs is recreated;
// - an object annotated rbac.authorization.kubernetes.io/autoupdate: "false"
//   is left alone (protected).
// Pure: it returns the writes to make; the caller performs them.

import { covers } from '../authorizer/escalation';
import { sameRoleRef } from '../authorizer/validation';
import { AUTOUPDATE_ANNOTATION, type AggregationRule, type ClusterRole, type ClusterRoleBinding, type LabelSelector, type PolicyRule, type Role, type RoleBinding, type Subject } from '../types';
import type { BootstrapPolicy } from './policy';

export type ReconcileOperation = 'none' | 'create' | 'update' | 'recreate';

export interface ReconcileResult<T> {
  readonly operation: ReconcileOperation;
  /** The object to write (the existing one when operation is 'none'). */
  readonly object: T;
  /** autoupdate=false: the computed change is not written. */
  readonly protected: boolean;
  readonly missingRules?: PolicyRule[];
  readonly missingSubjects?: Subject[];
}

function mergeMaps(expected: Record<string, string> | undefined, existing: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!expected && !existing) return undefined;
  return { ...(expected ?? {}), ...(existing ?? {}) };
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  return ka.length === kb.length && ka.every((k) => (a ?? {})[k] === (b ?? {})[k]);
}

const isProtected = (meta: { annotations?: Record<string, string> }): boolean => meta.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';

function selectorKey(s: LabelSelector): string {
  return JSON.stringify([Object.entries(s.matchLabels ?? {}).sort(), s.matchExpressions ?? []]);
}

export function reconcileRole<T extends Role | ClusterRole>(existing: T | undefined, expected: T): ReconcileResult<T> {
  if (!existing) return { operation: 'create', object: structuredClone(expected), protected: false };
  const result = structuredClone(existing);
  let operation: ReconcileOperation = 'none';
  result.metadata.annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
  if (!sameMap(result.metadata.annotations, existing.metadata.annotations)) operation = 'update';
  result.metadata.labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
  if (!sameMap(result.metadata.labels, existing.metadata.labels)) operation = 'update';
  if (result.metadata.annotations === undefined) delete result.metadata.annotations;
  if (result.metadata.labels === undefined) delete result.metadata.labels;

  const { missing } = covers(existing.rules ?? [], expected.rules ?? []);
  if (missing.length) {
    result.rules = [...(existing.rules ?? []), ...missing];
    operation = 'update';
  }

  const expAgg = (expected as ClusterRole).aggregationRule;
  const exAgg = (existing as ClusterRole).aggregationRule;
  if (!expAgg && exAgg) {
    delete (result as ClusterRole).aggregationRule;
    operation = 'update';
  } else if (expAgg) {
    const have = new Set((exAgg?.clusterRoleSelectors ?? []).map(selectorKey));
    const missingSelectors = (expAgg.clusterRoleSelectors ?? []).filter((s) => !have.has(selectorKey(s)));
    if (missingSelectors.length) {
      const agg: AggregationRule = { clusterRoleSelectors: [...(exAgg?.clusterRoleSelectors ?? []), ...structuredClone(missingSelectors)] };
      (result as ClusterRole).aggregationRule = agg;
      operation = 'update';
    }
  }
  const prot = isProtected(existing.metadata);
  return {
    operation: prot ? 'none' : operation,
    object: prot ? existing : result,
    protected: prot,
    ...(missing.length ? { missingRules: missing } : {}),
  };
}

const subjectKey = (s: Subject): string => `${s.kind}\u0000${s.apiGroup ?? ''}\u0000${s.namespace ?? ''}\u0000${s.name}`;

export function reconcileBinding<T extends RoleBinding | ClusterRoleBinding>(existing: T | undefined, expected: T): ReconcileResult<T> {
  if (!existing) return { operation: 'create', object: structuredClone(expected), protected: false };
  const prot = isProtected(existing.metadata);
  if (!sameRoleRef(existing.roleRef, expected.roleRef)) {
    return { operation: prot ? 'none' : 'recreate', object: prot ? existing : structuredClone(expected), protected: prot };
  }
  const result = structuredClone(existing);
  let operation: ReconcileOperation = 'none';
  result.metadata.annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
  if (!sameMap(result.metadata.annotations, existing.metadata.annotations)) operation = 'update';
  result.metadata.labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
  if (!sameMap(result.metadata.labels, existing.metadata.labels)) operation = 'update';
  if (result.metadata.annotations === undefined) delete result.metadata.annotations;
  if (result.metadata.labels === undefined) delete result.metadata.labels;
  const have = new Set((existing.subjects ?? []).map(subjectKey));
  const missingSubjects = (expected.subjects ?? []).filter((s) => !have.has(subjectKey(s)));
  if (missingSubjects.length) {
    result.subjects = [...(existing.subjects ?? []), ...structuredClone(missingSubjects)];
    operation = 'update';
  }
  return {
    operation: prot ? 'none' : operation,
    object: prot ? existing : result,
    protected: prot,
    ...(missingSubjects.length ? { missingSubjects } : {}),
  };
}

export interface ExistingRbac {
  getClusterRole(name: string): ClusterRole | undefined;
  getClusterRoleBinding(name: string): ClusterRoleBinding | undefined;
  getRole(namespace: string, name: string): Role | undefined;
  getRoleBinding(namespace: string, name: string): RoleBinding | undefined;
}

export type BootstrapWrite =
  | { kind: 'ClusterRole'; operation: 'create' | 'update'; object: ClusterRole }
  | { kind: 'Role'; operation: 'create' | 'update'; object: Role }
  | { kind: 'ClusterRoleBinding'; operation: 'create' | 'update' | 'recreate'; object: ClusterRoleBinding }
  | { kind: 'RoleBinding'; operation: 'create' | 'update' | 'recreate'; object: RoleBinding };

/** The writes that bring the stored RBAC objects up to the default policy. */
export function planBootstrapReconcile(existing: ExistingRbac, policy: BootstrapPolicy): { writes: BootstrapWrite[]; skipped: string[] } {
  const writes: BootstrapWrite[] = [];
  const skipped: string[] = [];
  const note = (kind: string, name: string, r: ReconcileResult<unknown>): void => {
    if (r.protected) skipped.push(`${kind} ${name}: autoupdate is false`);
  };
  for (const role of policy.clusterRoles) {
    const r = reconcileRole(existing.getClusterRole(role.metadata.name), role);
    note('ClusterRole', role.metadata.name, r);
    if (r.operation === 'create' || r.operation === 'update') writes.push({ kind: 'ClusterRole', operation: r.operation, object: r.object });
  }
  for (const binding of policy.clusterRoleBindings) {
    const r = reconcileBinding(existing.getClusterRoleBinding(binding.metadata.name), binding);
    note('ClusterRoleBinding', binding.metadata.name, r);
    if (r.operation !== 'none') writes.push({ kind: 'ClusterRoleBinding', operation: r.operation, object: r.object });
  }
  for (const role of policy.roles) {
    const ns = role.metadata.namespace ?? '';
    const r = reconcileRole(existing.getRole(ns, role.metadata.name), role);
    note('Role', `${ns}/${role.metadata.name}`, r);
    if (r.operation === 'create' || r.operation === 'update') writes.push({ kind: 'Role', operation: r.operation, object: r.object });
  }
  for (const binding of policy.roleBindings) {
    const ns = binding.metadata.namespace ?? '';
    const r = reconcileBinding(existing.getRoleBinding(ns, binding.metadata.name), binding);
    note('RoleBinding', `${ns}/${binding.metadata.name}`, r);
    if (r.operation !== 'none') writes.push({ kind: 'RoleBinding', operation: r.operation, object: r.object });
  }
  return { writes, skipped };
}
