// RBAC escalation prevention, enforced by the RBAC REST storage whatever the
// authorizer (pkg/registry/rbac/{role,clusterrole,rolebinding,
// clusterrolebinding}/policybased and validation.ConfirmNoEscalation):
//
// - writing a Role/ClusterRole needs system:masters, or the `escalate` verb on
//   roles/clusterroles, or already holding every rule it grants (in the role's
//   namespace; cluster-wide for a ClusterRole); an aggregationRule needs full
//   authority ("*" on everything);
// - writing a binding needs system:masters, or the `bind` verb on the
//   referenced role (checked in the binding's namespace), or already holding
//   every rule of the referenced role.
//
// Refusals are 403s worded as kube-apiserver words them:
//   roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:
//   {APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}

import { forbiddenStatus } from './forbidden';
import type { RbacAuthorizer } from './rbac';
import { resourceAttributes } from '../attributes';
import type { StatusError } from '../../errors/status';
import { GROUP, RBAC_GROUP, type Attributes, type ClusterRole, type ClusterRoleBinding, type PolicyRule, type Role, type RoleBinding, type UserInfo } from '../types';

// ---------------------------------------------------------------------------
// Rule coverage (validation.Covers) and the compact missing-rules text
// ---------------------------------------------------------------------------

const has = (set: readonly string[] | undefined, value: string): boolean => (set ?? []).includes(value);
const hasAll = (set: readonly string[] | undefined, values: readonly string[] | undefined): boolean => (values ?? []).every((v) => has(set, v));

/** Splits a rule into one rule per (group, resource, verb[, name]) and per (url, verb). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function resourceCoversAll(owner: readonly string[] | undefined, requested: readonly string[] | undefined): boolean {
  if (has(owner, '*') || hasAll(owner, requested)) return true;
  for (const path of requested ?? []) {
    if (has(owner, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(owner, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(ownerPath: string, subPath: string): boolean {
  if (ownerPath === subPath) return true;
  return ownerPath.endsWith('*') && subPath.startsWith(ownerPath.replace(/\*+$/, ''));
}

function nonResourceURLsCoverAll(owner: readonly string[] | undefined, requested: readonly string[] | undefined): boolean {
  return (requested ?? []).every((path) => (owner ?? []).some((o) => nonResourceURLCovers(o, path)));
}

export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = nonResourceURLsCoverAll(owner.nonResourceURLs, sub.nonResourceURLs);
  const names = sub.resourceNames?.length ? !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames) : !owner.resourceNames?.length;
  return verbs && groups && resources && names && urls;
}

/** Whether ownerRules cover every permission of servantRules, and the uncovered ones. */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const servant of servantRules) {
    for (const sub of breakdownRule(servant)) {
      if (!ownerRules.some((owner) => ruleCovers(owner, sub))) missing.push(sub);
    }
  }
  return { covered: missing.length === 0, missing };
}

/** CompactRules: single group/resource(/name) rules that differ only by verb are merged. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple =
      (rule.resourceNames?.length ?? 0) <= 1 &&
      !rule.nonResourceURLs?.length &&
      rule.apiGroups?.length === 1 &&
      rule.resources?.length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], rule.resourceNames?.[0] ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...rule.verbs];
    else simple.set(key, structuredClone(rule));
  }
  return [...compacted, ...simple.values()];
}

/** Go's %q of a []string: ["a" "b"]. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

/** rbacv1helpers.CompactString, the per-rule line of escalation errors. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoteList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoteList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoteList(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** Go's sort.Strings order (byte-wise). */
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export type RuleResolver = Pick<RbacAuthorizer, 'policyRulesFor' | 'roleReferenceRules'>;

/**
 * ConfirmNoEscalation: undefined when the user holds every rule in
 * `namespace`, else the error text (without the "… is forbidden: " prefix).
 */
export function confirmNoEscalation(resolver: RuleResolver, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const owner = resolver.policyRulesFor(user, namespace, 'registry');
  const { covered, missing } = covers(owner.rules, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort(byteOrder);
  let message = `user ${JSON.stringify(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (owner.errors.length) {
    const aggregate = owner.errors.length === 1 ? owner.errors[0] : `[${owner.errors.join(', ')}]`;
    message += `; resolution errors: [${aggregate}]`;
  }
  return message;
}

// ---------------------------------------------------------------------------
// The checks the RBAC storage makes on create and update
// ---------------------------------------------------------------------------

export interface EscalationDeps {
  /** The configured authorizer chain (escalate and bind are asked through it). */
  authorize(attrs: Attributes): Promise<{ decision: string }> | { decision: string };
  /** Rules from the RBAC objects, whatever authorizers are configured. */
  resolver: RuleResolver;
}

/** The full authority an aggregationRule requires. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** EscalationAllowed: system:masters may always write RBAC objects. */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(GROUP.masters);
}

async function allowed(deps: EscalationDeps, attrs: Attributes): Promise<boolean> {
  try {
    return (await deps.authorize(attrs)).decision === 'Allow';
  } catch {
    return false;
  }
}

/** True when the fields changed are only ownerReferences and finalizers (the garbage collector's update). */
export function isOnlyMutatingGCFields(obj: { metadata?: Record<string, unknown> }, old: { metadata?: Record<string, unknown> }): boolean {
  const copy = structuredClone(old) as { metadata?: Record<string, unknown> };
  copy.metadata = { ...(copy.metadata ?? {}) };
  for (const key of ['ownerReferences', 'finalizers']) {
    if (obj.metadata && key in obj.metadata) copy.metadata[key] = obj.metadata[key];
    else delete copy.metadata[key];
  }
  return canonical(copy) === canonical(obj);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface RoleWrite {
  readonly user: UserInfo;
  readonly kind: 'Role' | 'ClusterRole';
  readonly object: Role | ClusterRole;
  /** Set on update. */
  readonly old?: Role | ClusterRole;
  /** The name in the request URL ('' on create), used for the escalate check. */
  readonly requestName?: string;
}

/** The checks of the role and clusterrole storages. Undefined when the write may proceed. */
export async function checkRoleWrite(deps: EscalationDeps, w: RoleWrite): Promise<StatusError | undefined> {
  if (escalationAllowed(w.user)) return undefined;
  const resource = w.kind === 'Role' ? 'roles' : 'clusterroles';
  const namespace = w.kind === 'Role' ? (w.object.metadata.namespace ?? '') : '';
  const escalate = resourceAttributes(w.user, {
    verb: 'escalate',
    apiGroup: RBAC_GROUP,
    apiVersion: '*',
    resource,
    namespace,
    name: w.requestName ?? (w.old ? w.object.metadata.name : ''),
  });
  if (await allowed(deps, escalate)) return undefined;
  if (w.old && isOnlyMutatingGCFields(w.object, w.old)) return undefined;
  const gr = { group: RBAC_GROUP, resource };
  const name = w.object.metadata.name;
  const problem = confirmNoEscalation(deps.resolver, w.user, namespace, w.object.rules ?? []);
  if (problem) return forbiddenStatus(gr, name, problem);
  if (w.kind === 'ClusterRole') {
    const uses = (r: Role | ClusterRole | undefined): boolean => !!(r as ClusterRole | undefined)?.aggregationRule;
    if (uses(w.object) || uses(w.old)) {
      if (confirmNoEscalation(deps.resolver, w.user, '', FULL_AUTHORITY)) {
        return forbiddenStatus(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
  }
  return undefined;
}

export interface BindingWrite {
  readonly user: UserInfo;
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly object: RoleBinding | ClusterRoleBinding;
  readonly old?: RoleBinding | ClusterRoleBinding;
}

/** The checks of the rolebinding and clusterrolebinding storages. */
export async function checkBindingWrite(deps: EscalationDeps, w: BindingWrite): Promise<StatusError | undefined> {
  if (escalationAllowed(w.user)) return undefined;
  if (w.old && isOnlyMutatingGCFields(w.object, w.old)) return undefined;
  const namespace = w.kind === 'RoleBinding' ? (w.object.metadata.namespace ?? '') : '';
  const ref = w.object.roleRef;
  if (ref.kind === 'ClusterRole' || ref.kind === 'Role') {
    const bind = resourceAttributes(w.user, {
      verb: 'bind',
      apiGroup: ref.apiGroup,
      resource: ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles',
      name: ref.name,
      namespace,
    });
    if (await allowed(deps, bind)) return undefined;
  }
  const gr = { group: RBAC_GROUP, resource: w.kind === 'RoleBinding' ? 'rolebindings' : 'clusterrolebindings' };
  const name = w.object.metadata.name;
  const referenced = deps.resolver.roleReferenceRules(ref, namespace, 'registry');
  if (referenced.error) return forbiddenStatus(gr, name, referenced.error);
  const problem = confirmNoEscalation(deps.resolver, w.user, namespace, referenced.rules);
  return problem ? forbiddenStatus(gr, name, problem) : undefined;
}
