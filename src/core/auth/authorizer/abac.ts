// The ABAC authorizer (--authorization-policy-file): one JSON Policy per line.
// A line allows a request when its subject (user/group) matches, its readonly
// flag permits the verb, and either its resource attributes (namespace,
// resource, apiGroup, each "*" or exact) or its nonResourcePath ("*", exact,
// or a prefix ending in "*") match. Nothing matched: no opinion, reason
// "No policy matched.". Unversioned (v0) lines are converted as kube does.

import { GROUP, isReadOnly, type Attributes, type SyncAuthorizer, type TraceStep, type UserInfo } from '../types';

export interface AbacPolicySpec {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

export interface AbacPolicy {
  /** 1-based line in the file, for the trace. */
  line: number;
  spec: AbacPolicySpec;
}

const SPEC_FIELDS = ['user', 'group', 'readonly', 'apiGroup', 'resource', 'namespace', 'nonResourcePath'] as const;
const V0_FIELDS = ['user', 'group', 'readonly', 'resource', 'namespace'] as const;

function str(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new Error(`${field}: expected string, got ${typeof value}`);
  return value;
}

function fromV1beta1(spec: Record<string, unknown>): AbacPolicySpec {
  for (const key of Object.keys(spec)) {
    if (!(SPEC_FIELDS as readonly string[]).includes(key)) throw new Error(`unknown field "spec.${key}"`);
  }
  const out: AbacPolicySpec = {
    user: str(spec.user, 'user'),
    group: str(spec.group, 'group'),
    readonly: spec.readonly === true,
    apiGroup: str(spec.apiGroup, 'apiGroup'),
    resource: str(spec.resource, 'resource'),
    namespace: str(spec.namespace, 'namespace'),
    nonResourcePath: str(spec.nonResourcePath, 'nonResourcePath'),
  };
  // In v1beta1 a "*" user or group means every authenticated subject.
  if (out.user === '*' || out.group === '*') {
    out.group = GROUP.authenticated;
    out.user = '';
  }
  return out;
}

function fromV0(obj: Record<string, unknown>): AbacPolicySpec {
  for (const key of Object.keys(obj)) {
    if (!(V0_FIELDS as readonly string[]).includes(key)) throw new Error(`unknown field "${key}"`);
  }
  const user = str(obj.user, 'user');
  const group = str(obj.group, 'group');
  const namespace = str(obj.namespace, 'namespace');
  const resource = str(obj.resource, 'resource');
  const out: AbacPolicySpec = { user, group, readonly: obj.readonly === true, apiGroup: '*', resource, namespace, nonResourcePath: '' };
  // v0: no user and no group, or a "*" one, means every authenticated subject;
  // an empty namespace/resource matches all, and both empty allow non-resource paths.
  if (!user && !group) out.group = GROUP.authenticated;
  if (user === '*' || group === '*') {
    out.group = GROUP.authenticated;
    out.user = '';
  }
  if (!namespace) out.namespace = '*';
  if (!resource) out.resource = '*';
  if (!namespace && !resource) out.nonResourcePath = '*';
  return out;
}

/** Parses a policy file; throws kube's "error reading policy file …, line N: …" on a bad line. */
export function parseAbacPolicyFile(text: string, path = 'policy.jsonl'): AbacPolicy[] {
  const policies: AbacPolicy[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const line = i + 1;
    try {
      const obj = JSON.parse(raw) as Record<string, unknown>;
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error('expected a JSON object');
      if (obj.apiVersion === undefined && obj.kind === undefined) {
        policies.push({ line, spec: fromV0(obj) });
        return;
      }
      if (obj.apiVersion !== 'abac.authorization.kubernetes.io/v1beta1' || obj.kind !== 'Policy') {
        throw new Error(`no kind "${String(obj.kind)}" is registered for version "${String(obj.apiVersion)}"`);
      }
      policies.push({ line, spec: fromV1beta1((obj.spec ?? {}) as Record<string, unknown>) });
    } catch (err) {
      throw new Error(`error reading policy file ${path}, line ${line}: ${raw}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  return policies;
}

function subjectMatches(spec: AbacPolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (spec.user) {
    if (spec.user === '*') matched = true;
    else {
      matched = spec.user === user.username;
      if (!matched) return false;
    }
  }
  if (spec.group) {
    if (spec.group === '*') matched = true;
    else {
      matched = user.groups.includes(spec.group);
      if (!matched) return false;
    }
  }
  return matched;
}

function resourceMatches(spec: AbacPolicySpec, attrs: Attributes): boolean {
  if (!attrs.resourceRequest) return false;
  return (
    (spec.namespace === '*' || spec.namespace === attrs.namespace) &&
    (spec.resource === '*' || spec.resource === attrs.resource) &&
    (spec.apiGroup === '*' || spec.apiGroup === attrs.apiGroup)
  );
}

function nonResourceMatches(spec: AbacPolicySpec, attrs: Attributes): boolean {
  if (attrs.resourceRequest) return false;
  const p = spec.nonResourcePath;
  if (p === '*' || p === attrs.path) return true;
  return p.endsWith('*') && attrs.path.startsWith(p.replace(/\*+$/, ''));
}

export function abacPolicyMatches(spec: AbacPolicySpec, attrs: Attributes): boolean {
  if (!subjectMatches(spec, attrs.user)) return false;
  // Every policy allows read-only verbs; "readonly" policies allow nothing else.
  if (!isReadOnly(attrs) && spec.readonly) return false;
  return resourceMatches(spec, attrs) || nonResourceMatches(spec, attrs);
}

export function createAbacAuthorizer(policies: readonly AbacPolicy[], name?: string): SyncAuthorizer {
  return {
    type: 'ABAC',
    ...(name ? { name } : {}),
    authorize(attrs): TraceStep {
      for (const policy of policies) {
        if (abacPolicyMatches(policy.spec, attrs)) {
          return { authorizer: 'ABAC', ...(name ? { name } : {}), decision: 'Allow', reason: '', notes: [`policy on line ${policy.line} matched`] };
        }
      }
      return { authorizer: 'ABAC', ...(name ? { name } : {}), decision: 'NoOpinion', reason: 'No policy matched.', notes: [`${policies.length} policies, none matched`] };
    },
    rulesFor(user) {
      // abac RulesFor: the policies whose subject matches, as rules.
      const resourceRules = [];
      const nonResourceRules = [];
      for (const { spec } of policies) {
        if (!subjectMatches(spec, user)) continue;
        const verbs = spec.readonly ? ['get', 'list', 'watch'] : ['*'];
        if (spec.resource) resourceRules.push({ verbs, apiGroups: [spec.apiGroup], resources: [spec.resource] });
        if (spec.nonResourcePath) nonResourceRules.push({ verbs, nonResourceURLs: [spec.nonResourcePath] });
      }
      return { resourceRules, nonResourceRules, incomplete: false };
    },
  };
}
