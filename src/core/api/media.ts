// The output formats a handler can produce and how they are encoded. The
// Accept header parsing itself lives in ./negotiation; this module maps its
// result onto what the handlers need.

import { errors } from '../errors/status';
import {
  CONTENT_TYPE_PROTOBUF,
  CONTENT_TYPE_YAML,
  DEFAULT_ENDPOINT_RESTRICTIONS,
  DISCOVERY_ENDPOINT_RESTRICTIONS,
  encodeJson as goEncodeJson,
  encodeYaml as goEncodeYaml,
  isAggregatedDiscoveryGVK,
  negotiateErrorOutput,
  negotiateMediaTypeOptions,
  negotiateResponse,
  resourceEndpointRestrictions,
  supportedMediaTypes,
} from './negotiation';

export type OutputAs = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList' | 'APIGroupDiscoveryList';

export interface OutputFormat {
  /** The Content-Type to send. */
  readonly contentType: string;
  readonly encoding: 'json' | 'yaml' | 'protobuf';
  /** A transformed representation the client asked for. */
  readonly as?: OutputAs;
  /** Version of the transformed representation (v1 / v1beta1 for Table, v2 / v2beta1 for discovery). */
  readonly asVersion?: string;
  readonly pretty: boolean;
  /**
   * Protobuf only: the format the same Accept gives with protobuf not
   * servable — what kube negotiates for an endpoint or type without a
   * protobuf form (custom resources). Absent when nothing else is
   * acceptable: such a response is kube's 406.
   */
  readonly withoutProtobuf?: OutputFormat;
  /**
   * How a Status error is written when this format carries a transform:
   * kube negotiates errors again with no transform allowed
   * (responsewriters.ErrorNegotiated); undefined when that fails too, and
   * the Status is written as indented JSON.
   */
  readonly errorFormat?: OutputFormat;
}

export interface OutputOffers {
  /** Table and PartialObjectMetadata (resource GETs). */
  readonly transforms?: boolean;
  /** Aggregated discovery (/api, /apis). */
  readonly aggregatedDiscovery?: boolean;
  /** Watch streams answer application/json;stream=watch. */
  readonly watch?: boolean;
}

/** The media types kube-apiserver lists in its 406 message. */
export const SERVED_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

export interface OutputRequest {
  readonly accept: string | null;
  /** The first `pretty` query value. */
  readonly pretty: string | null;
  readonly userAgent: string | null;
}

function restrictionsFor(offers: OutputOffers) {
  if (offers.transforms) return resourceEndpointRestrictions();
  if (offers.aggregatedDiscovery) return DISCOVERY_ENDPOINT_RESTRICTIONS;
  return DEFAULT_ENDPOINT_RESTRICTIONS;
}

function encodingOf(mediaType: string): OutputFormat['encoding'] {
  if (mediaType === CONTENT_TYPE_YAML) return 'yaml';
  if (mediaType === CONTENT_TYPE_PROTOBUF) return 'protobuf';
  return 'json';
}

function negotiateWith(request: OutputRequest, offers: OutputOffers, protobufServable: boolean): OutputFormat {
  const serializers = supportedMediaTypes({ cbor: false, protobufServable });
  let restrictions = restrictionsFor(offers);
  // /api and /apis (WrapAggregatedDiscoveryToHandler): the aggregated document when a clause asks for
  // it, otherwise the legacy document, negotiated with no transform allowed (`application/json` is fine).
  if (offers.aggregatedDiscovery && !isAggregatedDiscoveryGVK(negotiateMediaTypeOptions(request.accept, serializers, restrictions)?.convert)) {
    restrictions = DEFAULT_ENDPOINT_RESTRICTIONS;
  }
  const negotiated = negotiateResponse(request, serializers, {
    restrictions,
    watch: offers.watch,
    withGVKInContentType: offers.aggregatedDiscovery,
  });
  const encoding = encodingOf(negotiated.serializer.mediaType);
  const convert = negotiated.options.convert;
  const format: OutputFormat = { contentType: negotiated.contentType, encoding, pretty: negotiated.pretty };
  if (convert && convert.kind) {
    const as = convert.kind as OutputAs;
    if (as === 'Table' || as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
      // Protobuf transforms (PartialObjectMetadata; never Table in 1.32) name no kind in the Content-Type: the envelope does.
      const contentType = encoding === 'protobuf' ? negotiated.contentType : `application/json;as=${as};g=meta.k8s.io;v=${convert.version}`;
      return { ...format, as, asVersion: convert.version, contentType };
    }
    if (as === 'APIGroupDiscoveryList') return { ...format, as, asVersion: convert.version };
  }
  return format;
}

/** ErrorNegotiated's format: the same Accept with no transform allowed; undefined when nothing fits. */
function errorFormatFor(request: OutputRequest): OutputFormat | undefined {
  const out = negotiateErrorOutput(request, supportedMediaTypes({ cbor: false }));
  if (!out.serializer) return undefined;
  return { contentType: out.contentType, encoding: encodingOf(out.serializer.mediaType), pretty: out.pretty };
}

/**
 * Chooses the response format from Accept with kube-apiserver's negotiation
 * (./negotiation): the first acceptable media type in the client's order
 * (q-values first), protobuf included. When protobuf is chosen the format
 * carries `withoutProtobuf`, the choice for what has no protobuf form (kube
 * negotiates custom resources without it); clauses for media types KubeTab
 * does not produce (cbor while its gate is off) fall through to the client's
 * next alternative; nothing acceptable is a 406.
 */
export function negotiateOutput(request: OutputRequest, offers: OutputOffers = {}): OutputFormat {
  let format = negotiateWith(request, offers, true);
  if (format.encoding === 'protobuf') {
    let withoutProtobuf: OutputFormat | undefined;
    try {
      withoutProtobuf = negotiateWith(request, offers, false);
    } catch {
      // Protobuf was the only acceptable type: without it, a 406.
    }
    if (withoutProtobuf) format = { ...format, withoutProtobuf };
  }
  if (format.as) {
    const errorFormat = errorFormatFor(request);
    if (errorFormat) format = { ...format, errorFormat };
  }
  return format;
}

/**
 * The format for a response whose object has no protobuf form: the format
 * itself unless it is protobuf, else the client's next alternative, else
 * kube's 406 (the full list, as kube prints it for custom resources).
 */
export function withoutProtobuf(format: OutputFormat): OutputFormat {
  if (format.encoding !== 'protobuf') return format;
  if (format.withoutProtobuf) return format.withoutProtobuf;
  throw errors.notAcceptable(SERVED_MEDIA_TYPES);
}

/** JSON as Go's encoding/json writes it: compact with a trailing newline, or indented without one. */
export function encodeJson(value: unknown, pretty: boolean): string {
  return goEncodeJson(value, { pretty });
}

/** YAML as sigs.k8s.io/yaml writes it (go-yaml v2: keys sorted, its quoting and folding). */
export function encodeYaml(value: unknown): string {
  return goEncodeYaml(value);
}

/** A text body (JSON or YAML); protobuf bodies are built by respond.ts, which falls back here for objects without a protobuf form. */
export function encodeOutput(value: unknown, format: OutputFormat): string {
  return format.encoding === 'yaml' ? encodeYaml(value) : encodeJson(value, format.pretty);
}

export function prettyParam(query: URLSearchParams): string | null {
  return query.get('pretty');
}
