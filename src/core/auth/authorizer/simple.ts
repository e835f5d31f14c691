// The authorizers without state: system:masters (always first in
// kube-apiserver's chain), AlwaysAllow and AlwaysDeny.

import { GROUP, type SyncAuthorizer, type RulesResult, type TraceStep } from '../types';

const ALL_RULES: RulesResult = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};
const NO_RULES: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };

const clone = (r: RulesResult): RulesResult => structuredClone(r);

/** authorizerfactory.NewPrivilegedGroups(system:masters): members pass everything, with no reason; it lists no rules. */
export function createPrivilegedGroupsAuthorizer(groups: readonly string[] = [GROUP.masters]): SyncAuthorizer {
  return {
    type: 'Privileged',
    authorize(attrs): TraceStep {
      const group = attrs.user.groups.find((g) => groups.includes(g));
      if (group) return { authorizer: 'Privileged', decision: 'Allow', reason: '', notes: [`member of ${JSON.stringify(group)}`] };
      return { authorizer: 'Privileged', decision: 'NoOpinion', reason: '' };
    },
    // No rulesFor: kube's privilegedGroupAuthorizer is not a rule resolver, so a
    // SelfSubjectRulesReview of system:masters lists what RBAC grants (cluster-admin once).
  };
}

export function createAlwaysAllowAuthorizer(name?: string): SyncAuthorizer {
  return {
    type: 'AlwaysAllow',
    ...(name ? { name } : {}),
    authorize: () => ({ authorizer: 'AlwaysAllow', ...(name ? { name } : {}), decision: 'Allow', reason: '' }),
    rulesFor: () => clone(ALL_RULES),
  };
}

/**
 * AlwaysDeny: kube's alwaysDenyAuthorizer answers NoOpinion (not Deny) with
 * the reason "Everything is forbidden.", so a later authorizer may still allow
 * and, alone, the chain ends in a 403 carrying that reason.
 */
export function createAlwaysDenyAuthorizer(name?: string): SyncAuthorizer {
  return {
    type: 'AlwaysDeny',
    ...(name ? { name } : {}),
    authorize: () => ({ authorizer: 'AlwaysDeny', ...(name ? { name } : {}), decision: 'NoOpinion', reason: 'Everything is forbidden.' }),
    rulesFor: () => clone(NO_RULES),
  };
}
