// The media types an endpoint lists (runtime.SerializerInfo), in kube's
// order. kube-apiserver 1.32 lists, for built-in and custom resources and
// for discovery alike: application/json, application/yaml,
// application/vnd.kubernetes.protobuf, then application/cbor when the
// CBORServingAndStorage gate is on. JSON and protobuf (and CBOR) can stream
// a watch; YAML cannot.
//
// KubeTab serves protobuf for the built-in kinds (src/core/protobuf). An
// endpoint or object without a protobuf form (custom resources, as kube's
// StandardSerializers leave it out) negotiates again with protobuf marked
// not servable: still listed, so the 406/415 messages read as kube's, but a
// protobuf clause falls through to the client's next alternative. See
// docs/decisions/0280-protobuf-responses.md.

export interface SerializerInfo {
  /** e.g. "application/json". */
  readonly mediaType: string;
  readonly type: string;
  readonly subType: string;
  /** Has a stream serializer (usable for watch). */
  readonly streaming: boolean;
  /** Has a pretty serializer (JSON only). */
  readonly pretty: boolean;
  /** KubeTab can encode and decode it. */
  readonly servable: boolean;
}

export const CONTENT_TYPE_JSON = 'application/json';
export const CONTENT_TYPE_YAML = 'application/yaml';
export const CONTENT_TYPE_PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const CONTENT_TYPE_CBOR = 'application/cbor';
export const CONTENT_TYPE_CBOR_SEQUENCE = 'application/cbor-seq';

function info(mediaType: string, streaming: boolean, pretty: boolean, servable: boolean): SerializerInfo {
  const [type, subType] = mediaType.split('/') as [string, string];
  return { mediaType, type, subType, streaming, pretty, servable };
}

const JSON_INFO = info(CONTENT_TYPE_JSON, true, true, true);
const YAML_INFO = info(CONTENT_TYPE_YAML, false, false, true);
const PROTOBUF_INFO = info(CONTENT_TYPE_PROTOBUF, true, false, true);
const PROTOBUF_UNSERVED = info(CONTENT_TYPE_PROTOBUF, true, false, false);

export interface SerializerOptions {
  /** The CBORServingAndStorage feature gate (alpha, off by default in 1.32). */
  readonly cbor?: boolean;
  /** Whether KubeTab can serve CBOR (encoder wired); listed either way when the gate is on. */
  readonly cborServable?: boolean;
  /**
   * Whether protobuf may be chosen (default true). False for what has no
   * protobuf form: custom resources (kube leaves protobuf out of their
   * StandardSerializers) and objects KubeTab cannot encode exactly.
   */
  readonly protobufServable?: boolean;
}

/** The serializers of a resource or discovery endpoint, in kube's order. */
export function supportedMediaTypes(options: SerializerOptions = {}): SerializerInfo[] {
  const list = [JSON_INFO, YAML_INFO, options.protobufServable === false ? PROTOBUF_UNSERVED : PROTOBUF_INFO];
  if (options.cbor) list.push(info(CONTENT_TYPE_CBOR, true, false, options.cborServable ?? false));
  return list;
}

/**
 * MediaTypesForSerializer: the plain list (406 for get/list and 415 for
 * bodies) and the streaming list (406 for watch, 415 for streaming bodies):
 * `<type>;stream=watch`, except CBOR which streams as application/cbor-seq.
 */
export function mediaTypesForSerializer(serializers: readonly SerializerInfo[]): { mediaTypes: string[]; streamMediaTypes: string[] } {
  const mediaTypes: string[] = [];
  const streamMediaTypes: string[] = [];
  for (const s of serializers) {
    mediaTypes.push(s.mediaType);
    if (!s.streaming) continue;
    streamMediaTypes.push(s.mediaType === CONTENT_TYPE_CBOR ? CONTENT_TYPE_CBOR_SEQUENCE : `${s.mediaType};stream=watch`);
  }
  return { mediaTypes, streamMediaTypes };
}
