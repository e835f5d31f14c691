// Which requests a rule set selects, as kube's webhook and policy matchers
// decide it (k8s.io/apiserver admission/plugin/webhook/predicates): rules of
// operations × apiGroups × apiVersions × resources(/subresources) × scope,
// the namespace selector (ignored for cluster-scoped objects other than
// namespaces) and the object selector (old or new object's labels). Shared by
// ValidatingAdmissionPolicy and the admission webhooks.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../selectors/label-selector-object';
import type { AdmissionAttributes, AdmissionContext } from '../types';

type Obj = Record<string, unknown>;

export interface RuleWithOperations {
  readonly operations?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly apiVersions?: readonly string[];
  readonly resources?: readonly string[];
  readonly scope?: string;
  /** Policies only (NamedRuleWithOperations). */
  readonly resourceNames?: readonly string[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function anyOf(list: readonly string[] | undefined, value: string): boolean {
  const l = list ?? [];
  return l.includes('*') || l.includes(value);
}

function resourceMatches(patterns: readonly string[], resource: string, subresource: string): boolean {
  for (const p of patterns) {
    if (p === '*/*') return true;
    const [res, sub = ''] = p.split('/', 2) as [string, string?];
    if (p === '*' && subresource === '') return true;
    if (res === '*' && sub === subresource) return true;
    if (res === resource && (sub === subresource || (sub === '*' && subresource !== ''))) return true;
  }
  return false;
}

function scopeMatches(scope: string | undefined, attrs: AdmissionAttributes): boolean {
  const isNamespaceObject = attrs.resource.group === '' && attrs.resource.resource === 'namespaces';
  switch (scope ?? '*') {
    case 'Cluster':
      return isNamespaceObject || attrs.namespace === '';
    case 'Namespaced':
      return !isNamespaceObject && attrs.namespace !== '';
    default:
      return true;
  }
}

/** One rule against the request; `ignoreVersion` is matchPolicy Equivalent for a resource served in one version here. */
export function ruleMatches(rule: RuleWithOperations, attrs: AdmissionAttributes, ignoreVersion = false): boolean {
  if (!anyOf(rule.operations, attrs.operation)) return false;
  if (!anyOf(rule.apiGroups, attrs.resource.group)) return false;
  if (!ignoreVersion && !anyOf(rule.apiVersions, attrs.resource.version)) return false;
  if (!resourceMatches(rule.resources ?? [], attrs.resource.resource, attrs.subresource)) return false;
  if (!scopeMatches(rule.scope, attrs)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(attrs.name);
}

export function rulesMatch(rules: unknown, attrs: AdmissionAttributes, matchPolicy: unknown): boolean {
  const list = Array.isArray(rules) ? (rules as RuleWithOperations[]) : [];
  if (list.some((r) => ruleMatches(normalizeRule(r), attrs))) return true;
  return matchPolicy !== 'Exact' && list.some((r) => ruleMatches(normalizeRule(r), attrs, true));
}

function normalizeRule(r: unknown): RuleWithOperations {
  const o = (r ?? {}) as Obj;
  return {
    operations: strings(o.operations),
    apiGroups: strings(o.apiGroups),
    apiVersions: strings(o.apiVersions),
    resources: strings(o.resources),
    ...(typeof o.scope === 'string' ? { scope: o.scope } : {}),
    resourceNames: strings(o.resourceNames),
  };
}

function labels(o: KubeObject | undefined): Record<string, string> {
  return (o?.metadata?.labels as Record<string, string> | undefined) ?? {};
}

function isEmptySelector(selector: unknown): boolean {
  if (!selector || typeof selector !== 'object') return true;
  const s = selector as LabelSelectorObject;
  return Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;
}

/** The labels of the request's namespace (the object's own for a namespace), undefined for other cluster-scoped objects. */
export async function namespaceLabels(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<Record<string, string> | undefined> {
  if (attrs.resource.group === '' && attrs.resource.resource === 'namespaces') return labels(attrs.object ?? attrs.oldObject);
  if (attrs.namespace === '') return undefined;
  const ns = await ctx.reader.get({ group: '', resource: 'namespaces' }, '', attrs.namespace);
  if (!ns) throw errors.notFound({ group: '', resource: 'namespaces' }, attrs.namespace);
  return labels(ns);
}

export async function namespaceSelectorMatches(selector: unknown, attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<boolean> {
  const isNamespaceObject = attrs.resource.group === '' && attrs.resource.resource === 'namespaces';
  if (attrs.namespace === '' && !isNamespaceObject) return true;
  if (isEmptySelector(selector)) return true;
  const nsLabels = await namespaceLabels(attrs, ctx);
  return labelSelectorAsSelector(selector as LabelSelectorObject).matches(nsLabels ?? {});
}

export function objectSelectorMatches(selector: unknown, attrs: AdmissionAttributes): boolean {
  if (isEmptySelector(selector)) return true;
  const s = labelSelectorAsSelector(selector as LabelSelectorObject);
  return (!!attrs.object && s.matches(labels(attrs.object))) || (!!attrs.oldObject && s.matches(labels(attrs.oldObject)));
}

/** Requests for the admission configuration objects themselves are never sent to webhooks or policies (kube's exemption). */
export function isExemptAdmissionConfigurationResource(attrs: AdmissionAttributes): boolean {
  if (attrs.resource.group !== 'admissionregistration.k8s.io') return false;
  return [
    'validatingwebhookconfigurations',
    'mutatingwebhookconfigurations',
    'validatingadmissionpolicies',
    'validatingadmissionpolicybindings',
    'mutatingadmissionpolicies',
    'mutatingadmissionpolicybindings',
  ].includes(attrs.resource.resource);
}

/** matchResources / matchConstraints of a policy or binding (kube's matching.Matcher). */
export async function matchResourcesMatch(mr: unknown, attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<boolean> {
  const m = (mr ?? {}) as Obj;
  if (!(await namespaceSelectorMatches(m.namespaceSelector, attrs, ctx))) return false;
  if (!objectSelectorMatches(m.objectSelector, attrs)) return false;
  const exclude = Array.isArray(m.excludeResourceRules) ? m.excludeResourceRules : [];
  if (exclude.length && rulesMatch(exclude, attrs, m.matchPolicy)) return false;
  const include = Array.isArray(m.resourceRules) ? m.resourceRules : [];
  // No resourceRules: every resource (a binding then covers all its policy matches).
  return include.length === 0 || rulesMatch(include, attrs, m.matchPolicy);
}
