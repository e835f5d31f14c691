// Decoding a request body into a custom resource, as the CRD handler's codec
// does: the body must name its kind; an apiVersion that is not one of the
// CRD's versions cannot be converted; unknown fields are pruned (reported per
// fieldValidation, like the built-in kinds' decode errors) except below
// x-kubernetes-preserve-unknown-fields; then the schema's defaults apply.
// The API layer calls these from its decode/field-validation/patch steps for
// served resources whose version carries an inline (CRD) schema.

import { errors, type StatusError } from '../errors/status';
import { fieldErrors } from '../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../kinds/types';
import { applyDefaults } from '../schema/defaults';
import { applyFieldValidation, customResourceStrictErrors, decodeError, strictDecodingErrorMessage, type FieldValidation } from '../schema/field-validation';
import { pruneCustomResource } from '../schema/prune';
import { isRef, type SchemaNode } from '../schema/types';
import { patchInvalid } from '../patch/apply-patch';

/** What the decode steps need to know about the served resource (a subset of the API's ServedResource). */
export interface ServedCustomResource {
  readonly definition: ResourceDefinition;
  readonly version: { readonly name: string; readonly schema: SchemaNode };
  readonly group: string;
  readonly apiVersion: string;
}

/** A served resource whose version carries an inline schema is a custom resource (built-ins name a definition). */
export function isCustomResource(served: { readonly version: { readonly schema: SchemaNode } }): boolean {
  return !isRef(served.version.schema);
}

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
}

/**
 * The codec's checks of apiVersion and kind. Throws kube's 400 for a body
 * without kind or with a group/version the CRD does not have, and for
 * another version of the CRD; a wrong kind is the validator's 422.
 */
export function checkCustomResourceTypeMeta(obj: Record<string, unknown>, served: ServedCustomResource, body?: string): void {
  const kind = typeof obj['kind'] === 'string' ? (obj['kind'] as string) : '';
  const apiVersion = typeof obj['apiVersion'] === 'string' ? (obj['apiVersion'] as string) : '';
  const intoKind = served.definition.kind;
  if (!kind) {
    const data = body ?? JSON.stringify(obj);
    throw decodeError({ kind: '', version: '', intoKind, body: data }, `Object 'Kind' is missing in '${data}'`);
  }
  const valid = served.definition.versions.some((v) => `${served.group}/${v.name}` === apiVersion);
  if (!valid) {
    throw decodeError({ kind, version: versionOf(apiVersion), intoKind }, `request to convert CR from an invalid group/version: ${apiVersion}`);
  }
  if (apiVersion !== served.apiVersion) {
    throw errors.badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${served.apiVersion})`);
  }
  if (kind !== intoKind) throw kindInvalid(obj, served, kind);
}

function kindInvalid(obj: Record<string, unknown>, served: ServedCustomResource, kind: string): StatusError {
  const name = (obj['metadata'] as { name?: unknown } | undefined)?.name;
  return errors.invalid({ group: served.group, kind: served.definition.kind }, typeof name === 'string' ? name : '', [
    fieldErrors.invalid('kind', kind, `must be ${served.definition.kind}`),
  ]);
}

/**
 * Prunes unknown fields of a decoded body (in place), applies the directive
 * to the unknown and duplicate fields (400 for Strict, warnings for Warn) and
 * applies the schema's defaults. Returns the warnings.
 */
export function decodeCustomResourceBody(
  served: ServedCustomResource,
  obj: Record<string, unknown>,
  text: string,
  yaml: boolean,
  directive: FieldValidation,
): string[] {
  const schema = served.version.schema;
  const unknown = pruneCustomResource(obj, schema);
  const strict = customResourceStrictErrors(text, unknown, { yaml });
  const apiVersion = typeof obj['apiVersion'] === 'string' ? (obj['apiVersion'] as string) : '';
  const target = { kind: typeof obj['kind'] === 'string' ? (obj['kind'] as string) : '', version: versionOf(apiVersion), intoKind: served.definition.kind, body: text };
  const warnings = applyFieldValidation(directive, strict, target);
  applyDefaults(obj, schema);
  return warnings;
}

/**
 * The decode step after a JSON or merge patch: prune the patched object,
 * report its unknown fields with the patch's own strict errors (422 on
 * "patch" for Strict), and default it. Returns the warnings.
 */
export function decodePatchedCustomResource(served: ServedCustomResource, patched: KubeObject, patchStrictErrors: readonly string[], directive: FieldValidation): string[] {
  const patchedJson = JSON.stringify(patched);
  const unknown = pruneCustomResource(patched, served.version.schema).map((path) => `unknown field ${JSON.stringify(path)}`);
  const all = directive === 'Ignore' ? [] : [...patchStrictErrors, ...unknown];
  if (directive === 'Strict' && all.length) throw patchInvalid(patchedJson, strictDecodingErrorMessage(all));
  applyDefaults(patched, served.version.schema);
  return all;
}
