// Response bodies in application/vnd.kubernetes.protobuf: a built-in object
// (as JSON) → `k8s\0` + runtime.Unknown{typeMeta, raw}. Custom resources have
// no protobuf form; a server negotiates another media type for them.

import { encodeEnvelope } from './envelope';
import { encodeMessage } from './message-encode';
import { protoMessageForKind } from './schema';

export { ProtoEncodeError } from './message-encode';

/** Whether objects of this apiVersion/kind can be served as protobuf (built-in kinds of 1.32). */
export function canEncodeProtobuf(apiVersion: string, kind: string): boolean {
  return protoMessageForKind(apiVersion, kind) !== undefined;
}

/**
 * Encodes a built-in object given as JSON. `apiVersion`/`kind` default to the
 * object's own. Throws an Error for a kind without a protobuf form (check
 * canEncodeProtobuf first) and a ProtoEncodeError for a value that does not
 * fit its field (a bad time or duration text, bad base64).
 */
export function encodeKubernetesProtobuf(object: Record<string, unknown>, apiVersion?: string, kind?: string): Uint8Array {
  const v = apiVersion ?? (typeof object['apiVersion'] === 'string' ? object['apiVersion'] : '');
  const k = kind ?? (typeof object['kind'] === 'string' ? object['kind'] : '');
  const message = protoMessageForKind(v, k);
  if (!message) throw new Error(`no protobuf message for kind ${JSON.stringify(k)} in version ${JSON.stringify(v)}`);
  return encodeEnvelope(v, k, encodeMessage(message, object));
}
