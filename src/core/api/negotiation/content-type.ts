// The request body's Content-Type: which decoder a create/update body needs
// (NegotiateInputSerializer) and which patch a PATCH is (patch.go), with
// kube's 415 UnsupportedMediaType when it is neither.

import { errors } from '../../errors/status';
import { parseMediaType, type MediaType } from './media-type';
import { mediaTypesForSerializer, type SerializerInfo } from './serializers';

/** mime.ParseMediaType of a Content-Type header; undefined when malformed. */
export function parseContentType(header: string): MediaType | undefined {
  return parseMediaType(header);
}

/**
 * NegotiateInputSerializer: an absent or empty Content-Type means the first
 * serializer (JSON); otherwise the parsed, lower-cased media type must be
 * listed, or kube answers 415 with the list (the streaming list for a
 * streaming body). A listed type KubeTab cannot decode (protobuf) gets the
 * same 415.
 */
export function negotiateInputSerializer(
  contentType: string | null | undefined,
  serializers: readonly SerializerInfo[],
  streaming = false,
): SerializerInfo {
  const header = contentType || serializers[0]!.mediaType;
  const parsed = parseMediaType(header);
  const found = parsed && serializers.find((s) => s.mediaType === parsed.mediaType);
  if (found && found.servable) return found;
  const { mediaTypes, streamMediaTypes } = mediaTypesForSerializer(serializers);
  throw errors.unsupportedMediaType(header, streaming ? streamMediaTypes : mediaTypes);
}

export type PatchType =
  | 'application/json-patch+json'
  | 'application/merge-patch+json'
  | 'application/strategic-merge-patch+json'
  | 'application/apply-patch+yaml'
  | 'application/apply-patch+cbor';

export interface PatchTypeOptions {
  /** Strategic merge patch: built-in kinds only, not custom resources. */
  readonly strategic: boolean;
  /** The CBORServingAndStorage gate adds apply-patch+cbor. */
  readonly cbor?: boolean;
}

/** The patch types an endpoint accepts, in kube's order (also the 415 list). */
export function supportedPatchTypes(options: PatchTypeOptions): PatchType[] {
  const types: PatchType[] = ['application/json-patch+json', 'application/merge-patch+json'];
  if (options.strategic) types.push('application/strategic-merge-patch+json');
  types.push('application/apply-patch+yaml');
  if (options.cbor) types.push('application/apply-patch+cbor');
  return types;
}

/**
 * The patch type of a PATCH request, as patch.go reads it: the header up to
 * the first ";" (when not at the start), neither trimmed nor lower-cased, must
 * be one of `supported`; otherwise 415 listing them.
 */
export function patchTypeFor(contentType: string | null | undefined, supported: readonly PatchType[]): PatchType {
  let value = contentType ?? '';
  const semi = value.indexOf(';');
  if (semi > 0) value = value.slice(0, semi);
  if ((supported as readonly string[]).includes(value)) return value as PatchType;
  throw errors.unsupportedMediaType(value, supported);
}

/** The body encoding of a patch: apply-patch+yaml is YAML (JSON is YAML too), the others JSON. */
export function patchBodyMediaType(patchType: PatchType): 'application/json' | 'application/yaml' | 'application/cbor' {
  if (patchType === 'application/apply-patch+yaml') return 'application/yaml';
  if (patchType === 'application/apply-patch+cbor') return 'application/cbor';
  return 'application/json';
}
