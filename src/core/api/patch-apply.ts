// The bridge between the PATCH handler and the patch algorithms in
// src/core/patch: which algorithm a content type selects and the schema it
// needs.

import { errors } from '../errors/status';
import type { ServedResource } from './registry';

export type PatchKind = 'json' | 'merge' | 'strategic';

/** Whether the patch itself pins a resourceVersion (then a stale one is a 409, not a retry). */
export function patchSetsResourceVersion(kind: PatchKind, body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (kind === 'json') {
      return Array.isArray(parsed) && parsed.some((op) => typeof op === 'object' && op !== null && String((op as { path?: unknown }).path).startsWith('/metadata/resourceVersion'));
    }
    const meta = (parsed as { metadata?: { resourceVersion?: unknown } } | null)?.metadata;
    return meta !== undefined && meta !== null && typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '';
  } catch {
    return false;
  }
}

export function applyNonApplyPatch(kind: PatchKind, original: unknown, body: string, served: ServedResource): unknown {
  void original;
  void body;
  void served;
  throw errors.unsupportedMediaType(kind, []);
}
