// RBAC rule 5 (defaults created, repaired unless autoupdate=false) and the
// aggregation controller (aggregationRule fills rules from matching roles).
import { describe, expect, it } from 'vitest';
import { aggregateClusterRoles, computeAggregation, labelSelectorMatches } from './aggregation';
import { planBootstrapReconcile, reconcileBinding, reconcileRole } from './reconcile';
import { bootstrapPolicy } from './policy';
import type { ClusterRole, ClusterRoleBinding } from '../types';

const G = 'rbac.authorization.k8s.io';

describe('aggregation', () => {
  it('collects matching roles in name order, each rule once, transitively (view → edit → admin)', () => {
    const roles = aggregateClusterRoles(bootstrapPolicy().clusterRoles);
    const byName = new Map(roles.map((r) => [r.metadata.name, r]));
    const view = byName.get('view')!.rules!;
    const edit = byName.get('edit')!.rules!;
    const admin = byName.get('admin')!.rules!;
    expect(view).toEqual(byName.get('system:aggregate-to-view')!.rules);
    // edit = aggregate-to-edit, then view's rules ("system:…" sorts before "view").
    expect(edit).toEqual([...byName.get('system:aggregate-to-edit')!.rules!, ...view]);
    // admin = edit ("edit" < "system:aggregate-to-admin"), then aggregate-to-admin.
    expect(admin).toEqual([...edit, ...byName.get('system:aggregate-to-admin')!.rules!]);
  });

  it('a new role with a matching label adds its rules; removing the label removes them', () => {
    const custom: ClusterRole = {
      metadata: { name: 'crontabs-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ verbs: ['get'], apiGroups: ['stable.example.com'], resources: ['crontabs'] }],
    };
    const agg = computeAggregation([...bootstrapPolicy().clusterRoles, custom]);
    expect(agg.get('view')).toContainEqual(custom.rules![0]);
    expect(agg.get('admin')).toContainEqual(custom.rules![0]);
    const without = computeAggregation([...bootstrapPolicy().clusterRoles, { ...custom, metadata: { name: 'crontabs-view' } }]);
    expect(without.get('view')).not.toContainEqual(custom.rules![0]);
  });

  it('label selectors support matchExpressions', () => {
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x', 'y'] }] }, { a: 'y' })).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }, { a: 'x' })).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, {})).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, {})).toBe(true);
  });
});

describe('bootstrap reconciliation', () => {
  const expected = bootstrapPolicy().clusterRoles.find((r) => r.metadata.name === 'system:basic-user')!;

  it('creates what is missing', () => {
    const plan = planBootstrapReconcile(
      { getClusterRole: () => undefined, getClusterRoleBinding: () => undefined, getRole: () => undefined, getRoleBinding: () => undefined },
      bootstrapPolicy(),
    );
    const policy = bootstrapPolicy();
    expect(plan.writes).toHaveLength(policy.clusterRoles.length + policy.clusterRoleBindings.length + policy.roles.length + policy.roleBindings.length);
    expect(plan.writes.every((w) => w.operation === 'create')).toBe(true);
  });

  it('adds missing permissions (broken down) and keeps extra ones and changed labels', () => {
    const existing: ClusterRole = {
      metadata: { name: 'system:basic-user', labels: { 'kubernetes.io/bootstrapping': 'custom', mine: 'x' }, annotations: {} },
      rules: [
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      ],
    };
    const r = reconcileRole(existing, expected);
    expect(r.operation).toBe('update');
    expect(r.object.rules).toEqual([
      ...existing.rules!,
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ]);
    expect(r.object.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'custom', mine: 'x' });
    expect(r.object.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
  });

  it('leaves an object alone when autoupdate is "false"', () => {
    const existing: ClusterRole = {
      metadata: { name: 'system:basic-user', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } },
      rules: [],
    };
    const r = reconcileRole(existing, expected);
    expect(r).toMatchObject({ operation: 'none', protected: true });
    expect(r.object).toBe(existing);
  });

  it('an up-to-date object needs no write', () => {
    expect(reconcileRole(structuredClone(expected), expected).operation).toBe('none');
  });

  it('adds missing subjects and recreates a binding whose roleRef changed', () => {
    const exp = bootstrapPolicy().clusterRoleBindings.find((b) => b.metadata.name === 'system:public-info-viewer')!;
    const existing: ClusterRoleBinding = { ...structuredClone(exp), subjects: [{ apiGroup: G, kind: 'Group', name: 'system:authenticated' }] };
    const r = reconcileBinding(existing, exp);
    expect(r.operation).toBe('update');
    expect(r.missingSubjects).toEqual([{ apiGroup: G, kind: 'Group', name: 'system:unauthenticated' }]);
    const moved = reconcileBinding({ ...structuredClone(exp), roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } }, exp);
    expect(moved.operation).toBe('recreate');
    expect(moved.object.roleRef.name).toBe('system:public-info-viewer');
  });
});
