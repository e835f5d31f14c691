// Choosing the response encoding from Accept, as kube-apiserver 1.32 does
// (k8s.io/apiserver/pkg/endpoints/handlers/negotiation):
// - no Accept header: the first serializer (JSON);
// - otherwise clauses in goautoneg order; for each clause the serializers in
//   order; a serializer matches `type/subtype`, `type/*` or `*/*`; the first
//   match whose parameters the endpoint allows wins;
// - nothing fits: 406 NotAcceptable listing the serializers' media types.
// KubeTab skips serializers marked not servable (CBOR without its encoder,
// protobuf for what has no protobuf form), so a clause for them falls
// through to the client's next alternative.

import { errors } from '../../errors/status';
import { parseAccept } from './accept';
import { DEFAULT_ENDPOINT_RESTRICTIONS, type EndpointRestrictions, type GroupVersionKind } from './restrictions';
import { CONTENT_TYPE_CBOR, CONTENT_TYPE_CBOR_SEQUENCE, CONTENT_TYPE_JSON, mediaTypesForSerializer, type SerializerInfo } from './serializers';

/** negotiation.MediaTypeOptions. */
export interface MediaTypeOptions {
  /** `pretty=1` in the media type. */
  readonly pretty: boolean;
  /** `stream=<schema>`; only "watch" is allowed. */
  readonly stream: string;
  /** `as`, `g`, `v`: a transformed representation (Table, PartialObjectMetadata…). */
  readonly convert?: GroupVersionKind;
  /** `sv`. */
  readonly useServerVersion: string;
  /** `export=1`. */
  readonly export: boolean;
  /** Parameter names kube does not know (ignored, as kube does). */
  readonly unrecognized: readonly string[];
  /** The serializer chosen. */
  readonly accepted: SerializerInfo;
}

function acceptMediaTypeOptions(params: Readonly<Record<string, string>>, accepts: SerializerInfo, endpoint: EndpointRestrictions): MediaTypeOptions | undefined {
  let pretty = false;
  let stream = '';
  let useServerVersion = '';
  let exportParam = false;
  let convert: { group: string; version: string; kind: string } | undefined;
  const unrecognized: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    switch (k) {
      case 'as':
        convert ??= { group: '', version: '', kind: '' };
        convert.kind = v;
        break;
      case 'g':
        convert ??= { group: '', version: '', kind: '' };
        convert.group = v;
        break;
      case 'v':
        convert ??= { group: '', version: '', kind: '' };
        convert.version = v;
        break;
      case 'stream':
        if (v.length > 0 && (!accepts.streaming || !endpoint.allowsStreamSchema(v))) return undefined;
        stream = v;
        break;
      case 'sv':
        if (v.length > 0 && !endpoint.allowsServerVersion(v)) return undefined;
        useServerVersion = v;
        break;
      case 'export':
        exportParam = v === '1';
        break;
      case 'pretty':
        pretty = v === '1';
        break;
      default:
        unrecognized.push(k);
    }
  }
  if (!endpoint.allowsMediaTypeTransform(accepts.type, accepts.subType, convert)) return undefined;
  return { pretty, stream, convert, useServerVersion, export: exportParam, unrecognized, accepted: accepts };
}

/**
 * NegotiateMediaTypeOptions: the first acceptable (clause, serializer) pair,
 * or undefined when none is. An absent or empty Accept takes the first servable serializer.
 */
export function negotiateMediaTypeOptions(
  accept: string | null | undefined,
  serializers: readonly SerializerInfo[],
  endpoint: EndpointRestrictions,
): MediaTypeOptions | undefined {
  const servable = serializers.filter((s) => s.servable);
  if (!accept) {
    const first = servable[0];
    return first && { pretty: false, stream: '', useServerVersion: '', export: false, unrecognized: [], accepted: first };
  }
  for (const clause of parseAccept(accept)) {
    for (const s of servable) {
      const matches =
        (clause.type === s.type && clause.subType === s.subType) ||
        (clause.type === s.type && clause.subType === '*') ||
        (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const options = acceptMediaTypeOptions(clause.params, s, endpoint);
      if (options) return options;
    }
  }
  return undefined;
}

/** strconv.ParseBool. */
function parseBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/**
 * isPrettyPrint: a non-empty `pretty` query parameter decides (ParseBool,
 * anything unparsable is false); otherwise curl, Wget and browsers
 * (User-Agent starting with "Mozilla/5.0") get indented JSON.
 */
export function isPrettyPrint(prettyQuery: string | null | undefined, userAgent: string | null | undefined): boolean {
  if (prettyQuery) return parseBool(prettyQuery) ?? false;
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

/** What a handler needs from the request to negotiate. */
export interface NegotiationRequest {
  readonly accept: string | null | undefined;
  /** The first value of the `pretty` query parameter. */
  readonly pretty?: string | null;
  readonly userAgent?: string | null;
}

export interface NegotiatedOutput {
  readonly serializer: SerializerInfo;
  readonly options: MediaTypeOptions;
  /** Indented JSON (MarshalIndent, two spaces, no trailing newline). */
  readonly pretty: boolean;
  /** The Content-Type header value to send. */
  readonly contentType: string;
}

/**
 * NegotiateOutputMediaType: the encoding of a get/list/create/update/patch/
 * delete response. Throws kube's 406 when nothing in Accept can be served.
 * `withGVKInContentType` appends `;g=…;v=…;as=…` (aggregated discovery does).
 */
export function negotiateOutputMediaType(
  request: NegotiationRequest,
  serializers: readonly SerializerInfo[],
  endpoint: EndpointRestrictions,
  withGVKInContentType = false,
): NegotiatedOutput {
  const options = negotiateMediaTypeOptions(request.accept, serializers, endpoint);
  if (!options) throw errors.notAcceptable(mediaTypesForSerializer(serializers).mediaTypes);
  const serializer = options.accepted;
  const pretty = (options.pretty || isPrettyPrint(request.pretty, request.userAgent)) && serializer.pretty;
  let contentType = serializer.mediaType;
  if (withGVKInContentType && options.convert) {
    const { group, version, kind } = options.convert;
    if (group) contentType += `;g=${group}`;
    if (version) contentType += `;v=${version}`;
    if (kind) contentType += `;as=${kind}`;
  }
  return { serializer, options, pretty, contentType };
}

export interface NegotiatedWatch {
  /** The response negotiation that precedes the watch (its transform applies to each event's object). */
  readonly options: MediaTypeOptions;
  /** The stream serializer. */
  readonly serializer: SerializerInfo;
  /** application/json for JSON (as kube sends it), application/cbor-seq for CBOR, `<type>;stream=watch` otherwise. */
  readonly contentType: string;
}

/**
 * A watch negotiates twice, as kube's ListResource then serveWatch do: first
 * like any response (406 with the plain list), then for a stream serializer
 * from the same Accept (406 with the streaming list). The first clause that
 * fits wins even when it cannot stream: `Accept: application/yaml,
 * application/json` on a watch is a 406.
 */
export function negotiateWatch(request: NegotiationRequest, serializers: readonly SerializerInfo[], endpoint: EndpointRestrictions): NegotiatedWatch {
  const { options } = negotiateOutputMediaType(request, serializers, endpoint);
  const streamOptions = negotiateMediaTypeOptions(request.accept, serializers, endpoint);
  if (!streamOptions || !streamOptions.accepted.streaming) {
    throw errors.notAcceptable(mediaTypesForSerializer(serializers).streamMediaTypes);
  }
  const serializer = streamOptions.accepted;
  let contentType: string;
  if (serializer.mediaType === CONTENT_TYPE_JSON) contentType = CONTENT_TYPE_JSON;
  else if (serializer.mediaType === CONTENT_TYPE_CBOR) contentType = CONTENT_TYPE_CBOR_SEQUENCE;
  else contentType = `${serializer.mediaType};stream=watch`;
  return { options, serializer, contentType };
}

export interface ErrorOutput {
  readonly serializer?: SerializerInfo;
  readonly pretty: boolean;
  readonly contentType: string;
}

/**
 * How a Status is written (responsewriters.ErrorNegotiated): negotiated with
 * no transforms allowed; when that fails too (a client accepting only
 * `…;as=Table` or only protobuf), kube writes the Status as indented JSON
 * (WriteRawJSON) with Content-Type application/json.
 */
export function negotiateErrorOutput(request: NegotiationRequest, serializers: readonly SerializerInfo[]): ErrorOutput {
  const options = negotiateMediaTypeOptions(request.accept, serializers, DEFAULT_ENDPOINT_RESTRICTIONS);
  if (!options) return { pretty: true, contentType: CONTENT_TYPE_JSON };
  const serializer = options.accepted;
  const pretty = (options.pretty || isPrettyPrint(request.pretty, request.userAgent)) && serializer.pretty;
  return { serializer, pretty, contentType: serializer.mediaType };
}

export interface NegotiateResponseOptions {
  readonly restrictions?: EndpointRestrictions;
  /** The request is a watch: negotiate a stream serializer too. */
  readonly watch?: boolean;
  /** Put `;g=;v=;as=` of the transform into the Content-Type (aggregated discovery). */
  readonly withGVKInContentType?: boolean;
}

/**
 * One call for handlers: the response encoding for `accept` among `offers`
 * (from supportedMediaTypes()), or kube's 406 StatusError. `request` may be
 * just the Accept header.
 */
export function negotiateResponse(
  request: NegotiationRequest | string | null | undefined,
  offers: readonly SerializerInfo[],
  options: NegotiateResponseOptions = {},
): NegotiatedOutput {
  if (request === null || request === undefined || typeof request === 'string') request = { accept: request };
  const restrictions = options.restrictions ?? DEFAULT_ENDPOINT_RESTRICTIONS;
  if (options.watch) {
    const w = negotiateWatch(request, offers, restrictions);
    return { serializer: w.serializer, options: w.options, pretty: false, contentType: w.contentType };
  }
  return negotiateOutputMediaType(request, offers, restrictions, options.withGVKInContentType ?? false);
}
