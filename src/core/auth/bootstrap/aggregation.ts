// The clusterrole-aggregation controller as a pure function: a ClusterRole
// with an aggregationRule gets, as its rules, the rules of every other
// ClusterRole matched by one of its selectors — selector by selector, matched
// roles in name order, each rule once. Aggregated roles can feed each other
// (view → edit → admin), so the computation repeats until nothing changes.

import type { ClusterRole, LabelSelector, PolicyRule } from '../types';

/** metav1.LabelSelector semantics: every matchLabels pair and every expression must hold. */
export function labelSelectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    switch (e.operator) {
      case 'In':
        if (!has || !(e.values ?? []).includes(l[e.key]!)) return false;
        break;
      case 'NotIn':
        if (has && (e.values ?? []).includes(l[e.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** Semantic equality of rules: a missing list equals an empty one. */
export function rulesEqual(a: PolicyRule, b: PolicyRule): boolean {
  const same = (x: readonly string[] | undefined, y: readonly string[] | undefined): boolean => {
    const xs = x ?? [];
    const ys = y ?? [];
    return xs.length === ys.length && xs.every((v, i) => v === ys[i]);
  };
  return (
    same(a.verbs, b.verbs) &&
    same(a.apiGroups, b.apiGroups) &&
    same(a.resources, b.resources) &&
    same(a.resourceNames, b.resourceNames) &&
    same(a.nonResourceURLs, b.nonResourceURLs)
  );
}

const byName = (a: ClusterRole, b: ClusterRole): number => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

/** The rules one aggregated role should have, given all cluster roles as they are now. */
export function aggregatedRules(target: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const selector of target.aggregationRule?.clusterRoleSelectors ?? []) {
    const matched = all.filter((r) => r.metadata.name !== target.metadata.name && labelSelectorMatches(selector, r.metadata.labels)).sort(byName);
    for (const role of matched) {
      for (const rule of role.rules ?? []) if (!rules.some((r) => rulesEqual(r, rule))) rules.push(rule);
    }
  }
  return rules;
}

/**
 * Cluster roles → the rules of every aggregated role (by name), after
 * aggregation has settled. Roles without an aggregationRule are not in the map.
 */
export function computeAggregation(roles: readonly ClusterRole[]): Map<string, PolicyRule[]> {
  let current = roles.map((r) => ({ ...r }));
  const result = new Map<string, PolicyRule[]>();
  // Each pass can only propagate one level further; the number of roles bounds the depth.
  for (let pass = 0; pass <= roles.length; pass++) {
    let changed = false;
    const next = current.map((role) => {
      if (!role.aggregationRule) return role;
      const rules = aggregatedRules(role, current);
      const before = role.rules ?? [];
      if (rules.length !== before.length || rules.some((r, i) => !rulesEqual(r, before[i]!))) {
        changed = true;
        return { ...role, rules };
      }
      return role;
    });
    current = next;
    if (!changed) break;
  }
  for (const role of current) if (role.aggregationRule) result.set(role.metadata.name, role.rules ?? []);
  return result;
}

/** Applies computeAggregation: the roles with their aggregated rules filled in. */
export function aggregateClusterRoles(roles: readonly ClusterRole[]): ClusterRole[] {
  const computed = computeAggregation(roles);
  return roles.map((r) => (computed.has(r.metadata.name) ? { ...r, rules: computed.get(r.metadata.name)! } : r));
}
