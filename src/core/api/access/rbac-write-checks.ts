// Escalation prevention on roles, clusterroles, rolebindings and
// clusterrolebindings (kube's rbac policybased storages), enforced whatever
// authorizers are configured: a user may create or update a role only with
// every permission it grants already held in that scope (or `escalate` on
// it), and a binding only to a role whose permissions they hold (or `bind` on
// it); system:masters always may. The checks run before the kind's own
// preparation and validation, as kube's storages wrap the standard ones, so a
// forbidden write is a 403 even when it is also invalid. roleRef stays
// immutable through the kind's update validation (422).
//
// Wired as a decorator of the four kinds' strategies: the strategy context
// carries the request's user.

import {
  checkBindingWrite,
  checkRoleWrite,
  RBAC_GROUP,
  type ClusterRole,
  type ClusterRoleBinding,
  type EscalationDeps,
  type Role,
  type RoleBinding,
  type UserInfo,
} from '../../auth';
import type { KubeObject, ResourceDefinition, Strategy, StrategyContext } from '../../kinds/types';
import type { AccessControl } from './access-control';

type RoleKind = 'Role' | 'ClusterRole';
type BindingKind = 'RoleBinding' | 'ClusterRoleBinding';

const KINDS: Record<string, RoleKind | BindingKind> = {
  roles: 'Role',
  clusterroles: 'ClusterRole',
  rolebindings: 'RoleBinding',
  clusterrolebindings: 'ClusterRoleBinding',
};

function depsOf(access: AccessControl): EscalationDeps {
  return { authorize: (attrs) => access.authorizers.authorize(attrs, { trace: 'off' }), resolver: access.rbac };
}

function userOf(sctx: StrategyContext): UserInfo | undefined {
  const u = sctx.user;
  return u ? { username: u.username, groups: [...(u.groups ?? [])], ...(u.uid ? { uid: u.uid } : {}), ...(u.extra ? { extra: u.extra } : {}) } : undefined;
}

async function check(access: AccessControl | undefined, kind: RoleKind | BindingKind, obj: KubeObject, old: KubeObject | undefined, sctx: StrategyContext): Promise<void> {
  if (!access) return;
  const user = userOf(sctx);
  if (!user) {
    // No user only happens when no access control is configured at all (decision 0150): AlwaysAllow and no
    // authenticator. There AlwaysAllow answers the escalate and bind checks as it answers every other one, as a
    // real AlwaysAllow cluster does for its (always authenticated) callers; kube's storages would say
    // "no user on context", a state its clients never reach (decision 0302).
    return;
  }
  // The escalation checks read the stored roles through the rule resolver.
  await access.ready;
  const deps = depsOf(access);
  const error =
    kind === 'Role' || kind === 'ClusterRole'
      ? await checkRoleWrite(deps, {
          user,
          kind,
          object: obj as unknown as Role | ClusterRole,
          ...(old ? { old: old as unknown as Role | ClusterRole, requestName: obj.metadata?.name ?? '' } : {}),
        })
      : await checkBindingWrite(deps, {
          user,
          kind,
          object: obj as unknown as RoleBinding | ClusterRoleBinding,
          ...(old ? { old: old as unknown as RoleBinding | ClusterRoleBinding } : {}),
        });
  if (error) throw error;
}

function guarded(strategy: Strategy, kind: RoleKind | BindingKind, access: () => AccessControl | undefined): Strategy {
  return {
    ...strategy,
    async prepareForCreate(obj, sctx) {
      await check(access(), kind, obj, undefined, sctx);
      await strategy.prepareForCreate?.(obj, sctx);
    },
    async prepareForUpdate(obj, old, sctx) {
      await check(access(), kind, obj, old, sctx);
      await strategy.prepareForUpdate?.(obj, old, sctx);
    },
  };
}

/** The definitions with the four RBAC kinds' strategies guarded. */
export function withRbacWriteChecks(definitions: readonly ResourceDefinition[], access: () => AccessControl | undefined): ResourceDefinition[] {
  return definitions.map((d) => {
    const kind = d.group === RBAC_GROUP ? KINDS[d.plural] : undefined;
    return kind ? { ...d, strategy: guarded(d.strategy, kind, access) } : d;
  });
}
