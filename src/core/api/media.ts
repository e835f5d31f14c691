// The output formats a handler can produce and how they are encoded. The
// Accept header parsing itself lives in ./negotiation; this module maps its
// result onto what the handlers need.

import {
  DEFAULT_ENDPOINT_RESTRICTIONS,
  DISCOVERY_ENDPOINT_RESTRICTIONS,
  encodeJson as goEncodeJson,
  encodeYaml as goEncodeYaml,
  negotiateResponse,
  resourceEndpointRestrictions,
  supportedMediaTypes,
} from './negotiation';

export type OutputAs = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList' | 'APIGroupDiscoveryList';

export interface OutputFormat {
  /** The Content-Type to send. */
  readonly contentType: string;
  readonly encoding: 'json' | 'yaml';
  /** A transformed representation the client asked for. */
  readonly as?: OutputAs;
  /** Version of the transformed representation (v1 / v1beta1 for Table, v2 / v2beta1 for discovery). */
  readonly asVersion?: string;
  readonly pretty: boolean;
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

/**
 * Chooses the response format from Accept with kube-apiserver's negotiation
 * (./negotiation): clauses for media types KubeTab does not produce
 * (protobuf, cbor while its gate is off) fall through to the client's next
 * alternative; nothing acceptable is a 406.
 */
export function negotiateOutput(request: OutputRequest, offers: OutputOffers = {}): OutputFormat {
  const negotiated = negotiateResponse(request, supportedMediaTypes({ cbor: false }), {
    restrictions: restrictionsFor(offers),
    watch: offers.watch,
    withGVKInContentType: offers.aggregatedDiscovery,
  });
  const encoding = negotiated.serializer.mediaType === 'application/yaml' ? 'yaml' : 'json';
  const convert = negotiated.options.convert;
  const format: OutputFormat = { contentType: negotiated.contentType, encoding, pretty: negotiated.pretty };
  if (convert && convert.kind) {
    const as = convert.kind as OutputAs;
    if (as === 'Table' || as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
      return { ...format, as, asVersion: convert.version, contentType: `application/json;as=${as};g=meta.k8s.io;v=${convert.version}` };
    }
    if (as === 'APIGroupDiscoveryList') return { ...format, as, asVersion: convert.version };
  }
  return format;
}

/** JSON as Go's encoding/json writes it: compact with a trailing newline, or indented without one. */
export function encodeJson(value: unknown, pretty: boolean): string {
  return goEncodeJson(value, { pretty });
}

/** YAML as sigs.k8s.io/yaml writes it (go-yaml v2: keys sorted, its quoting and folding). */
export function encodeYaml(value: unknown): string {
  return goEncodeYaml(value);
}

export function encodeOutput(value: unknown, format: OutputFormat): string {
  return format.encoding === 'yaml' ? encodeYaml(value) : encodeJson(value, format.pretty);
}

export function prettyParam(query: URLSearchParams): string | null {
  return query.get('pretty');
}
