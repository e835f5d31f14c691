// Helpers for the server-side Tables (kubectl get): the shared Name and Age
// columns, the default "Name / Created At" table that kinds without their own
// printer get, and small cell formatters used by many printers.

import type { KubeObject, TableColumn, TableDefinition } from '../../types';
import { compareGoStrings } from '../../../util/go/strings';
import { ageSince } from './human-duration';

// Our own short texts: kube's printers reuse the API field docs, which are
// upstream prose and stay out of the project (clients do not show them).
const NAME_DESCRIPTION = 'Name of the object';
const CREATED_DESCRIPTION = 'When the object was created';

export const NAME_COLUMN: TableColumn = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 };
export const AGE_COLUMN: TableColumn = { name: 'Age', type: 'string', description: CREATED_DESCRIPTION, priority: 0 };

/** A column of the default view (priority 0). */
export function col(name: string, type: TableColumn['type'] = 'string', description?: string): TableColumn {
  return description ? { name, type, description, priority: 0 } : { name, type, priority: 0 };
}
/** A column shown only with -o wide (priority 1). */
export function wide(name: string, type: TableColumn['type'] = 'string', description?: string): TableColumn {
  return description ? { name, type, description, priority: 1 } : { name, type, priority: 1 };
}

export function nameOf(obj: KubeObject): string {
  return obj.metadata?.name ?? '';
}

export function age(obj: KubeObject, now: number): string {
  return ageSince(obj.metadata?.creationTimestamp, now);
}

/** The DefaultTableConvertor of k8s.io/apiserver: Name and Created At (a date cell, RFC 3339). */
export const DEFAULT_TABLE: TableDefinition = {
  columns: [NAME_COLUMN, { name: 'Created At', type: 'date', description: CREATED_DESCRIPTION, priority: 0 }],
  cells: (obj) => [nameOf(obj), obj.metadata?.creationTimestamp ?? '0001-01-01T00:00:00Z'],
};

/** Builds a table whose first column is Name; `rest` gives the remaining cells. */
export function table(columns: readonly TableColumn[], rest: (obj: KubeObject, now: number) => unknown[]): TableDefinition {
  return { columns: [NAME_COLUMN, ...columns], cells: (obj, now) => [nameOf(obj), ...rest(obj, now)] };
}

/**
 * The addresses of a load-balancer status (Service or Ingress) as the printers
 * join them: an entry's IP, else its hostname, collected in a sets.String, so
 * sorted in Go's order and without duplicates. The server builds the wide
 * form, so the list is never shortened.
 */
export function loadBalancerIngress(status: unknown): string {
  const seen = new Set<string>();
  for (const i of arr(rec(rec(status).loadBalancer).ingress).map(rec)) {
    const address = str(i.ip) || str(i.hostname);
    if (address) seen.add(address);
  }
  return [...seen].sort(compareGoStrings).join(',');
}

/** `<none>` for an empty string (a frequent printer placeholder). */
export function orNone(value: string | undefined | null): string {
  return value ? value : '<none>';
}

/** labels.FormatLabels: "k=v,k2=v2" sorted by key, `<none>` when empty. */
export function formatLabels(labels: Record<string, string> | undefined | null): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (!keys.length) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/**
 * metav1.FormatLabelSelector: the selector as a string, `<none>` for an empty
 * one and `<error>` for one that cannot be converted.
 */
export function formatLabelSelector(selector: LabelSelector | undefined | null): string {
  if (!selector) return '<none>';
  const parts = labelSelectorRequirements(selector);
  if (parts === undefined) return '<error>';
  const s = parts.join(',');
  return s.length === 0 ? '<none>' : s;
}

/** The selector string (LabelSelectorAsSelector(...).String()); '' for "everything", undefined when invalid. */
export function labelSelectorString(selector: LabelSelector | undefined | null): string | undefined {
  if (!selector) return '';
  return labelSelectorRequirements(selector)?.join(',');
}

function labelSelectorRequirements(selector: LabelSelector): string[] | undefined {
  const reqs: { key: string; text: string }[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) reqs.push({ key, text: `${key}=${value}` });
  for (const expr of selector.matchExpressions ?? []) {
    const values = [...(expr.values ?? [])].sort();
    switch (expr.operator) {
      case 'In':
        reqs.push({ key: expr.key, text: `${expr.key} in (${values.join(',')})` });
        break;
      case 'NotIn':
        reqs.push({ key: expr.key, text: `${expr.key} notin (${values.join(',')})` });
        break;
      case 'Exists':
        reqs.push({ key: expr.key, text: expr.key });
        break;
      case 'DoesNotExist':
        reqs.push({ key: expr.key, text: `!${expr.key}` });
        break;
      default:
        return undefined;
    }
  }
  // labels.Selector sorts its requirements by key.
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => r.text);
}

export function get(obj: unknown, ...path: (string | number)[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

export function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function arr<T = unknown>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

export function rec(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
