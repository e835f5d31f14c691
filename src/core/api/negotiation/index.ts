// Content negotiation and request/response codecs as kube-apiserver 1.32
// does them (k8s.io/apiserver/pkg/endpoints/handlers/negotiation and the
// JSON/YAML serializers). Handlers:
// - response: negotiateResponse(request, supportedMediaTypes({cbor}), {restrictions, watch})
//   → { serializer, pretty, contentType } or a thrown 406 StatusError; errors
//   use negotiateErrorOutput;
// - encode: encodeJson(value, {pretty, sortKeys}) / encodeYaml(value);
// - request body: negotiateInputSerializer(contentType, serializers) (415),
//   patchTypeFor(contentType, supportedPatchTypes({strategic})) (415), then
//   decodeBody / decodeObjectBody (400 with kube's texts).

export { parseAccept, type AcceptClause } from './accept';
export { parseMediaType, type MediaType } from './media-type';
export {
  supportedMediaTypes,
  mediaTypesForSerializer,
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_YAML,
  CONTENT_TYPE_PROTOBUF,
  CONTENT_TYPE_CBOR,
  CONTENT_TYPE_CBOR_SEQUENCE,
  type SerializerInfo,
  type SerializerOptions,
} from './serializers';
export {
  DEFAULT_ENDPOINT_RESTRICTIONS,
  DISCOVERY_ENDPOINT_RESTRICTIONS,
  resourceEndpointRestrictions,
  isAggregatedDiscoveryGVK,
  type EndpointRestrictions,
  type GroupVersionKind,
  type ResourceEndpointOptions,
} from './restrictions';
export {
  negotiateMediaTypeOptions,
  negotiateOutputMediaType,
  negotiateWatch,
  negotiateErrorOutput,
  negotiateResponse,
  isPrettyPrint,
  type MediaTypeOptions,
  type NegotiationRequest,
  type NegotiatedOutput,
  type NegotiatedWatch,
  type ErrorOutput,
  type NegotiateResponseOptions,
} from './negotiate';
export {
  parseContentType,
  negotiateInputSerializer,
  supportedPatchTypes,
  patchTypeFor,
  patchBodyMediaType,
  type PatchType,
  type PatchTypeOptions,
} from './content-type';
export { encodeJson, type JsonEncodeOptions } from './json-encode';
export { compareGoStrings } from '../../util/go/strings';
export { encodeYaml, compareYamlKeys } from './yaml-encode';
export { decodeJson, JsonSyntaxError, type DecodedJson } from './json-decode';
export { decodeYaml, YamlDecodeError, type DecodedYaml } from './yaml-decode';
export { resolvePlain, isYamlTimestamp, resolvesToNonString } from './yaml-resolve';
export { formatFloatG } from '../../util/go/format-float';
export {
  decodeBody,
  decodeObjectBody,
  interpretTypeMeta,
  summarizeBody,
  decodeErrorStatus,
  BodyDecodeError,
  type DecodedBody,
  type DecodedObjectBody,
  type BodyMediaType,
  type TypeMeta,
  type DecodeErrorContext,
} from './decode';
