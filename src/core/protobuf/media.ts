// The protobuf media type as kube-apiserver names and matches it.

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
/** The streaming form (watch) — length-prefixed frames of the same envelope. */
export const PROTOBUF_STREAM_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';

/**
 * Whether a Content-Type header names the Kubernetes protobuf encoding
 * (`application/vnd.kubernetes.protobuf`, any parameters, any case).
 */
export function isProtobufMediaType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  return contentType.split(';')[0]!.trim().toLowerCase() === PROTOBUF_MEDIA_TYPE;
}
