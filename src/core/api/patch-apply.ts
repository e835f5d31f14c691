// The bridge between the PATCH handler and the patch algorithms in
// src/core/patch: apply the patch to the object as the client's version
// shows it, then decode the result into the kind's schema as kube-apiserver
// does (type errors and Strict unknown fields are a 422 on "patch"; Warn
// turns them into warnings) and drop fields the kind does not have.

import { applyPatchDetailed, patchInvalid, type PatchKind } from '../patch/apply-patch';
import { builtinBodyProblems, strictDecodingErrorMessage } from '../schema/field-validation';
import { pruneBuiltin } from '../schema/prune';
import type { KubeObject } from '../kinds/types';
import { schemaTableFor } from './field-validation';
import type { ServedResource } from './registry';
import type { FieldValidationDirective } from './write-options';
import { decodePatchedCustomResource, isCustomResource } from '../crd/decode';

export type { PatchKind };

/** Whether the patch itself pins a resourceVersion (then a stale one is a 409, not a retry). */
export function patchSetsResourceVersion(kind: PatchKind, body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (kind === 'json') {
      return (
        Array.isArray(parsed) &&
        parsed.some((op) => typeof op === 'object' && op !== null && String((op as { path?: unknown }).path).startsWith('/metadata/resourceVersion'))
      );
    }
    const meta = (parsed as { metadata?: { resourceVersion?: unknown } } | null)?.metadata;
    return meta !== undefined && meta !== null && typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '';
  } catch {
    return false;
  }
}

export interface PatchOutcome {
  readonly object: KubeObject;
  readonly warnings: string[];
}

export function applyNonApplyPatch(kind: PatchKind, original: KubeObject, body: string, served: ServedResource, directive: FieldValidationDirective): PatchOutcome {
  const table = schemaTableFor(served);
  const root = served.version.schema;
  const { object, strictErrors } = applyPatchDetailed(kind, original, body, { node: root, table }, {
    noStrategicMerge: served.definition.noStrategicMerge,
    fieldValidation: directive,
  });
  // Custom resources: the patched object is pruned and defaulted by the CRD codec (no Go type decode).
  if (isCustomResource(served)) return { object, warnings: decodePatchedCustomResource(served, object, strictErrors, directive) };
  const patchedJson = JSON.stringify(object);
  const problems = builtinBodyProblems(patchedJson, root, table, { parsed: object });
  if (problems.error !== undefined) throw patchInvalid(patchedJson, problems.error);
  const all = directive === 'Ignore' ? [] : [...strictErrors, ...problems.strictErrors];
  if (directive === 'Strict' && all.length) throw patchInvalid(patchedJson, strictDecodingErrorMessage(all));
  pruneBuiltin(object, root, table);
  return { object, warnings: all };
}
