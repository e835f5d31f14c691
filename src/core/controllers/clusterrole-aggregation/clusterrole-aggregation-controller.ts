// kube-controller-manager's clusterrole-aggregation controller: a ClusterRole
// with an aggregationRule gets, as its rules, the rules of every ClusterRole
// its selectors match (admin, edit and view are built this way from the
// aggregate-to-* labels). Any change to any ClusterRole re-checks every
// aggregating role; the rules are written with server-side apply under the
// field manager "clusterrole-aggregation-controller" (force), as kube does,
// and only when they differ. The computation itself is the pure
// aggregatedRules of src/core/auth.

import { aggregatedRules, type ClusterRole, type PolicyRule } from '../../auth';
import { rulesEqual } from '../../auth/bootstrap/aggregation';
import type { KubeObject } from '../../kinds/types';
import { isNotFound } from '../client/api-error';
import { resourcePath, type GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';

export const CLUSTERROLE_AGGREGATION_CONTROLLER = 'clusterrole-aggregation-controller';
export const CLUSTER_ROLES: GroupVersionResource = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };

/** Whether two rule lists hold the same rules in the same order (kube's equivalentRules compares them as written). */
export function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => rulesEqual(r, b[i]!));
}

/** The SSA body kube sends: only the rules (an empty list clears them). */
function applyBody(name: string, rules: readonly PolicyRule[]): Record<string, unknown> {
  return { kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: { name }, rules: rules.map((r) => ({ ...r })) };
}

export function clusterRoleAggregationController(ctx: ControllerContext): Controller {
  const roles = ctx.informers.for(CLUSTER_ROLES);
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(
    CLUSTERROLE_AGGREGATION_CONTROLLER,
    ctx.activity,
    async (name) => {
      const role = roles.get('', name) as unknown as ClusterRole | undefined;
      if (!role?.aggregationRule) return;
      const all = roles.list() as unknown as ClusterRole[];
      const rules = aggregatedRules(role, all);
      if (sameRules(role.rules ?? [], rules)) return;
      const path = `${resourcePath(CLUSTER_ROLES, { name })}?fieldManager=${CLUSTERROLE_AGGREGATION_CONTROLLER}&force=true`;
      try {
        await ctx.client.call('PATCH', path, applyBody(name, rules), { 'Content-Type': 'application/apply-patch+yaml' });
      } catch (err) {
        // Deleted meanwhile: nothing left to aggregate into.
        if (isNotFound(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  /** Any ClusterRole change may change what an aggregating role selects: check them all. */
  const enqueueAggregating = () => {
    for (const r of roles.list()) if ((r as KubeObject & { aggregationRule?: unknown }).aggregationRule) queue.add(r.metadata?.name ?? '');
  };

  return {
    name: CLUSTERROLE_AGGREGATION_CONTROLLER,
    start() {
      void roles.synced.then(() => {
        unsubscribe.push(roles.addHandler({ onAdd: enqueueAggregating, onUpdate: enqueueAggregating, onDelete: enqueueAggregating }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
