// RBAC, explained from the RBAC objects the API lists: which bindings name a
// subject, the role each one refers to, each rule of that role and why it
// matches the request or not — the same walk kube's RBAC authorizer makes
// (ClusterRoleBindings first, then the RoleBindings of the request's
// namespace; the first rule that allows decides). The server's own answer
// comes from a SubjectAccessReview; this explains it, and who-can runs the
// walk the other way round.

import type { PolicyRule, RbacObjects, RoleBindingLike, RoleLike, Subject } from './rbac-types';

/** What is asked: authorizer attributes as a SubjectAccessReview spec carries them. */
export interface RequestAttributes {
  readonly user: string;
  readonly groups: readonly string[];
  readonly verb: string;
  /** Absent for a non-resource request. */
  readonly resource?: { readonly group: string; readonly resource: string; readonly subresource: string; readonly namespace: string; readonly name: string };
  /** The path of a non-resource request. */
  readonly path?: string;
}

export interface RuleVerdict {
  readonly index: number;
  readonly rule: PolicyRule;
  readonly matched: boolean;
  /** Which part of the rule failed, or what it matched. */
  readonly why: string;
}

export interface BindingVerdict {
  readonly kind: 'ClusterRoleBinding' | 'RoleBinding';
  readonly name: string;
  readonly namespace?: string;
  readonly roleRef: { kind: string; name: string };
  /** The subject of the binding that is the user. */
  readonly subject: Subject;
  /** Why that subject is the user. */
  readonly subjectWhy: string;
  readonly role: { readonly kind: string; readonly name: string; readonly namespace?: string; readonly found: boolean; readonly rules: readonly RuleVerdict[] };
  readonly allows: boolean;
}

export interface RbacExplanation {
  /** Every binding that names the user, in the order RBAC visits them. */
  readonly bindings: readonly BindingVerdict[];
  readonly allowed: boolean;
  /** kube's reason text when allowed ("RBAC: allowed by …"). */
  readonly reason: string;
}

const q = (s: string) => JSON.stringify(s);

// The sentences are those of the server's own trace (the audit log's), so a
// step reads the same whether the server recorded it or it is explained here.
const words = (values: readonly string[] | undefined) => `[${(values ?? []).join(' ')}]`;

/** Why a rule does or does not grant the attributes (the first part that fails). */
export function explainRule(rule: PolicyRule, attrs: RequestAttributes): { matched: boolean; why: string } {
  const verbs = rule.verbs ?? [];
  if (!verbs.includes('*') && !verbs.includes(attrs.verb)) return { matched: false, why: `verb ${q(attrs.verb)} is not in verbs ${words(verbs)}` };
  const r = attrs.resource;
  if (!r) {
    const urls = rule.nonResourceURLs ?? [];
    if (!urls.length) return { matched: false, why: 'the rule is for resources; this is a non-resource request' };
    const path = attrs.path ?? '';
    const hit = urls.some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
    return hit ? { matched: true, why: 'matches' } : { matched: false, why: `path ${q(path)} is not matched by nonResourceURLs ${words(urls)}` };
  }
  if (!rule.resources?.length && rule.nonResourceURLs?.length) return { matched: false, why: 'the rule is for non-resource URLs; this is a resource request' };
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(r.group)) return { matched: false, why: `API group ${q(r.group)} is not in apiGroups ${words(groups)}` };
  const combined = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  const resources = rule.resources ?? [];
  const resourceHit = resources.some((x) => x === '*' || x === combined || (r.subresource !== '' && x === `*/${r.subresource}`));
  if (!resourceHit) return { matched: false, why: `resource ${q(combined)} is not in resources ${words(resources)}` };
  const names = rule.resourceNames ?? [];
  if (names.length && !names.includes(r.name)) {
    return {
      matched: false,
      why: r.name ? `name ${q(r.name)} is not in resourceNames ${words(names)}` : `the rule is limited to resourceNames ${words(names)} and the request names no object`,
    };
  }
  return { matched: true, why: 'matches' };
}

/** Whether a binding's subject is the user, and why. */
export function subjectIsUser(subject: Subject, bindingNamespace: string, attrs: Pick<RequestAttributes, 'user' | 'groups'>): { matched: boolean; why: string } {
  switch (subject.kind) {
    case 'User':
      return { matched: subject.name === attrs.user, why: `subject User ${q(subject.name)} is ${subject.name === attrs.user ? '' : 'not '}the user` };
    case 'Group': {
      const member = attrs.groups.includes(subject.name);
      return { matched: member, why: `subject Group ${q(subject.name)} is ${member ? '' : 'not '}one of the user's groups` };
    }
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      const same = attrs.user === `system:serviceaccount:${namespace}:${subject.name}`;
      return { matched: same, why: `subject ServiceAccount ${q(`${namespace}/${subject.name}`)} is ${same ? '' : 'not '}the user` };
    }
    default:
      return { matched: false, why: `unknown subject kind ${q(subject.kind)}` };
  }
}

function roleOf(objects: RbacObjects, roleRef: { kind: string; name: string }, namespace: string): RoleLike | undefined {
  if (roleRef.kind === 'ClusterRole') return objects.clusterRoles.find((r) => r.metadata.name === roleRef.name);
  return objects.roles.find((r) => r.metadata.name === roleRef.name && r.metadata.namespace === namespace);
}

/** The bindings RBAC looks at for a request, in its order. */
function bindingsInOrder(objects: RbacObjects, namespace: string): Array<{ kind: 'ClusterRoleBinding' | 'RoleBinding'; binding: RoleBindingLike }> {
  return [
    ...objects.clusterRoleBindings.map((binding) => ({ kind: 'ClusterRoleBinding' as const, binding })),
    ...(namespace ? objects.roleBindings.filter((b) => b.metadata.namespace === namespace).map((binding) => ({ kind: 'RoleBinding' as const, binding })) : []),
  ];
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  return subject.kind === 'ServiceAccount' ? `${subject.kind} ${q(`${subject.name}/${subject.namespace || bindingNamespace}`)}` : `${subject.kind} ${q(subject.name)}`;
}

/** kube's "RBAC: allowed by …" text for the binding that allowed. */
function allowedBy(v: BindingVerdict): string {
  const binding = v.kind === 'ClusterRoleBinding' ? `ClusterRoleBinding ${q(v.name)}` : `RoleBinding ${q(`${v.name}/${v.namespace ?? ''}`)}`;
  return `RBAC: allowed by ${binding} of ${v.roleRef.kind} ${q(v.roleRef.name)} to ${describeSubject(v.subject, v.namespace ?? '')}`;
}

export function explainRbac(attrs: RequestAttributes, objects: RbacObjects): RbacExplanation {
  const namespace = attrs.resource?.namespace ?? '';
  const bindings: BindingVerdict[] = [];
  for (const { kind, binding } of bindingsInOrder(objects, namespace)) {
    const bindingNamespace = binding.metadata.namespace ?? '';
    let subject: Subject | undefined;
    let subjectWhy = '';
    for (const s of binding.subjects ?? []) {
      const m = subjectIsUser(s, bindingNamespace, attrs);
      if (m.matched) {
        subject = s;
        subjectWhy = m.why;
        break;
      }
    }
    if (!subject) continue;
    const role = roleOf(objects, binding.roleRef, bindingNamespace);
    const rules = (role?.rules ?? []).map((rule, index) => ({ index, rule, ...explainRule(rule, attrs) }));
    bindings.push({
      kind,
      name: binding.metadata.name,
      ...(kind === 'RoleBinding' ? { namespace: bindingNamespace } : {}),
      roleRef: { kind: binding.roleRef.kind, name: binding.roleRef.name },
      subject,
      subjectWhy,
      role: { kind: binding.roleRef.kind, name: binding.roleRef.name, ...(binding.roleRef.kind === 'Role' ? { namespace: bindingNamespace } : {}), found: Boolean(role), rules },
      allows: rules.some((r) => r.matched),
    });
  }
  const first = bindings.find((b) => b.allows);
  return { bindings, allowed: Boolean(first), reason: first ? allowedBy(first) : '' };
}

export interface WhoCanEntry {
  readonly subject: Subject;
  readonly via: { kind: 'ClusterRoleBinding' | 'RoleBinding'; name: string; namespace?: string; roleRef: { kind: string; name: string }; ruleIndex: number };
}

/**
 * Which subjects RBAC lets do `verb` on the resource: every subject of every
 * binding whose role has a rule granting it (a RoleBinding counts only in the
 * request's namespace). Privileged groups (system:masters) are not RBAC's and
 * are left to the caller.
 */
export function whoCan(attrs: Omit<RequestAttributes, 'user' | 'groups'>, objects: RbacObjects): WhoCanEntry[] {
  const namespace = attrs.resource?.namespace ?? '';
  const asked: RequestAttributes = { ...attrs, user: '', groups: [] };
  const out: WhoCanEntry[] = [];
  for (const { kind, binding } of bindingsInOrder(objects, namespace)) {
    const bindingNamespace = binding.metadata.namespace ?? '';
    const role = roleOf(objects, binding.roleRef, bindingNamespace);
    const ruleIndex = (role?.rules ?? []).findIndex((rule) => explainRule(rule, asked).matched);
    if (ruleIndex < 0) continue;
    for (const subject of binding.subjects ?? []) {
      out.push({
        subject: subject.kind === 'ServiceAccount' ? { ...subject, namespace: subject.namespace || bindingNamespace } : subject,
        via: { kind, name: binding.metadata.name, ...(kind === 'RoleBinding' ? { namespace: bindingNamespace } : {}), roleRef: { kind: binding.roleRef.kind, name: binding.roleRef.name }, ruleIndex },
      });
    }
  }
  return out;
}

/** kube-apiserver's 403 message for a request these attributes describe (responsewriters.Forbidden). */
export function forbiddenMessage(attrs: RequestAttributes, reason: string): string {
  const user = q(attrs.user);
  let cause: string;
  let prefix: string;
  const r = attrs.resource;
  if (!r) {
    cause = `User ${user} cannot ${attrs.verb} path ${q(attrs.path ?? '')}`;
    prefix = 'forbidden';
  } else {
    const resource = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
    const where = r.namespace ? `in the namespace ${q(r.namespace)}` : 'at the cluster scope';
    cause = `User ${user} cannot ${attrs.verb} resource ${q(resource)} in API group ${q(r.group)} ${where}`;
    const qualified = r.group ? `${r.resource}.${r.group}` : r.resource;
    prefix = r.name ? `${qualified} ${q(r.name)} is forbidden` : `${qualified} is forbidden`;
  }
  return `${prefix}: ${cause}${reason ? `: ${reason}` : ''}`;
}
