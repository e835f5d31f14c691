// Small readers over the JSON objects the workload controllers handle
// (Deployments, ReplicaSets, ReplicationControllers, Pods): records and
// arrays that tolerate missing fields, work-queue keys, and the deep copy a
// controller takes before changing an object it read from an informer's
// cache (which it must never mutate).

import type { KubeObject } from '../../kinds/types';

export type Obj = Record<string, unknown>;

export const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A number field (int32 in Go): absent or not a number reads as 0. */
export const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The work-queue key of a namespaced object: "<namespace>/<name>". */
export function keyOf(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/** Splits a "<namespace>/<name>" key. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** A deep copy of a JSON object. */
export function deepCopy<T>(value: T): T {
  return structuredClone(value);
}

/** An object's labels (never undefined). */
export function labelsOf(obj: KubeObject): Record<string, string> {
  return obj.metadata?.labels ?? {};
}

/** metav1.Time as milliseconds (NaN when absent or malformed). */
export function timeMs(value: unknown): number {
  return typeof value === 'string' ? Date.parse(value) : NaN;
}
