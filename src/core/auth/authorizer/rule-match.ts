// Whether one RBAC PolicyRule grants a request (rbac.RuleAllows), and, for the
// decision trace, which part of the rule did not match.
//
// - verbs and apiGroups: exact or "*";
// - resources: "*", the exact "resource" or "resource/subresource", or
//   "*/subresource" for any resource's subresource;
// - resourceNames: empty means any name, else one must equal the request's name;
// - nonResourceURLs: "*", exact, or a prefix ending in "*".

import type { Attributes, PolicyRule } from '../types';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  for (const v of rule.verbs) if (v === '*' || v === verb) return true;
  return false;
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  const groups = rule.apiGroups;
  if (!groups) return false;
  for (const g of groups) if (g === '*' || g === group) return true;
  return false;
}

export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  const resources = rule.resources;
  if (!resources) return false;
  for (const r of resources) {
    if (r === '*' || r === combinedResource) return true;
    if (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames;
  if (!names || names.length === 0) return true;
  for (const n of names) if (n === name) return true;
  return false;
}

/** Trailing "*" stars are all trimmed, as strings.TrimRight(url, "*") does. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  const urls = rule.nonResourceURLs;
  if (!urls) return false;
  for (const u of urls) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (attrs.resourceRequest) {
    const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    return (
      verbMatches(rule, attrs.verb) &&
      apiGroupMatches(rule, attrs.apiGroup) &&
      resourceMatches(rule, combined, attrs.subresource) &&
      resourceNameMatches(rule, attrs.name)
    );
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}

export function rulesAllow(attrs: Attributes, rules: readonly PolicyRule[]): boolean {
  for (const rule of rules) if (ruleAllows(attrs, rule)) return true;
  return false;
}

const list = (values: readonly string[] | undefined): string => `[${(values ?? []).join(' ')}]`;

/** A sentence saying why the rule matches the request or which part does not. */
export function explainRule(attrs: Attributes, rule: PolicyRule): string {
  if (!verbMatches(rule, attrs.verb)) return `verb "${attrs.verb}" is not in verbs ${list(rule.verbs)}`;
  if (attrs.resourceRequest) {
    if (!rule.resources?.length && rule.nonResourceURLs?.length) return 'the rule is for non-resource URLs; this is a resource request';
    if (!apiGroupMatches(rule, attrs.apiGroup)) return `API group "${attrs.apiGroup}" is not in apiGroups ${list(rule.apiGroups)}`;
    const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    if (!resourceMatches(rule, combined, attrs.subresource)) return `resource "${combined}" is not in resources ${list(rule.resources)}`;
    if (!resourceNameMatches(rule, attrs.name)) {
      return attrs.name === ''
        ? `the rule is limited to resourceNames ${list(rule.resourceNames)} and the request names no object`
        : `name "${attrs.name}" is not in resourceNames ${list(rule.resourceNames)}`;
    }
    return 'matches';
  }
  if (!rule.nonResourceURLs?.length) return 'the rule is for resources; this is a non-resource request';
  if (!nonResourceURLMatches(rule, attrs.path)) return `path "${attrs.path}" is not matched by nonResourceURLs ${list(rule.nonResourceURLs)}`;
  return 'matches';
}
