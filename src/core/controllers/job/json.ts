// Small readers for API objects as JSON, shared by the batch controllers
// (job, cronjob, ttl-after-finished) and pod GC: a field that is absent or
// of the wrong shape reads as empty rather than throwing, as a controller
// must survive whatever a user stored.
// Not workloads/objects: here a missing number or time reads as undefined (there 0 or NaN), and many non-workload controllers import it.

export type Obj = Record<string, unknown>;

export const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A deep copy of plain JSON data (objects from an informer's cache are shared and must not be changed). */
export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Milliseconds since the epoch of an RFC 3339 time, or undefined. */
export function timeMs(v: unknown): number | undefined {
  if (typeof v !== 'string' || !v) return undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}
