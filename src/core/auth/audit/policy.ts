// audit.k8s.io/v1 Policy (--audit-policy-file): which level each request is
// recorded at, and which stages are left out. Rules are tried in order and
// the first that matches decides; a request no rule matches is not recorded
// (level None). Matching follows kube-apiserver's policy checker
// (k8s.io/apiserver/pkg/audit/policy): users, userGroups and verbs narrow any
// rule; namespaces/resources make it a resource rule (never matching a
// non-resource request), nonResourceURLs a non-resource rule (a trailing `*`
// is a prefix). Resources: "pods" (the resource itself), "pods/log",
// "*" (anything in the group), "*/status" (that subresource of anything),
// "pods/*" (pods and all its subresources); resourceNames narrow to names.

import { parse as parseYaml } from 'yaml';
import type { RequestInfo } from '../types';
import type { AuditLevel, AuditStage } from './event';

export const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
export const AUDIT_STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: AuditLevel;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

export interface AuditPolicy {
  apiVersion: 'audit.k8s.io/v1';
  kind: 'Policy';
  rules: PolicyRule[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

/** What the policy says for one request. */
export interface AuditDecision {
  readonly level: AuditLevel;
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

const NONE: AuditDecision = Object.freeze({ level: 'None', omitStages: [], omitManagedFields: false });

function quoted(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function validateStages(stages: unknown, path: string, errs: string[]): void {
  if (stages === undefined) return;
  if (!Array.isArray(stages)) return void errs.push(`${path}: Invalid value: must be a list of stages`);
  stages.forEach((s, i) => {
    if (!AUDIT_STAGES.includes(s as AuditStage)) errs.push(`${path}[${i}]: Unsupported value: ${JSON.stringify(s)}: supported values: ${quoted(AUDIT_STAGES)}`);
  });
}

/** kube's policy validation; returns the field errors (empty: valid). */
export function validateAuditPolicy(policy: AuditPolicy): string[] {
  const errs: string[] = [];
  validateStages(policy.omitStages, 'omitStages', errs);
  (policy.rules ?? []).forEach((rule, i) => {
    const p = `rules[${i}]`;
    if (!AUDIT_LEVELS.includes(rule.level)) {
      errs.push(rule.level === undefined ? `${p}.level: Required value` : `${p}.level: Unsupported value: ${JSON.stringify(rule.level)}: supported values: ${quoted(AUDIT_LEVELS)}`);
    }
    validateStages(rule.omitStages, `${p}.omitStages`, errs);
    const hasResources = (rule.resources?.length ?? 0) > 0 || (rule.namespaces?.length ?? 0) > 0;
    if (rule.nonResourceURLs?.length && hasResources) {
      errs.push(`${p}.nonResourceURLs: Invalid value: ${JSON.stringify(rule.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
    }
    (rule.nonResourceURLs ?? []).forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/')) errs.push(`${p}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(url)}: non-resource URL rules must begin with a '/' character`);
      else if (url.slice(0, -1).includes('*')) errs.push(`${p}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(url)}: non-resource URL wildcards '*' must be the final character of the rule`);
    });
    (rule.resources ?? []).forEach((gr, j) => {
      if (gr.group?.includes('/')) errs.push(`${p}.resources[${j}].group: Invalid value: ${JSON.stringify(gr.group)}: group name must not contain '/'`);
      if (gr.resourceNames?.length && !gr.resources?.length) {
        errs.push(`${p}.resources[${j}].resourceNames: Invalid value: ${JSON.stringify(gr.resourceNames)}: using resourceNames requires at least one resource`);
      }
    });
  });
  return errs;
}

/** Decodes and validates a policy file; throws with kube's start-up text. */
export function parseAuditPolicy(text: string, path: string): AuditPolicy {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new Error(`loading audit policy file: failed decoding file "${path}": ${err instanceof Error ? err.message : String(err)}`);
  }
  const policy = doc as AuditPolicy | null;
  if (!policy || typeof policy !== 'object' || policy.kind !== 'Policy' || !/^audit\.k8s\.io\/v1(beta1|alpha1)?$/.test(String(policy.apiVersion))) {
    throw new Error(`loading audit policy file: failed decoding file "${path}": expected kind Policy of audit.k8s.io/v1`);
  }
  policy.rules ??= [];
  const errs = validateAuditPolicy(policy);
  if (errs.length) throw new Error(`loading audit policy file: invalid audit policy file "${path}": ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
  if (policy.rules.length === 0) throw new Error(`loading audit policy file: loaded illegal policy with 0 rules from file "${path}"`);
  return policy;
}

/** What the policy checker needs of a request. */
export interface AuditAttributes {
  readonly user?: { readonly username: string; readonly groups: readonly string[] };
  readonly info: RequestInfo;
}

function pathMatches(rules: readonly string[], path: string): boolean {
  return rules.some((r) => r === '*' || r === path || (r.endsWith('*') && path.startsWith(r.slice(0, -1))));
}

function resourceMatches(rule: PolicyRule, info: RequestInfo): boolean {
  if (!info.isResourceRequest) return false;
  if (rule.namespaces?.length && !rule.namespaces.includes(info.namespace ?? '')) return false;
  if (!rule.resources?.length) return true;
  const group = info.apiGroup ?? '';
  const resource = info.resource ?? '';
  const sub = info.subresource ?? '';
  const combined = sub ? `${resource}/${sub}` : resource;
  for (const gr of rule.resources) {
    if ((gr.group ?? '') !== group) continue;
    if (!gr.resources?.length) return true;
    for (const r of gr.resources) {
      if (gr.resourceNames?.length && !gr.resourceNames.includes(info.name ?? '')) continue;
      if (r === combined || r === '*') return true;
      if (sub && r.startsWith('*/') && r.slice(2) === sub) return true;
      if (r.endsWith('/*') && r.slice(0, -2) === resource) return true;
    }
  }
  return false;
}

function ruleMatches(rule: PolicyRule, attrs: AuditAttributes): boolean {
  const user = attrs.user;
  if (rule.users?.length && !(user && rule.users.includes(user.username))) return false;
  if (rule.userGroups?.length && !(user && user.groups.some((g) => rule.userGroups!.includes(g)))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(attrs.info.verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return resourceMatches(rule, attrs.info);
  if (rule.nonResourceURLs?.length) return !attrs.info.isResourceRequest && pathMatches(rule.nonResourceURLs, attrs.info.path);
  return true;
}

/** The level (and omitted stages, omitManagedFields) the first matching rule gives; None when none matches. */
export function auditDecision(policy: AuditPolicy, attrs: AuditAttributes): AuditDecision {
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, attrs)) continue;
    return {
      level: rule.level,
      omitStages: [...new Set([...(policy.omitStages ?? []), ...(rule.omitStages ?? [])])],
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
    };
  }
  return NONE;
}
