// The second half of a Go JSON decode: after the syntax check (go-json.ts),
// encoding/json and sigs.k8s.io/json walk the value into a Go type and report
// the first type mismatch ("json: cannot unmarshal array into Go value of type
// map[string]interface {}") and, in strict mode, every duplicate or unknown
// field ("duplicate field \"op\"", "unknown field \"foo\""). kube-apiserver
// returns these texts to clients, so the few Go targets its patch handler
// decodes into are modelled here.

import { goQuote } from '../util/go/quote';
import { isPlainObject, objectEntries, RawScalar } from './go-json';

/** A type mismatch, with encoding/json's UnmarshalTypeError text. */
export class GoJsonTypeError extends Error {
  override readonly name = 'GoJsonTypeError';
}

/** What UnmarshalTypeError calls a JSON value. */
function jsonKind(v: unknown): string {
  if (v instanceof RawScalar) return jsonKind(v.value);
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

/** Where a value is decoded: into a plain Go value, or into a struct field (Go names both in its message). */
interface Target {
  readonly type: string;
  readonly struct?: string;
  readonly field?: string;
}

function typeError(value: string, target: Target): GoJsonTypeError {
  if (target.struct !== undefined) {
    return new GoJsonTypeError(`json: cannot unmarshal ${value} into Go struct field ${target.struct}.${target.field} of type ${target.type}`);
  }
  return new GoJsonTypeError(`json: cannot unmarshal ${value} into Go value of type ${target.type}`);
}

/** sigs.k8s.io/json keeps at most 100 strict errors, each text once. */
class StrictErrors {
  readonly list: string[] = [];
  private readonly seen = new Set<string>();
  constructor(readonly enabled: boolean) {}
  add(message: string): void {
    if (!this.enabled || this.list.length >= 100 || this.seen.has(message)) return;
    this.seen.add(message);
    this.list.push(message);
  }
}

/**
 * A value decoded into interface{}: numbers Go cannot hold fail as float64;
 * repeated keys in objects are strict errors. `context` is the enclosing struct
 * field, which Go keeps naming for values nested below it.
 */
function walkInterface(v: unknown, strict: StrictErrors, context: Omit<Target, 'type'>): void {
  if (v instanceof RawScalar) {
    if (typeof v.value === 'number' && !Number.isFinite(v.value)) throw typeError(`number ${v.raw}`, { ...context, type: 'float64' });
    return;
  }
  if (Array.isArray(v)) {
    for (const item of v) walkInterface(item, strict, context);
    return;
  }
  if (isPlainObject(v)) walkMapOfInterface(v, strict, context);
}

function walkMapOfInterface(obj: Record<string, unknown>, strict: StrictErrors, context: Omit<Target, 'type'>): void {
  const seen = new Set<string>();
  for (const [key, value] of objectEntries(obj)) {
    if (seen.has(key)) strict.add(`duplicate field ${goQuote(key)}`);
    seen.add(key);
    walkInterface(value, strict, context);
  }
}

/**
 * sigs.k8s.io/json UnmarshalStrict (strict) or UnmarshalCaseSensitivePreserveInts
 * into map[string]interface{}: what kube-apiserver does with a merge patch and
 * a strategic merge patch. Returns the strict errors; throws GoJsonTypeError.
 */
export function decodeIntoMapOfInterface(tree: unknown, strict: boolean): string[] {
  const errors = new StrictErrors(strict);
  if (tree === null) return errors.list;
  if (!isPlainObject(tree)) throw typeError(jsonKind(tree), { type: 'map[string]interface {}' });
  walkMapOfInterface(tree, errors, {});
  return errors.list;
}

const JSON_PATCH_OP_STRING_FIELDS = new Set(['op', 'path', 'from']);

/**
 * sigs.k8s.io/json UnmarshalStrict into []handlers.jsonPatchOp (struct
 * {op, path, from string; value interface{}}), the first step of a JSON patch
 * when fieldValidation is Warn (the default) or Strict.
 */
export function decodeIntoJsonPatchOps(tree: unknown): string[] {
  const errors = new StrictErrors(true);
  if (tree === null) return errors.list;
  if (!Array.isArray(tree)) throw typeError(jsonKind(tree), { type: '[]handlers.jsonPatchOp' });
  for (const element of tree) {
    if (element === null) continue;
    if (!isPlainObject(element)) throw typeError(jsonKind(element), { type: 'handlers.jsonPatchOp' });
    const seen = new Set<string>();
    for (const [key, value] of objectEntries(element)) {
      if (key !== 'value' && !JSON_PATCH_OP_STRING_FIELDS.has(key)) {
        // Unknown members are skipped without looking inside.
        errors.add(`unknown field ${goQuote(key)}`);
        continue;
      }
      if (seen.has(key)) errors.add(`duplicate field ${goQuote(key)}`);
      seen.add(key);
      const context = { struct: 'jsonPatchOp', field: key };
      if (key === 'value') walkInterface(value, errors, context);
      else if (value !== null && !(value instanceof RawScalar && typeof value.value === 'string') && typeof value !== 'string') {
        throw typeError(jsonKind(value), { ...context, type: 'string' });
      }
    }
  }
  return errors.list;
}

/** encoding/json into jsonpatch.Patch ([]map[string]*json.RawMessage): evanphx DecodePatch. */
export function decodeIntoEvanphxPatch(tree: unknown): void {
  if (tree === null) return;
  if (!Array.isArray(tree)) throw typeError(jsonKind(tree), { type: 'jsonpatch.Patch' });
  for (const element of tree) {
    if (element !== null && !isPlainObject(element)) throw typeError(jsonKind(element), { type: 'jsonpatch.Operation' });
  }
}
