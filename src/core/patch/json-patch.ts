// JSON Patch (RFC 6902) as kube-apiserver 1.32 applies it: with
// gopkg.in/evanphx/json-patch.v4 (v4.12.0), SupportNegativeIndices on (the
// library default), AccumulatedCopySizeLimit set from the server's
// JSONPatchMaxCopyBytes (3 MiB), and at most 10000 operations per patch.
//
// That library departs from the RFC in ways a client can see, and a real server
// follows the library (docs/decisions/0050-json-patch-own-implementation.md):
// - `add`/`replace` with path "" are errors for add ("doc is missing path") and
//   whole-document replacement for replace; a path without a leading "/" only
//   fails when it has no "/" at all ("a/b" addresses member "b" of the root);
// - array indices go through strconv.Atoi: "01" and "+1" are index 1, "-1" counts
//   from the end (SupportNegativeIndices);
// - a missing `value` means null; `replace` of a missing object member adds it;
//   `copy` from a missing member copies null; `test` of a missing member
//   against null (or no value) succeeds;
// - `test` compares scalars by their JSON text: the document's text as the
//   server encodes it (HTML-safe: "<" is \u003c), the patch's as sent (1.0 ≠ 1).

import { goQuote } from '../util/go/quote';
import { isPlainObject, RawScalar } from './go-json';
import { setOwn } from '../util/set-own';
import { goJsonString } from '../util/go/json-string';
import { utf8Length } from '../util/go/strings';
import { goJsonMarshal, goJsonNumber } from './go-format';

/** kube-apiserver's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** kube-apiserver's default JSONPatchMaxCopyBytes (the library's AccumulatedCopySizeLimit). */
export const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

/** An operation failed; `message` is the library's error text. */
export class JsonPatchApplyError extends Error {
  override readonly name = 'JsonPatchApplyError';
  /** The Go code panics here (nil dereference) instead of returning an error. */
  readonly panicked: boolean;
  constructor(message: string, panicked = false) {
    super(message);
    this.panicked = panicked;
  }
}

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';
const TEST_FAILED = 'test failed';

/** Go's error wrapping: "context: cause". */
function wrap(context: string, cause: string): JsonPatchApplyError {
  return new JsonPatchApplyError(`${context}: ${cause}`);
}

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return Array.isArray(v) || isPlainObject(v);
}

const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** strconv.Atoi on a 64-bit platform: the value, or Go's NumError text. */
function atoi(s: string): bigint | string {
  const syntax = `strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`;
  const range = `strconv.Atoi: parsing ${goQuote(s)}: value out of range`;
  let body = s;
  let negative = false;
  if (body.startsWith('+') || body.startsWith('-')) {
    negative = body[0] === '-';
    body = body.slice(1);
  }
  if (body.length === 0) return syntax;
  let n = 0n;
  for (const ch of body) {
    if (ch < '0' || ch > '9') return syntax;
    n = n * 10n + BigInt(ch.charCodeAt(0) - 48);
    // ParseUint stops at the first digit that overflows uint64.
    if (s.length >= 19 && n > UINT64_MAX) return range;
  }
  if (negative ? n > INT64_MAX + 1n : n > INT64_MAX) return range;
  return negative ? -n : n;
}

/** Decodes a JSON Pointer token (RFC 6901: ~1 then ~0, in one pass). */
function decodePatchKey(k: string): string {
  return k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** Resolves an array index for get/set/remove; `size` is the array length the library checks against. */
function arrayIndex(key: string, size: number, boundsFailOnEqual: boolean): number | JsonPatchApplyError {
  const parsed = atoi(key);
  if (typeof parsed === 'string') return new JsonPatchApplyError(parsed);
  let idx = parsed;
  const invalid = () => wrap(`Unable to access invalid index: ${parsed}`, INVALID_INDEX);
  if (idx < 0n) {
    if (idx < -BigInt(size)) return invalid();
    idx += BigInt(size);
  }
  if (boundsFailOnEqual ? idx >= BigInt(size) : idx > BigInt(size)) return invalid();
  return Number(idx);
}

/** container.get: undefined (no error) for a missing member; an error for a bad array index. */
function get(con: Container, key: string): unknown | JsonPatchApplyError {
  if (!Array.isArray(con)) return Object.prototype.hasOwnProperty.call(con, key) ? con[key] : undefined;
  const parsed = atoi(key);
  if (typeof parsed === 'string') return new JsonPatchApplyError(parsed);
  let idx = parsed;
  if (idx < 0n) {
    if (idx < -BigInt(con.length)) return wrap(`Unable to access invalid index: ${parsed}`, INVALID_INDEX);
    idx += BigInt(con.length);
  }
  if (idx >= BigInt(con.length)) return wrap(`Unable to access invalid index: ${idx}`, INVALID_INDEX);
  return con[Number(idx)];
}

function add(con: Container, key: string, value: unknown): JsonPatchApplyError | undefined {
  if (!Array.isArray(con)) {
    setOwn(con, key, value);
    return undefined;
  }
  if (key === '-') {
    con.push(value);
    return undefined;
  }
  const parsed = atoi(key);
  if (typeof parsed === 'string') return wrap(`value was not a proper array index: '${key}'`, parsed);
  const size = BigInt(con.length + 1);
  if (parsed >= size) return wrap(`Unable to access invalid index: ${parsed}`, INVALID_INDEX);
  let idx = parsed;
  if (idx < 0n) {
    if (idx < -size) return wrap(`Unable to access invalid index: ${parsed}`, INVALID_INDEX);
    idx += size;
  }
  con.splice(Number(idx), 0, value);
  return undefined;
}

function remove(con: Container, key: string): JsonPatchApplyError | undefined {
  if (!Array.isArray(con)) {
    if (!Object.prototype.hasOwnProperty.call(con, key)) return wrap(`Unable to remove nonexistent key: ${key}`, MISSING);
    delete con[key];
    return undefined;
  }
  const parsed = atoi(key);
  if (typeof parsed === 'string') return new JsonPatchApplyError(parsed);
  let idx = parsed;
  if (idx >= BigInt(con.length)) return wrap(`Unable to access invalid index: ${parsed}`, INVALID_INDEX);
  if (idx < 0n) {
    if (idx < -BigInt(con.length)) return wrap(`Unable to access invalid index: ${parsed}`, INVALID_INDEX);
    idx += BigInt(con.length);
  }
  con.splice(Number(idx), 1);
  return undefined;
}

/** `replace` on an existing slot (get has already checked the index). */
function set(con: Container, key: string, value: unknown): JsonPatchApplyError | undefined {
  if (!Array.isArray(con)) {
    setOwn(con, key, value);
    return undefined;
  }
  const idx = arrayIndex(key, con.length, true);
  if (idx instanceof JsonPatchApplyError) return idx;
  con[idx] = value;
  return undefined;
}

/** The document holder: `replace` of "" swaps the whole document. */
interface Doc {
  root: Container;
}

/** findObject: the container holding the path's last token, or undefined when any step is missing or not a container. */
function findObject(doc: Doc, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let con: Container = doc.root;
  for (let k = 1; k < split.length - 1; k++) {
    const next = get(con, decodePatchKey(split[k]!));
    if (next instanceof JsonPatchApplyError || !isContainer(next)) return undefined;
    con = next;
  }
  return { con, key: decodePatchKey(split[split.length - 1]!) };
}

/** Operation.Kind(): the "op" string, or "unknown". */
function opKind(op: Record<string, unknown> | null): string {
  const v = op?.['op'];
  if (v instanceof RawScalar && typeof v.value === 'string') return v.value;
  if (typeof v === 'string') return v;
  return 'unknown';
}

/** json.Unmarshal of a member into a Go string. */
function stringMember(op: Record<string, unknown> | null, name: 'path' | 'from'): string | JsonPatchApplyError {
  const v = op?.[name];
  if (v === undefined || v === null) {
    return wrap(name === 'path' ? 'operation missing path field' : 'operation, missing from field', MISSING);
  }
  if (v instanceof RawScalar && typeof v.value === 'string') return v.value;
  if (typeof v === 'string') return v;
  const kind = Array.isArray(v) ? 'array' : isPlainObject(v) ? 'object' : typeof (v instanceof RawScalar ? v.value : v) === 'number' ? 'number' : 'bool';
  return new JsonPatchApplyError(`json: cannot unmarshal ${kind} into Go value of type string`);
}

/** The operation's value (a fresh copy, as the library re-reads it each time); undefined when the member is absent. */
function opValue(op: Record<string, unknown> | null): unknown {
  if (!op || !Object.prototype.hasOwnProperty.call(op, 'value')) return undefined;
  return structuredCloneJson(op['value']);
}

/** A scalar's JSON text as the library compares it. */
function scalarText(v: unknown): string {
  if (v instanceof RawScalar) return v.raw;
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return goJsonNumber(v);
  return v ? 'true' : 'false';
}

/** lazyNode.equal: `doc` is never null here; a null inside compared arrays makes the library panic. */
function nodeEqual(doc: unknown, value: unknown): boolean {
  if (isPlainObject(doc)) {
    if (!isPlainObject(value)) return false;
    const keys = Object.keys(doc);
    if (keys.length !== Object.keys(value).length) return false;
    for (const k of keys) {
      if (!Object.prototype.hasOwnProperty.call(value, k)) return false;
      const a = doc[k];
      const b = value[k];
      if ((a === null) !== (b === null)) return false;
      if (a === null) continue;
      if (!nodeEqual(a, b)) return false;
    }
    return true;
  }
  if (Array.isArray(doc)) {
    if (!Array.isArray(value) || doc.length !== value.length) return false;
    for (let k = 0; k < doc.length; k++) {
      if (doc[k] === null || value[k] === null) throw new JsonPatchApplyError('runtime error: invalid memory address or nil pointer dereference', true);
      if (!nodeEqual(doc[k], value[k])) return false;
    }
    return true;
  }
  if (value === null || value === undefined || isContainer(value)) return false;
  return scalarText(doc) === scalarText(value);
}

/** deepCopy: marshal and re-read, so strings are re-escaped as json.Marshal writes a RawMessage. A nil node copies as null and counts nothing. */
function deepCopy(v: unknown): { value: unknown; size: number } {
  if (v === undefined || v === null) return { value: null, size: 0 };
  return { value: copyNode(v), size: utf8Length(goJsonMarshal(v)) };
}

function copyNode(v: unknown): unknown {
  if (v instanceof RawScalar) {
    return typeof v.value === 'string' ? new RawScalar(goJsonMarshal(v), v.value) : v;
  }
  if (Array.isArray(v)) return v.map(copyNode);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setOwn(out, k, copyNode(v[k]));
    return out;
  }
  return v;
}

export interface ApplyJsonPatchOptions {
  /** Total bytes `copy` operations may add; 0 means no limit. Default: kube-apiserver's 3 MiB. */
  accumulatedCopySizeLimit?: number;
}

/**
 * Applies decoded operations (as read by parseGoJson with keepRaw) to a
 * document, returning the new document (the input is not modified; RawScalars
 * may remain in the result, see unwrapRaw). Throws JsonPatchApplyError with the
 * library's message.
 */
export function applyJsonPatchOperations(document: unknown, operations: readonly unknown[] | null, options: ApplyJsonPatchOptions = {}): unknown {
  if (!isContainer(document)) {
    const kind = document === null ? 'null' : typeof document === 'string' ? 'string' : typeof document === 'number' ? 'number' : 'bool';
    // json.Unmarshal(doc, &partialDoc{}): a null leaves an empty (nil) document.
    if (document === null) return null;
    throw new JsonPatchApplyError(`json: cannot unmarshal ${kind} into Go value of type jsonpatch.partialDoc`);
  }
  const limit = options.accumulatedCopySizeLimit ?? JSON_PATCH_MAX_COPY_BYTES;
  const doc: Doc = { root: structuredCloneJson(document) as Container };
  let copied = 0;
  for (const raw of operations ?? []) {
    const op = isPlainObject(raw) ? raw : null;
    const kind = opKind(op);
    let err: JsonPatchApplyError | undefined;
    switch (kind) {
      case 'add':
        err = opAdd(doc, op);
        break;
      case 'remove':
        err = opRemove(doc, op);
        break;
      case 'replace':
        err = opReplace(doc, op);
        break;
      case 'move':
        err = opMove(doc, op);
        break;
      case 'test':
        err = opTest(doc, op);
        break;
      case 'copy': {
        const result = opCopy(doc, op, copied, limit);
        if (typeof result === 'number') copied = result;
        else err = result;
        break;
      }
      default:
        err = new JsonPatchApplyError(`Unexpected kind: ${kind}`);
    }
    if (err) throw err;
  }
  return doc.root;
}

function opAdd(doc: Doc, op: Record<string, unknown> | null): JsonPatchApplyError | undefined {
  const path = stringMember(op, 'path');
  if (path instanceof JsonPatchApplyError) return wrap('add operation failed to decode path', MISSING);
  const found = findObject(doc, path);
  if (!found) return wrap(`add operation does not apply: doc is missing path: "${path}"`, MISSING);
  const err = add(found.con, found.key, opValue(op) ?? null);
  return err && wrap(`error in add for path: '${path}'`, err.message);
}

function opRemove(doc: Doc, op: Record<string, unknown> | null): JsonPatchApplyError | undefined {
  const path = stringMember(op, 'path');
  if (path instanceof JsonPatchApplyError) return wrap('remove operation failed to decode path', MISSING);
  const found = findObject(doc, path);
  if (!found) return wrap(`remove operation does not apply: doc is missing path: "${path}"`, MISSING);
  const err = remove(found.con, found.key);
  return err && wrap(`error in remove for path: '${path}'`, err.message);
}

function opReplace(doc: Doc, op: Record<string, unknown> | null): JsonPatchApplyError | undefined {
  const path = stringMember(op, 'path');
  if (path instanceof JsonPatchApplyError) return wrap('replace operation failed to decode path', path.message);
  if (path === '') {
    const value = opValue(op);
    if (value === undefined) return new JsonPatchApplyError('runtime error: invalid memory address or nil pointer dereference', true);
    if (!isContainer(value)) return new JsonPatchApplyError('replace operation value must be object or array: %!w(<nil>)');
    doc.root = value;
    return undefined;
  }
  const found = findObject(doc, path);
  if (!found) return wrap(`replace operation does not apply: doc is missing path: ${path}`, MISSING);
  if (get(found.con, found.key) instanceof JsonPatchApplyError) {
    return wrap(`replace operation does not apply: doc is missing key: ${path}`, MISSING);
  }
  const err = set(found.con, found.key, opValue(op) ?? null);
  // The library's own wording says "remove" here.
  return err && wrap(`error in remove for path: '${path}'`, err.message);
}

function opMove(doc: Doc, op: Record<string, unknown> | null): JsonPatchApplyError | undefined {
  const from = stringMember(op, 'from');
  if (from instanceof JsonPatchApplyError) return wrap('move operation failed to decode from', from.message);
  const source = findObject(doc, from);
  if (!source) return wrap(`move operation does not apply: doc is missing from path: ${from}`, MISSING);
  const value = get(source.con, source.key);
  if (value instanceof JsonPatchApplyError) return wrap(`error in move for path: '${source.key}'`, value.message);
  const removeErr = remove(source.con, source.key);
  if (removeErr) return wrap(`error in move for path: '${source.key}'`, removeErr.message);
  const path = stringMember(op, 'path');
  if (path instanceof JsonPatchApplyError) return wrap('move operation failed to decode path', path.message);
  const target = findObject(doc, path);
  if (!target) return wrap(`move operation does not apply: doc is missing destination path: ${path}`, MISSING);
  const err = add(target.con, target.key, value ?? null);
  return err && wrap(`error in move for path: '${path}'`, err.message);
}

function opTest(doc: Doc, op: Record<string, unknown> | null): JsonPatchApplyError | undefined {
  const path = stringMember(op, 'path');
  if (path instanceof JsonPatchApplyError) return wrap('test operation failed to decode path', path.message);
  const expected = opValue(op);
  const failed = () => wrap(`testing value ${path} failed`, TEST_FAILED);
  if (path === '') {
    if (expected === undefined) return new JsonPatchApplyError('runtime error: invalid memory address or nil pointer dereference', true);
    return nodeEqual(doc.root, expected) ? undefined : failed();
  }
  const found = findObject(doc, path);
  if (!found) return wrap(`test operation does not apply: is missing path: ${path}`, MISSING);
  const actual = get(found.con, found.key);
  if (actual instanceof JsonPatchApplyError) return wrap(`error in test for path: '${path}'`, actual.message);
  if (actual === undefined || actual === null) return expected === undefined || expected === null ? undefined : failed();
  if (expected === undefined) return failed();
  return nodeEqual(actual, expected) ? undefined : failed();
}

function opCopy(doc: Doc, op: Record<string, unknown> | null, copied: number, limit: number): number | JsonPatchApplyError {
  const from = stringMember(op, 'from');
  if (from instanceof JsonPatchApplyError) return wrap('copy operation failed to decode from', from.message);
  const source = findObject(doc, from);
  if (!source) return wrap(`copy operation does not apply: doc is missing from path: ${from}`, MISSING);
  const value = get(source.con, source.key);
  if (value instanceof JsonPatchApplyError) return wrap(`error in copy for from: '${from}'`, value.message);
  const path = stringMember(op, 'path');
  if (path instanceof JsonPatchApplyError) return wrap('copy operation failed to decode path', MISSING);
  const target = findObject(doc, path);
  if (!target) return wrap(`copy operation does not apply: doc is missing destination path: ${path}`, MISSING);
  const copy = deepCopy(value);
  const total = copied + copy.size;
  if (limit > 0 && total > limit) {
    return new JsonPatchApplyError(`Unable to complete the copy, the accumulated size increase of copy is ${total}, exceeding the limit ${limit}`);
  }
  const err = add(target.con, target.key, copy.value);
  if (err) return wrap('error while adding value during copy', err.message);
  return total;
}

/** A deep copy of a JSON tree (RawScalars are immutable and shared). */
export function structuredCloneJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(structuredCloneJson);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setOwn(out, k, structuredCloneJson(v[k]));
    return out;
  }
  return v;
}
