// Kubernetes protobuf encoding of the 1.32 built-in kinds (decode for request
// bodies, encode for responses). See docs/decisions/0090-protobuf.md.

export { decodeKubernetesProtobuf, type DecodedProtobufObject } from './decode';
export { canEncodeProtobuf, encodeKubernetesProtobuf, ProtoEncodeError } from './encode';
export { hasProtobufMagic, PROTOBUF_MAGIC } from './envelope';
export { isProtobufMediaType, PROTOBUF_MEDIA_TYPE, PROTOBUF_STREAM_MEDIA_TYPE } from './media';
export { encodeProtobufWatchEvent } from './watch';
export { canServeProtobuf, encodeProtobufItem, encodeProtobufResponse, protobufListParts } from './serve';
export type { GroupVersionKind } from './types';
