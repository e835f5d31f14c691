// A PolicyRule written as the bootstrap policy writes it. The upstream rule
// builder sorts verbs, groups, resources, names and URLs, so the objects a
// 1.32 server stores list them in sorted order; so do these.

import type { PolicyRule } from '../types';

const sorted = (values: readonly string[]): string[] => [...values].sort();

export const READ = ['get', 'list', 'watch'] as const;
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export const READ_WRITE = [...READ, ...WRITE] as const;
export const READ_UPDATE = ['get', 'list', 'watch', 'update', 'patch'] as const;

/** A resource rule: verbs on resources of API groups, optionally limited to names. */
export function rule(verbs: readonly string[], apiGroups: readonly string[], resources: readonly string[], resourceNames?: readonly string[]): PolicyRule {
  const r: PolicyRule = { apiGroups: sorted(apiGroups), resources: sorted(resources), verbs: sorted(verbs) };
  if (resourceNames?.length) r.resourceNames = sorted(resourceNames);
  return r;
}

/** A non-resource rule. */
export function urls(verbs: readonly string[], nonResourceURLs: readonly string[]): PolicyRule {
  return { nonResourceURLs: sorted(nonResourceURLs), verbs: sorted(verbs) };
}

/** create/update/patch on core and events.k8s.io events (upstream eventsRule). */
export function eventsRule(): PolicyRule {
  return rule(['create', 'update', 'patch'], ['', 'events.k8s.io'], ['events']);
}
