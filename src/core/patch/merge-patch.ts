// JSON Merge Patch (RFC 7386) as kube-apiserver 1.32 applies it, with
// gopkg.in/evanphx/json-patch.v4's MergePatch. It follows the RFC for object
// patches, with these observable differences:
// - a patch that is null, a string, a number or a boolean is rejected
//   ("Invalid JSON Patch") instead of replacing the document;
// - a patch that is an array replaces the document, with nulls removed from the
//   objects inside it (the array's own null items stay);
// - a new member (or one replacing a non-object) has its nested nulls removed,
//   also inside arrays' objects; but an array replacing an object member is
//   taken as sent, nulls included.

import { isPlainObject } from './go-json';
import { setOwn } from '../util/set-own';
import { structuredCloneJson } from './json-patch';

/** jsonpatch.ErrBadJSONPatch / ErrBadJSONDoc. */
export class MergePatchError extends Error {
  override readonly name = 'MergePatchError';
}

export const ERR_BAD_JSON_PATCH = 'Invalid JSON Patch';
export const ERR_BAD_JSON_DOC = 'Invalid JSON Document';

function pruneNulls(v: unknown): void {
  if (isPlainObject(v)) pruneDocNulls(v);
  else if (Array.isArray(v)) pruneArrayNulls(v);
}

function pruneDocNulls(doc: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(doc)) {
    if (doc[k] === null) delete doc[k];
    else pruneNulls(doc[k]);
  }
  return doc;
}

function pruneArrayNulls(arr: unknown[]): unknown[] {
  for (const v of arr) if (v !== null) pruneNulls(v);
  return arr;
}

function mergeDocs(doc: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = Object.prototype.hasOwnProperty.call(doc, k) ? doc[k] : undefined;
    if (cur === undefined || cur === null) {
      pruneNulls(v);
      setOwn(doc, k, v);
    } else {
      setOwn(doc, k, merge(cur, v));
    }
  }
}

function merge(cur: unknown, patch: unknown): unknown {
  if (!isPlainObject(cur)) {
    pruneNulls(patch);
    return patch;
  }
  if (!isPlainObject(patch)) return patch;
  mergeDocs(cur, patch);
  return cur;
}

/**
 * Applies a decoded merge patch to a document and returns the result (inputs
 * are not modified). Throws MergePatchError for a patch the library rejects.
 */
export function applyMergePatch(document: unknown, patch: unknown): unknown {
  if (document === null) throw new MergePatchError(ERR_BAD_JSON_DOC);
  if (patch === null || (!isPlainObject(patch) && !Array.isArray(patch))) throw new MergePatchError(ERR_BAD_JSON_PATCH);
  const p = structuredCloneJson(patch);
  if (Array.isArray(p)) return pruneArrayNulls(p);
  if (!isPlainObject(document)) return pruneDocNulls(p as Record<string, unknown>);
  const doc = structuredCloneJson(document) as Record<string, unknown>;
  mergeDocs(doc, p as Record<string, unknown>);
  return doc;
}
