// Reading and decoding request bodies: the size limit, the Content-Type, and
// JSON or YAML into a plain object, with kube-apiserver's 400/413/415 answers.

import { decodeBody, decodeObjectBody as decodeNegotiatedObjectBody } from './negotiation';
import { errors } from '../errors/status';
import { isProtobufMediaType } from '../protobuf';

/** kube-apiserver's default --max-request-bytes for resource bodies (3 MiB). */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

export const BODY_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

export type BodyEncoding = 'json' | 'yaml' | 'protobuf';

/** The media type without parameters, lower case; '' when absent. */
export function mediaTypeOf(header: string | null): string {
  if (!header) return '';
  return header.split(';')[0]!.trim().toLowerCase();
}

export async function readBody(request: Request, limit = MAX_REQUEST_BYTES): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, limit));
}

/** The body's bytes, with the same size limit (protobuf bodies are binary). */
export async function readBodyBytes(request: Request, limit = MAX_REQUEST_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > limit) throw errors.requestEntityTooLarge(limit);
  if (!request.body) return new Uint8Array(0);
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
  return bytes;
}

/** Which decoder a create/update body needs, or 415. */
export function bodyEncodingFor(contentType: string | null): BodyEncoding {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === '' || mediaType === 'application/json') return 'json';
  if (mediaType === 'application/yaml') return 'yaml';
  if (isProtobufMediaType(mediaType)) return 'protobuf';
  throw errors.unsupportedMediaType(mediaType, BODY_MEDIA_TYPES);
}

/** Parses one YAML document (YAML 1.1 meanings, as go-yaml reads it) to JSON-compatible data. */
export function parseYaml(text: string): unknown {
  return decodeBody(text, 'application/yaml').value;
}

/**
 * Decodes a create/update body into an object, with kube-apiserver's 400
 * texts for bodies that are not JSON/YAML objects.
 */
export function decodeObjectBody(text: string, encoding: BodyEncoding, targetKind: string): Record<string, unknown> {
  return decodeNegotiatedObjectBody(text, encoding === 'yaml' ? 'application/yaml' : 'application/json', targetKind).object;
}
