// The patch step of kube-apiserver's PATCH handler (k8s.io/apiserver
// endpoints/handlers/patch.go) for the three non-apply patch types: read the
// body the way the server reads it, apply it, and fail with the same status
// and message. Server-side apply (application/apply-patch+yaml) is the field
// manager's business and is only recognised here.
//
// What the handler does after this step (decoding the result into the kind's
// schema, unknown-field checks, defaulting, admission, validation, storing) is
// the caller's; `strictErrors` carries the patch body's own strict-decoding
// findings so that the caller can merge them with the result's.

import { errors, StatusError } from '../errors/status';
import type { KubeObject } from '../kinds/types';
import { goQuote } from '../util/go/quote';
import { GoJsonSyntaxError, isPlainObject, parseGoJson, RawScalar, unwrapRaw } from './go-json';
import { decodeIntoEvanphxPatch, decodeIntoJsonPatchOps, decodeIntoMapOfInterface, GoJsonTypeError } from './go-json-decode';
import { goJsonMarshal } from './go-format';
import { applyJsonPatchOperations, JsonPatchApplyError, MAX_JSON_PATCH_OPERATIONS } from './json-patch';
import { applyMergePatch, MergePatchError } from './merge-patch';
import { strategicMergePatch, type SmpSchema } from './strategic-merge-patch';
import { StrategicMergePatchError, type MergePatchSentinel } from './smp-errors';

export type PatchKind = 'json' | 'merge' | 'strategic';
/** The `fieldValidation` query parameter; absent means Warn on a 1.32 server. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export const JSON_PATCH_TYPE = 'application/json-patch+json';
export const MERGE_PATCH_TYPE = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH_TYPE = 'application/strategic-merge-patch+json';
export const APPLY_PATCH_YAML_TYPE = 'application/apply-patch+yaml';

/** The patch types a resource accepts, in the order kube-apiserver lists them in its 415 message. */
export function supportedPatchTypes(options: { noStrategicMerge?: boolean } = {}): string[] {
  return options.noStrategicMerge
    ? [JSON_PATCH_TYPE, MERGE_PATCH_TYPE, APPLY_PATCH_YAML_TYPE]
    : [JSON_PATCH_TYPE, MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE, APPLY_PATCH_YAML_TYPE];
}

/**
 * The handler's first check: the Content-Type, cut at its first ";" (not
 * trimmed, compared exactly), must be a supported patch type, else 415.
 */
export function patchTypeFromContentType(contentType: string | null | undefined, options: { noStrategicMerge?: boolean } = {}): PatchKind | 'apply' {
  let type = contentType ?? '';
  const semicolon = type.indexOf(';');
  if (semicolon > 0) type = type.slice(0, semicolon);
  const supported = supportedPatchTypes(options);
  if (!supported.includes(type)) throw errors.unsupportedMediaType(type, supported);
  switch (type) {
    case JSON_PATCH_TYPE:
      return 'json';
    case MERGE_PATCH_TYPE:
      return 'merge';
    case STRATEGIC_MERGE_PATCH_TYPE:
      return 'strategic';
    default:
      return 'apply';
  }
}

export interface ApplyPatchOptions {
  /** Custom resources (and kinds without a Go type): a strategic merge patch is answered 415. */
  noStrategicMerge?: boolean;
  /** Default: Warn, as on a 1.32 server when the parameter is absent. */
  fieldValidation?: FieldValidation;
}

export interface PatchResult {
  /** The patched object, before decoding into the kind's schema. */
  object: KubeObject;
  /**
   * Strict-decoding problems of the patch body, worded as kube-apiserver words
   * them ('json patch unknown field "x"', 'duplicate field "x"'). Empty under
   * Ignore. Under Warn they become warnings; under Strict they join the
   * result's unknown fields in a 422.
   */
  strictErrors: string[];
}

/** The 422 kube-apiserver returns for any error the JSON patch library reports while applying. */
export class PatchApplyFailed extends StatusError {
  constructor(
    code: number,
    reason: string,
    message: string,
    details: ConstructorParameters<typeof StatusError>[3],
    /** The library's own text (not sent to the client). */
    readonly libraryMessage: string,
  ) {
    super(code, reason, message, details);
  }
}

/** The Go type the JSON serializer first reads an object's apiVersion and kind into. */
const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

const REJECTED = 'the server rejected our request due to an error in our request';
const PANIC = 'This request caused apiserver to panic. Look in the logs for details.';

/** errors.NewGenericServerResponse(422, …, isUnexpectedResponse=false): the library's text is dropped. */
function genericUnprocessable(libraryMessage: string): PatchApplyFailed {
  return new PatchApplyFailed(422, 'Invalid', REJECTED, {}, libraryMessage);
}

function panicked(libraryMessage: string): PatchApplyFailed {
  return new PatchApplyFailed(500, 'InternalError', PANIC, undefined, libraryMessage);
}

function parse(body: string, keepRaw: boolean, onSyntax: (message: string) => StatusError): unknown {
  try {
    return parseGoJson(body, { keepRaw });
  } catch (e) {
    if (e instanceof GoJsonSyntaxError) throw onSyntax(e.message);
    throw e;
  }
}

function typeChecked<T>(fn: () => T, onType: (message: string) => StatusError): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof GoJsonTypeError) throw onType(e.message);
    throw e;
  }
}

/**
 * Applies a JSON, merge or strategic merge patch to an object (in the request's
 * version) as kube-apiserver 1.32 does, throwing the StatusError it answers
 * with. `schema` is the kind's schema (needed for strategic merge patches).
 */
export function applyPatchDetailed(
  kind: PatchKind,
  original: KubeObject,
  patchBody: string,
  schema?: SmpSchema,
  options: ApplyPatchOptions = {},
): PatchResult {
  const validation = options.fieldValidation ?? 'Warn';
  const strict = validation !== 'Ignore';
  switch (kind) {
    case 'json':
      return applyJson(original, patchBody, strict);
    case 'merge':
      return applyMerge(original, patchBody, strict);
    case 'strategic':
      if (options.noStrategicMerge || !schema) throw errors.unsupportedMediaType(STRATEGIC_MERGE_PATCH_TYPE, supportedPatchTypes({ noStrategicMerge: true }));
      return applyStrategic(original, patchBody, schema, strict);
  }
}

/** applyPatchDetailed without the strict-decoding findings. */
export function applyPatch(kind: PatchKind, original: KubeObject, patchBody: string, schema?: SmpSchema, options: ApplyPatchOptions = {}): KubeObject {
  return applyPatchDetailed(kind, original, patchBody, schema, options).object;
}

function applyJson(original: KubeObject, body: string, strict: boolean): PatchResult {
  let strictErrors: string[] = [];
  // Warn/Strict first decode into []jsonPatchOp (with "error decoding patch: "), then the library decodes again.
  const tree = parse(body, true, (m) => errors.badRequest(strict ? `error decoding patch: ${m}` : m));
  if (strict) {
    strictErrors = typeChecked(() => decodeIntoJsonPatchOps(tree), (m) => errors.badRequest(`error decoding patch: ${m}`)).map((e) => `json patch ${e}`);
  }
  typeChecked(() => decodeIntoEvanphxPatch(tree), (m) => errors.badRequest(m));
  const operations = (tree ?? []) as unknown[];
  if (operations.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new StatusError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${operations.length}`,
    );
  }
  let result: unknown;
  try {
    result = applyJsonPatchOperations(original, operations);
  } catch (e) {
    if (e instanceof JsonPatchApplyError) throw e.panicked ? panicked(e.message) : genericUnprocessable(e.message);
    throw e;
  }
  return { object: asObject(result), strictErrors };
}

function applyMerge(original: KubeObject, body: string, strict: boolean): PatchResult {
  let strictErrors: string[] = [];
  const tree = parse(body, false, (m) => errors.badRequest(strict ? `error decoding patch: ${m}` : 'Invalid JSON Patch'));
  if (strict) strictErrors = typeChecked(() => decodeIntoMapOfInterface(tree, true), (m) => errors.badRequest(`error decoding patch: ${m}`));
  let result: unknown;
  try {
    result = applyMergePatch(original, tree);
  } catch (e) {
    if (e instanceof MergePatchError) throw errors.badRequest(e.message);
    throw e;
  }
  return { object: asObject(result), strictErrors };
}

const BAD_REQUEST_SENTINELS = new Set<MergePatchSentinel>([
  'ErrBadJSONDoc',
  'ErrBadPatchFormatForPrimitiveList',
  'ErrBadPatchFormatForRetainKeys',
  'ErrBadPatchFormatForSetElementOrderList',
  'ErrUnsupportedStrategicMergePatchFormat',
]);
const UNPROCESSABLE_SENTINELS = new Set<MergePatchSentinel>(['ErrNoListOfLists', 'ErrPatchContentNotMatchRetainKeys']);

function applyStrategic(original: KubeObject, body: string, schema: SmpSchema, strict: boolean): PatchResult {
  // Decode errors are returned bare here (no "error decoding patch: ").
  const tree = parse(body, false, (m) => errors.badRequest(m));
  const strictErrors = typeChecked(() => decodeIntoMapOfInterface(tree, strict), (m) => errors.badRequest(m));
  let result: unknown;
  try {
    result = strategicMergePatch(original, tree, schema);
  } catch (e) {
    if (e instanceof StrategicMergePatchError) throw strategicStatus(e);
    throw e;
  }
  // No RawScalar survives here: the decode above rejects the numbers Go cannot hold.
  return { object: result as KubeObject, strictErrors };
}

/** interpretStrategicMergePatchError, then the generic handling of a non-Status error (500, no reason). */
function strategicStatus(e: StrategicMergePatchError): StatusError {
  if (e.panicked) return panicked(e.message);
  if (e.sentinel && BAD_REQUEST_SENTINELS.has(e.sentinel)) return errors.badRequest(e.message);
  if (e.sentinel && UNPROCESSABLE_SENTINELS.has(e.sentinel)) return genericUnprocessable(e.message);
  return new StatusError(500, '', e.message);
}

/**
 * The patched document must decode as an object. A non-object is what the
 * server's decoder rejects with a 422 on the field "patch"; null decodes to an
 * empty object (the caller's name check then fails as on the server).
 */
function asObject(result: unknown): KubeObject {
  if (result === null) return {};
  if (isPlainObject(result)) return unwrapRaw(result) as KubeObject;
  const kind = Array.isArray(result) ? 'array' : jsonKindOf(result);
  throw patchInvalid(goJsonMarshal(result), `couldn't get version/kind; json parse error: json: cannot unmarshal ${kind} into Go value of type ${TYPE_META_STRUCT}`);
}

function jsonKindOf(v: unknown): string {
  const value = v instanceof RawScalar ? v.value : v;
  return typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'bool';
}

/**
 * errors.NewInvalid(schema.GroupKind{}, "", field.Invalid(field.NewPath("patch"), patched, detail)):
 * how the handler reports a patched object it cannot decode. Exported for the
 * caller's own decode step (type mismatches, strict unknown fields).
 */
export function patchInvalid(patchedJson: string, detail: string): StatusError {
  const body = `Invalid value: ${goQuote(patchedJson)}: ${detail}`;
  return new StatusError(422, 'Invalid', ` "" is invalid: patch: ${body}`, {
    causes: [{ reason: 'FieldValueInvalid', message: body, field: 'patch' }],
  });
}
