// Reading and decoding request bodies: the size limit, the Content-Type, and
// JSON or YAML into a plain object, with kube-apiserver's 400/413/415 answers.

import { parseDocument } from 'yaml';
import { errors } from '../errors/status';

/** kube-apiserver's default --max-request-bytes for resource bodies (3 MiB). */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

export const BODY_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

export type BodyEncoding = 'json' | 'yaml';

/** The media type without parameters, lower case; '' when absent. */
export function mediaTypeOf(header: string | null): string {
  if (!header) return '';
  return header.split(';')[0]!.trim().toLowerCase();
}

export async function readBody(request: Request, limit = MAX_REQUEST_BYTES): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > limit) throw errors.requestEntityTooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!value) continue;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw errors.requestEntityTooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Which decoder a create/update body needs, or 415. */
export function bodyEncodingFor(contentType: string | null): BodyEncoding {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === '' || mediaType === 'application/json') return 'json';
  if (mediaType === 'application/yaml') return 'yaml';
  throw errors.unsupportedMediaType(mediaType, BODY_MEDIA_TYPES);
}

/**
 * Go's encoding/json error texts for the common syntax errors, so a learner
 * sees what kube-apiserver prints. JavaScript's JSON.parse gives only a
 * position, so the text is rebuilt from it.
 */
export function goJsonSyntaxError(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (text.trim() === '') return 'unexpected end of JSON input';
  const m = /position (\d+)/.exec(message);
  if (m) {
    const pos = Number(m[1]);
    const ch = text[pos];
    if (ch === undefined) return 'unexpected end of JSON input';
    return `invalid character '${ch}' looking for beginning of value`;
  }
  if (/Unexpected end/i.test(message)) return 'unexpected end of JSON input';
  const unexpected = /Unexpected token '?(.)'?/.exec(message);
  if (unexpected) return `invalid character '${unexpected[1]}' looking for beginning of value`;
  return message;
}

export function parseJson(text: string): unknown {
  return JSON.parse(text);
}

/** Parses one YAML document to JSON-compatible data; more than one document or a syntax error is an error. */
export function parseYaml(text: string): unknown {
  const doc = parseDocument(text, { version: '1.2', uniqueKeys: false, merge: true });
  if (doc.errors.length > 0) throw new Error(doc.errors[0]!.message.split('\n')[0]);
  return doc.toJS({ maxAliasCount: 100 });
}

/**
 * Decodes a create/update body into an object. Anything that is not a JSON
 * object is a 400 with kube-apiserver's "couldn't get version/kind" text.
 */
export function decodeObjectBody(text: string, encoding: BodyEncoding): Record<string, unknown> {
  let value: unknown;
  try {
    value = encoding === 'json' ? parseJson(text) : parseYaml(text);
  } catch (err) {
    const detail = encoding === 'json' ? `json parse error: ${goJsonSyntaxError(text, err)}` : `yaml: ${(err as Error).message}`;
    throw errors.badRequest(`couldn't get version/kind; ${detail}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    throw errors.badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${got} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  return value as Record<string, unknown>;
}
