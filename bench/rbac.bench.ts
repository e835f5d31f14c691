// Cost of one RBAC authorization with 1,000 bindings (issue "Access control":
// under 1 ms median in the core). Run: npx tsx bench/rbac.bench.ts
//
// The data: 600 ClusterRoleBindings and 400 RoleBindings in the request's
// namespace, each to other users and groups, plus the default 1.32 policy;
// the user is in 5 groups, 3 of which appear in some bindings. Cases: allowed
// by the last applicable binding, and denied after visiting every applicable
// binding (the worst case), with the default trace and with the full trace.

import { createRbacAuthorizer } from '../src/core/auth/authorizer/rbac';
import { createMemoryRbacSource } from '../src/core/auth/rbac-memory-source';
import { bootstrapPolicy } from '../src/core/auth/bootstrap/policy';
import { aggregateClusterRoles } from '../src/core/auth/bootstrap/aggregation';
import { attributesFor } from '../src/core/auth/attributes';
import { requestInfoFor } from '../src/core/auth/request-info';
import type { ClusterRole, ClusterRoleBinding, RoleBinding, TraceMode, UserInfo } from '../src/core/auth/types';

const G = 'rbac.authorization.k8s.io';

function buildSource() {
  const policy = bootstrapPolicy();
  // admin/edit/view get their rules from the aggregation controller.
  const clusterRoles: ClusterRole[] = aggregateClusterRoles(policy.clusterRoles);
  for (let i = 0; i < 50; i++) {
    clusterRoles.push({
      metadata: { name: `custom-${i}` },
      rules: Array.from({ length: 8 }, (_, j) => ({ verbs: ['get', 'list', 'watch'], apiGroups: [`g${j}.example.com`], resources: [`things${i}`, `others${j}`] })),
    });
  }
  const clusterRoleBindings: ClusterRoleBinding[] = [...policy.clusterRoleBindings];
  for (let i = 0; i < 600; i++) {
    clusterRoleBindings.push({
      metadata: { name: `crb-${i}` },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: `custom-${i % 50}` },
      subjects: [
        { kind: 'User', name: `user-${i}`, apiGroup: G },
        { kind: 'Group', name: `team-${i % 40}`, apiGroup: G },
      ],
    });
  }
  const roleBindings: RoleBinding[] = [];
  for (let i = 0; i < 400; i++) {
    roleBindings.push({
      metadata: { name: `rb-${i}`, namespace: 'apps' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: i === 399 ? 'view' : `custom-${i % 50}` },
      subjects: [
        { kind: 'User', name: i === 399 ? 'alice' : `user-${i}`, apiGroup: G },
        { kind: 'ServiceAccount', name: `sa-${i}` },
      ],
    });
  }
  return createMemoryRbacSource({ clusterRoles, clusterRoleBindings: clusterRoleBindings, roleBindings });
}

function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const QUICK = typeof process !== 'undefined' && process.env.BENCH_QUICK === '1';

function measure(label: string, fn: () => unknown, iterations = QUICK ? 2_000 : 20_000): { label: string; medianUs: number; p99Us: number } {
  for (let i = 0; i < (QUICK ? 200 : 2_000); i++) fn(); // warm-up
  // Time batches of 10 to stay above the timer's resolution.
  const batch = 10;
  const samples: number[] = [];
  for (let i = 0; i < iterations / batch; i++) {
    const t0 = performance.now();
    for (let j = 0; j < batch; j++) fn();
    samples.push(((performance.now() - t0) / batch) * 1000);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { label, medianUs: median(samples), p99Us: sorted[Math.floor(sorted.length * 0.99)]! };
}

export function runRbacBench(): { bindings: number; results: ReturnType<typeof measure>[] } {
  const source = buildSource();
  const authz = createRbacAuthorizer(source);
  const alice: UserInfo = { username: 'alice', groups: ['team-1', 'team-2', 'team-3', 'other', 'system:authenticated'] };
  const allowed = attributesFor(alice, requestInfoFor('GET', '/api/v1/namespaces/apps/pods'));
  const denied = attributesFor(alice, requestInfoFor('DELETE', '/api/v1/namespaces/apps/secrets/s1'));
  const bindings = source.listClusterRoleBindings().length + source.listRoleBindings('apps').length;
  const check = (mode: TraceMode, attrs: typeof allowed, want: string) => () => {
    const d = authz.authorize(attrs, { trace: mode }).decision;
    if (d !== want) throw new Error(`unexpected ${d}`);
  };
  const results = [
    measure('allow (last applicable binding), trace=matched', check('matched', allowed, 'Allow')),
    measure('deny (every applicable binding), trace=matched', check('matched', denied, 'NoOpinion')),
    measure('allow, trace=off', check('off', allowed, 'Allow')),
    measure('deny, trace=full (every binding recorded)', check('full', denied, 'NoOpinion'), 2_000),
  ];
  return { bindings, results };
}

const isMain = typeof process !== 'undefined' && process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const { bindings, results } = runRbacBench();
  console.log(`RBAC authorization with ${bindings} bindings`);
  for (const r of results) console.log(`  ${r.label.padEnd(52)} median ${r.medianUs.toFixed(1)} µs   p99 ${r.p99Us.toFixed(1)} µs`);
}
