// Request bodies into JSON-compatible values, and the 400 texts kube-apiserver
// gives when that fails.
//
// kube's JSON/YAML serializer (runtime/serializer/json) decodes a body in
// steps, and each step has its own error text:
//   1. YAML only: YAMLToJSON — go-yaml's error ("yaml: line 2: …");
//   2. Interpret: read apiVersion and kind with encoding/json —
//      "couldn't get version/kind; json parse error: <Go json error>", or
//      "unexpected GroupVersion string: a/b/c";
//   3. the typed decode (the schema's business, not this module's).
// The create/update handler then wraps the error (transformDecodeError):
//   "<Kind> in version "<v>" cannot be handled as a <Kind>: <err>" when the
//   body named a kind, else
//   "the object provided is unrecognized (must be of type <Kind>): <err> (<summary>)"
// where the summary is the body's first 30 bytes (as text when it starts
// with "{", else hex) followed by " ..." when longer, or "<empty>".

import { errors, type StatusError } from '../../errors/status';
import { decodeJson, JsonSyntaxError } from './json-decode';
import { decodeYaml, YamlDecodeError } from './yaml-decode';

/** A body that kube could not decode; `message` is the Go error text of the failing step. */
export class BodyDecodeError extends Error {
  constructor(
    message: string,
    /** Which step failed: JSON syntax, YAML conversion, or reading the type meta. */
    readonly step: 'json' | 'yaml' | 'typemeta',
  ) {
    super(message);
    this.name = 'BodyDecodeError';
  }
}

export interface DecodedBody {
  /** The body as JSON-compatible data (null for an empty YAML document). */
  readonly value: unknown;
  /**
   * What kube's strict decoding says about the body itself, for
   * fieldValidation Strict (400) / Warn (Warning headers): for JSON one
   * `duplicate field "<path>"` per repeated key; for YAML go-yaml's one
   * "yaml: unmarshal errors: …" message. Unknown fields need the schema and
   * are not reported here.
   */
  readonly strictErrors: readonly string[];
}

export type BodyMediaType = 'application/json' | 'application/yaml';

/**
 * Decodes a request body. JSON bodies are checked as Go's encoding/json
 * would; YAML bodies are read with YAML 1.1 meanings (yes/on → true…).
 * Throws BodyDecodeError with the Go error text.
 */
export function decodeBody(body: Uint8Array | string, mediaType: BodyMediaType): DecodedBody {
  try {
    if (mediaType === 'application/yaml') {
      const { value, strictErrors } = decodeYaml(body);
      return { value, strictErrors };
    }
    const { value, duplicateFields } = decodeJson(body);
    return { value, strictErrors: duplicateFields.map((p) => `duplicate field ${JSON.stringify(p)}`) };
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new BodyDecodeError(err.message, 'json');
    if (err instanceof YamlDecodeError) throw new BodyDecodeError(err.message, 'yaml');
    throw err;
  }
}

export interface TypeMeta {
  readonly apiVersion: string;
  readonly kind: string;
  /** apiVersion split as schema.ParseGroupVersion does. */
  readonly group: string;
  readonly version: string;
}

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** encoding/json matches field names case-insensitively when no exact match exists (with Unicode's K/ſ foldings). */
function foldsTo(key: string, name: string): boolean {
  return key.replace(/\u212a/g, 'k').replace(/\u017f/g, 's').toLowerCase() === name.toLowerCase();
}

/**
 * SimpleMetaFactory.Interpret: apiVersion and kind of a decoded body, with
 * kube's errors for a body that is not an object or has non-string fields.
 */
export function interpretTypeMeta(value: unknown): TypeMeta {
  let apiVersion = '';
  let kind = '';
  if (value !== null) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new BodyDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type ${FIND_KIND_TYPE}`, 'typemeta');
    }
    for (const [key, v] of Object.entries(value)) {
      const field = key === 'apiVersion' || foldsTo(key, 'apiVersion') ? 'apiVersion' : key === 'kind' || foldsTo(key, 'kind') ? 'kind' : undefined;
      if (!field || v === null) continue;
      if (typeof v !== 'string') {
        throw new BodyDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(v)} into Go struct field .${field} of type string`, 'typemeta');
      }
      if (field === 'apiVersion') apiVersion = v;
      else kind = v;
    }
  }
  let group = '';
  let version = '';
  if (apiVersion !== '' && apiVersion !== '/') {
    const slashes = apiVersion.split('/').length - 1;
    if (slashes > 1) throw new BodyDecodeError(`unexpected GroupVersion string: ${apiVersion}`, 'typemeta');
    if (slashes === 0) version = apiVersion;
    else [group, version] = apiVersion.split('/') as [string, string];
  }
  return { apiVersion, kind, group, version };
}

/** summarizeData(body, 30). */
export function summarizeBody(body: Uint8Array | string, maxLength = 30): string {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  if (bytes.length === 0) return '<empty>';
  const head = bytes.subarray(0, maxLength);
  const more = bytes.length > maxLength ? ' ...' : '';
  if (bytes[0] === 0x7b) return new TextDecoder().decode(head) + more;
  return [...head].map((b) => b.toString(16).padStart(2, '0')).join('') + more;
}

export interface DecodeErrorContext {
  /** The kind the endpoint decodes into (scope.Kind), e.g. "Pod". */
  readonly targetKind: string;
  /** The raw request body, for the summary. */
  readonly body: Uint8Array | string;
  /** The kind and version the body named, when the failing step knew them. */
  readonly bodyKind?: { readonly kind: string; readonly version: string };
}

/** transformDecodeError: the 400 BadRequest a create/update answers for an undecodable body. */
export function decodeErrorStatus(detail: string, ctx: DecodeErrorContext): StatusError {
  if (ctx.bodyKind && ctx.bodyKind.kind) {
    return errors.badRequest(`${ctx.bodyKind.kind} in version ${JSON.stringify(ctx.bodyKind.version)} cannot be handled as a ${ctx.targetKind}: ${detail}`);
  }
  return errors.badRequest(`the object provided is unrecognized (must be of type ${ctx.targetKind}): ${detail} (${summarizeBody(ctx.body)})`);
}

export interface DecodedObjectBody extends DecodedBody {
  /** The body as an object ({} for a JSON or YAML null). */
  readonly object: Record<string, unknown>;
  readonly typeMeta: TypeMeta;
}

/**
 * Steps 1 and 2 for a create or update body: decode it and read its type
 * meta, answering kube's 400 BadRequest for anything that fails.
 */
export function decodeObjectBody(body: Uint8Array | string, mediaType: BodyMediaType, targetKind: string): DecodedObjectBody {
  try {
    const decoded = decodeBody(body, mediaType);
    const typeMeta = interpretTypeMeta(decoded.value);
    const object = decoded.value === null ? {} : (decoded.value as Record<string, unknown>);
    return { ...decoded, object, typeMeta };
  } catch (err) {
    if (err instanceof BodyDecodeError) {
      // For JSON the syntax check happens while reading apiVersion and kind, hence the prefix.
      const detail = err.step === 'json' ? `couldn't get version/kind; json parse error: ${err.message}` : err.message;
      throw decodeErrorStatus(detail, { targetKind, body });
    }
    throw err;
  }
}
