// The media types an endpoint lists (runtime.SerializerInfo), in kube's
// order. kube-apiserver 1.32 lists, for built-in and custom resources and
// for discovery alike: application/json, application/yaml,
// application/vnd.kubernetes.protobuf, then application/cbor when the
// CBORServingAndStorage gate is on. JSON and protobuf (and CBOR) can stream
// a watch; YAML cannot.
//
// KubeTab does not produce protobuf. It is still listed, so the 406/415
// messages read exactly as kube's, but it is never chosen: a client that
// asks for protobuf with a JSON fallback (kubectl, client-go) gets JSON.
// See docs/decisions/0060-protobuf-listed-not-served.md.

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
const PROTOBUF_INFO = info(CONTENT_TYPE_PROTOBUF, true, false, false);

export interface SerializerOptions {
  /** The CBORServingAndStorage feature gate (alpha, off by default in 1.32). */
  readonly cbor?: boolean;
  /** Whether KubeTab can serve CBOR (encoder wired); listed either way when the gate is on. */
  readonly cborServable?: boolean;
}

/** The serializers of a resource or discovery endpoint, in kube's order. */
export function supportedMediaTypes(options: SerializerOptions = {}): SerializerInfo[] {
  const list = [JSON_INFO, YAML_INFO, PROTOBUF_INFO];
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
