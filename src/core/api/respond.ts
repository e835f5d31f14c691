// Building responses. The one place where a thrown error becomes a Status.

import { errors, isStatusError, StatusError } from '../errors/status';
import { CompactedError, FutureRevisionError, PersistenceError, StorageUnavailableError } from '../storage/types';
import { encodeProtobufResponse, ProtoEncodeError } from '../protobuf';
import { encodeOutput, withoutProtobuf, type OutputFormat } from './media';
import { goQuote } from '../util/go/quote';

const JSON_FORMAT: OutputFormat = { contentType: 'application/json', encoding: 'json', pretty: false };
/** What kube writes when even the error's negotiation fails (WriteRawJSON: indented JSON). */
const RAW_JSON_FORMAT: OutputFormat = { contentType: 'application/json', encoding: 'json', pretty: true };

/** Headers every API response carries (kube-apiserver sends these two on all of them). */
function baseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
  };
}

export function textResponse(body: string, status: number, contentType: string, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...baseHeaders(contentType), ...extra } });
}

/** A binary body (protobuf), with the headers every API response carries. */
export function bytesResponse(body: Uint8Array | ReadableStream<Uint8Array>, status: number, contentType: string, extra: Record<string, string> = {}): Response {
  // The encoders' buffers are plain ArrayBuffers; the DOM typing of BodyInit asks for that explicitly.
  const init = body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : body;
  return new Response(init, { status, headers: { ...baseHeaders(contentType), ...extra } });
}

/**
 * The protobuf bytes of an object that has a protobuf form (its apiVersion
 * and kind name a built-in message), else undefined. A value that does not
 * fit its message is not sent as wrong bytes: the caller falls back.
 */
function protobufBytes(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  try {
    return encodeProtobufResponse(value as Record<string, unknown>);
  } catch (err) {
    if (err instanceof ProtoEncodeError) return undefined;
    throw err;
  }
}

/**
 * An object in the negotiated format. In protobuf when the object has a
 * protobuf form; otherwise the client's next acceptable type, or kube's 406
 * when protobuf was the only one (thrown: the caller's error path writes it).
 */
export function objectResponse(value: unknown, status: number, format: OutputFormat, extra: Record<string, string> = {}): Response {
  if (format.encoding === 'protobuf') {
    const bytes = protobufBytes(value);
    if (bytes) return bytesResponse(bytes, status, format.contentType, extra);
    format = withoutProtobuf(format);
  }
  return textResponse(encodeOutput(value, format), status, format.contentType, extra);
}

/** A response whose JSON body is already encoded (stored text), avoiding a decode/encode round trip. */
export function rawJsonResponse(json: string, status: number, extra: Record<string, string> = {}): Response {
  // Compact JSON ends with a newline, as json.Encoder writes it.
  return textResponse(json + '\n', status, 'application/json', extra);
}

/** Maps any error to the StatusError a client should see. */
export function toStatusError(err: unknown): StatusError {
  if (isStatusError(err)) return err;
  if (err instanceof CompactedError) return errors.expired(`too old resource version: ${err.requested} (${err.compacted})`);
  if (err instanceof FutureRevisionError) return errors.tooLargeResourceVersion(err.requested, err.current, 1);
  if (err instanceof PersistenceError) return errors.internal(err);
  // etcd unreachable: kube-apiserver's etcd client waits for it until the request times out, and the
  // timeout filter answers (its message names the context's error).
  if (err instanceof StorageUnavailableError) return errors.timeout('request did not complete within requested timeout - context deadline exceeded');
  return errors.internal(err);
}

/**
 * A Status in the request's format (ErrorNegotiated): protobuf when the
 * client's first acceptable type is protobuf, whatever the resource (kube
 * encodes Status in protobuf for custom resources too); a format with a
 * transform (Table, PartialObjectMetadata) is negotiated again without it.
 */
export function errorResponse(err: unknown, format: OutputFormat = JSON_FORMAT, extra: Record<string, string> = {}): Response {
  const statusError = toStatusError(err);
  const safeFormat = format.as ? (format.errorFormat ?? RAW_JSON_FORMAT) : format;
  return objectResponse(statusError.status, statusError.code, safeFormat, { ...statusError.headers, ...extra });
}

/**
 * One warning as kube-apiserver writes it: `299 - ` and the text quoted by Go's
 * strconv.Quote. Go writes a header's bytes as they are, so a warning naming
 * `bogusŁ` reaches the client as UTF-8; a Fetch header holds only byte-sized
 * characters, so the UTF-8 bytes are given one character each (the hosts send
 * each as one byte: the same bytes on the wire).
 */
export function warningValue(text: string): string {
  const quoted = `299 - ${goQuote(text)}`;
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(quoted)) return quoted;
  let binary = '';
  for (const byte of new TextEncoder().encode(quoted)) binary += String.fromCharCode(byte);
  return binary;
}

/** Adds Warning headers in the format kube-apiserver uses: `299 - "text"`. */
export function warningHeaders(warnings: readonly string[]): Record<string, string> {
  if (warnings.length === 0) return {};
  const seen = new Set<string>();
  const values: string[] = [];
  for (const w of warnings) {
    if (seen.has(w)) continue;
    seen.add(w);
    values.push(warningValue(w));
  }
  return { Warning: values.join(', ') };
}

/**
 * Adds the request's recorded warnings to a response (success or error), after
 * any the handler already put there, each value once.
 */
export function appendWarningHeaders(response: Response, warnings: readonly string[]): Response {
  if (warnings.length === 0) return response;
  const present = response.headers.get('Warning') ?? '';
  const values: string[] = [];
  for (const w of warnings) {
    const value = warningValue(w);
    if (!present.includes(value) && !values.includes(value)) values.push(value);
  }
  if (values.length === 0) return response;
  try {
    response.headers.set('Warning', present ? `${present}, ${values.join(', ')}` : values.join(', '));
    return response;
  } catch {
    // Immutable headers (a response the core did not build): copy it.
    const headers = new Headers(response.headers);
    headers.set('Warning', present ? `${present}, ${values.join(', ')}` : values.join(', '));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
