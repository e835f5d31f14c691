// Readers for the untyped JSON of API objects, shared by the scheduler's
// plugins: every field is read defensively, since a pod or node may come
// from any client and the scheduler must never throw on an odd shape.

export type Obj = Record<string, unknown>;

export const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Go's sort order for strings (byte order), used wherever kube sorts names. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
