// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac): visits the rules of
// every binding whose subjects include the user — cluster role bindings first,
// then the role bindings of the request's namespace — and allows on the first
// rule that matches. It never denies: with no match it has no opinion, and its
// reason lists the role lookups that failed ("RBAC: clusterrole… not found").
//
// Speed: bindings are indexed by subject key (user name, group name, service
// account user name), so a request only visits the bindings that can apply.
// The index is rebuilt when the source returns a different array.

import { describeRbacBinding, rbacReasonFromErrors, roleLookupError, type LookupErrorStyle } from './rbac-describe';
import { explainRule, ruleAllows } from './rule-match';
import type {
  Attributes,
  AuthorizeOptions,
  SyncAuthorizer,
  BindingTrace,
  ClusterRoleBinding,
  NonResourceRule,
  PolicyRule,
  RbacSource,
  ResourceRule,
  RoleBinding,
  RoleRef,
  RoleTrace,
  RulesResult,
  Subject,
  TraceStep,
  UserInfo,
} from '../types';

type AnyBinding = ClusterRoleBinding | RoleBinding;

/** Subject keys: "u:<username>" or "g:<group>". */
function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
      return `u:${subject.name}`;
    case 'Group':
      return `g:${subject.name}`;
    case 'ServiceAccount': {
      // An unqualified service account in a RoleBinding means the binding's namespace.
      const ns = subject.namespace || bindingNamespace;
      if (!ns) return undefined;
      return `u:system:serviceaccount:${ns}:${subject.name}`;
    }
    default:
      return undefined;
  }
}

interface SubjectIndex {
  readonly byKey: Map<string, number[]>;
}

function buildIndex(bindings: readonly AnyBinding[], namespaced: boolean): SubjectIndex {
  const byKey = new Map<string, number[]>();
  bindings.forEach((binding, position) => {
    const ns = namespaced ? (binding.metadata.namespace ?? '') : '';
    for (const subject of binding.subjects ?? []) {
      const key = subjectKey(subject, ns);
      if (key === undefined) continue;
      let positions = byKey.get(key);
      if (!positions) byKey.set(key, (positions = []));
      if (positions[positions.length - 1] !== position) positions.push(position);
    }
  });
  return { byKey };
}

/** The first subject of a binding that is the user (rbac appliesTo), or undefined. */
export function matchingSubject(user: UserInfo, subjects: readonly Subject[] | undefined, bindingNamespace: string): Subject | undefined {
  for (const subject of subjects ?? []) {
    switch (subject.kind) {
      case 'User':
        if (subject.name === user.username) return subject;
        break;
      case 'Group':
        if (user.groups.includes(subject.name)) return subject;
        break;
      case 'ServiceAccount': {
        const ns = subject.namespace || bindingNamespace;
        if (ns && user.username === `system:serviceaccount:${ns}:${subject.name}`) return subject;
        break;
      }
    }
  }
  return undefined;
}

function whySubject(user: UserInfo, subject: Subject | undefined, bindingNamespace: string): string {
  if (!subject) return `no subject is user "${user.username}" or one of its groups [${user.groups.join(' ')}]`;
  switch (subject.kind) {
    case 'User':
      return `subject User "${subject.name}" is the user`;
    case 'Group':
      return `subject Group "${subject.name}" is one of the user's groups`;
    default:
      return `subject ServiceAccount "${subject.namespace || bindingNamespace}/${subject.name}" is the user`;
  }
}

export interface RbacAuthorizer extends SyncAuthorizer {
  /** rbac RulesFor: every rule granted to the user in a namespace ('' for cluster scope), with lookup errors. */
  rulesFor(user: UserInfo, namespace: string): RulesResult;
  /** The policy rules themselves (ConfirmNoEscalation needs them, not the review shape). */
  policyRulesFor(user: UserInfo, namespace: string, style?: LookupErrorStyle): { rules: PolicyRule[]; errors: string[] };
  /** The rules a roleRef points at, as seen from a binding in `namespace` (GetRoleReferenceRules). */
  roleReferenceRules(roleRef: RoleRef, namespace: string, style?: LookupErrorStyle): { rules: PolicyRule[]; error?: string };
}

export function createRbacAuthorizer(source: RbacSource, options: { name?: string } = {}): RbacAuthorizer {
  const indexes = new WeakMap<readonly AnyBinding[], SubjectIndex>();

  function indexFor(bindings: readonly AnyBinding[], namespaced: boolean): SubjectIndex {
    let index = indexes.get(bindings);
    if (!index) {
      index = buildIndex(bindings, namespaced);
      indexes.set(bindings, index);
    }
    return index;
  }

  /** Positions of the bindings whose subjects can be this user, in list order. */
  function candidates(index: SubjectIndex, user: UserInfo): number[] {
    const lists: number[][] = [];
    const own = index.byKey.get(`u:${user.username}`);
    if (own) lists.push(own);
    for (const group of user.groups) {
      const positions = index.byKey.get(`g:${group}`);
      if (positions) lists.push(positions);
    }
    if (lists.length === 0) return [];
    if (lists.length === 1) return lists[0]!;
    const merged = new Set<number>();
    for (const l of lists) for (const p of l) merged.add(p);
    return [...merged].sort((a, b) => a - b);
  }

  function roleReferenceRules(
    roleRef: RoleRef,
    namespace: string,
    style: LookupErrorStyle = 'lister',
  ): { rules: PolicyRule[]; error?: string; found: boolean } {
    if (roleRef.kind === 'Role') {
      const role = namespace ? source.getRole(namespace, roleRef.name) : undefined;
      if (!role) return { rules: [], error: roleLookupError('Role', roleRef.name, style), found: false };
      return { rules: role.rules ?? [], found: true };
    }
    if (roleRef.kind === 'ClusterRole') {
      const role = source.getClusterRole(roleRef.name);
      if (!role) return { rules: [], error: roleLookupError('ClusterRole', roleRef.name, style), found: false };
      return { rules: role.rules ?? [], found: true };
    }
    return { rules: [], error: `unsupported role reference kind: ${JSON.stringify(roleRef.kind)}`, found: false };
  }

  /**
   * Visits the applicable bindings in kube's order. `visit` returns false to
   * stop. In 'full' mode bindings that do not apply are reported too.
   */
  function visitBindings(
    user: UserInfo,
    namespace: string,
    mode: 'fast' | 'full',
    visit: (binding: AnyBinding, kind: 'ClusterRoleBinding' | 'RoleBinding', subject: Subject | undefined) => boolean,
  ): { skipped: number } {
    let skipped = 0;
    const scopes: { kind: 'ClusterRoleBinding' | 'RoleBinding'; bindings: readonly AnyBinding[]; ns: string }[] = [
      { kind: 'ClusterRoleBinding', bindings: source.listClusterRoleBindings(), ns: '' },
    ];
    if (namespace) scopes.push({ kind: 'RoleBinding', bindings: source.listRoleBindings(namespace), ns: namespace });
    for (const scope of scopes) {
      if (mode === 'full') {
        for (const binding of scope.bindings) {
          const subject = matchingSubject(user, binding.subjects, scope.ns);
          if (!visit(binding, scope.kind, subject)) return { skipped };
        }
        continue;
      }
      const index = indexFor(scope.bindings, scope.kind === 'RoleBinding');
      const positions = candidates(index, user);
      skipped += scope.bindings.length - positions.length;
      for (const p of positions) {
        const binding = scope.bindings[p]!;
        // The index narrows; appliesTo still decides (and picks the first subject, as kube reports it).
        const subject = matchingSubject(user, binding.subjects, scope.ns);
        if (!subject) continue;
        if (!visit(binding, scope.kind, subject)) return { skipped };
      }
    }
    return { skipped };
  }

  function authorize(attrs: Attributes, opts: AuthorizeOptions = {}): TraceStep {
    const mode = opts.trace ?? 'matched';
    const errors: string[] = [];
    const bindings: BindingTrace[] | undefined = mode === 'off' ? undefined : [];
    let allowedBy: string | undefined;
    const namespace = attrs.namespace;

    const { skipped } = visitBindings(attrs.user, namespace, mode === 'full' ? 'full' : 'fast', (binding, kind, subject) => {
      const bindingNs = kind === 'RoleBinding' ? (binding.metadata.namespace ?? '') : '';
      if (!subject) {
        bindings?.push({
          kind,
          name: binding.metadata.name,
          ...(bindingNs ? { namespace: bindingNs } : {}),
          roleRef: binding.roleRef,
          subjectMatched: false,
          why: whySubject(attrs.user, undefined, bindingNs),
        });
        return true;
      }
      const ref = roleReferenceRules(binding.roleRef, bindingNs);
      let trace: BindingTrace | undefined;
      let roleTrace: RoleTrace | undefined;
      if (bindings) {
        roleTrace = {
          kind: binding.roleRef.kind === 'Role' ? 'Role' : 'ClusterRole',
          name: binding.roleRef.name,
          ...(binding.roleRef.kind === 'Role' ? { namespace: bindingNs } : {}),
          found: ref.found,
          ...(ref.error ? { error: ref.error } : {}),
          rules: [],
        };
        trace = {
          kind,
          name: binding.metadata.name,
          ...(bindingNs ? { namespace: bindingNs } : {}),
          roleRef: binding.roleRef,
          subjectMatched: true,
          subject,
          why: whySubject(attrs.user, subject, bindingNs),
          role: roleTrace,
        };
        bindings.push(trace);
      }
      if (ref.error) {
        errors.push(ref.error);
        return true;
      }
      for (let i = 0; i < ref.rules.length; i++) {
        const rule = ref.rules[i]!;
        const allowed = ruleAllows(attrs, rule);
        roleTrace?.rules.push({ index: i, rule, matched: allowed, why: allowed ? 'matches' : explainRule(attrs, rule) });
        if (allowed) {
          allowedBy = describeRbacBinding(kind, binding, subject);
          return false;
        }
      }
      return true;
    });

    const base = { authorizer: 'RBAC', ...(options.name ? { name: options.name } : {}) };
    const extra = bindings ? { bindings, ...(mode === 'matched' ? { skippedBindings: skipped } : {}) } : {};
    if (allowedBy) return { ...base, decision: 'Allow', reason: `RBAC: allowed by ${allowedBy}`, ...extra };
    return { ...base, decision: 'NoOpinion', reason: rbacReasonFromErrors(errors), ...extra };
  }

  function policyRulesFor(user: UserInfo, namespace: string, style: LookupErrorStyle = 'lister'): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    visitBindings(user, namespace, 'fast', (binding, kind) => {
      const ref = roleReferenceRules(binding.roleRef, kind === 'RoleBinding' ? (binding.metadata.namespace ?? '') : '', style);
      if (ref.error) errors.push(ref.error);
      else rules.push(...ref.rules);
      return true;
    });
    return { rules, errors };
  }

  function rulesFor(user: UserInfo, namespace: string): RulesResult {
    const { rules, errors } = policyRulesFor(user, namespace);
    const resourceRules: ResourceRule[] = [];
    const nonResourceRules: NonResourceRule[] = [];
    for (const rule of rules) {
      if (rule.resources?.length) {
        const r: ResourceRule = { verbs: [...rule.verbs] };
        if (rule.apiGroups) r.apiGroups = [...rule.apiGroups];
        r.resources = [...rule.resources];
        if (rule.resourceNames?.length) r.resourceNames = [...rule.resourceNames];
        resourceRules.push(r);
      }
      if (rule.nonResourceURLs?.length) nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs] });
    }
    const result: RulesResult = { resourceRules, nonResourceRules, incomplete: false };
    return errors.length ? { ...result, evaluationError: aggregate(errors) } : result;
  }

  return {
    type: 'RBAC',
    ...(options.name ? { name: options.name } : {}),
    authorize,
    rulesFor,
    policyRulesFor,
    roleReferenceRules: (roleRef, namespace, style) => {
      const r = roleReferenceRules(roleRef, namespace, style);
      return r.error ? { rules: r.rules, error: r.error } : { rules: r.rules };
    },
  };
}

/** utilerrors.NewAggregate's message: one error as is, several in brackets. */
export function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
}
