// Watch streams in application/vnd.kubernetes.protobuf;stream=watch.
//
// kube's protobuf stream serializer is the *raw* serializer (no `k8s\0`
// envelope) framed by a 4-byte big-endian length: each frame is a bare
// metav1.WatchEvent {type(1), object(2) RawExtension{raw(1)}}, and the raw
// bytes are the object encoded with the ordinary (enveloped) serializer.

import { encodeKubernetesProtobuf } from './encode';
import { ProtoWriter } from './wire';

const utf8 = new TextEncoder();

/** One frame of a protobuf watch stream for an event ("ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"). */
export function encodeProtobufWatchEvent(type: string, object: Record<string, unknown>): Uint8Array {
  const objectBytes = encodeKubernetesProtobuf(object);
  const raw = new ProtoWriter().tag(1, 2).lengthDelimited(objectBytes).finish();
  const event = new ProtoWriter();
  event.tag(1, 2).lengthDelimited(utf8.encode(type));
  event.tag(2, 2).lengthDelimited(raw);
  const body = event.finish();
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setUint32(0, body.length, false);
  frame.set(body, 4);
  return frame;
}
