// What the API handlers need to answer in application/vnd.kubernetes.protobuf:
// whether a kind is served in protobuf, an object's message bytes (a list
// item: no envelope, no type meta), and a list's envelope around ready item
// bytes, so that a long list can be streamed without one big buffer.

import { encodeEnvelope, PROTOBUF_MAGIC } from './envelope';
import { encodeMessage } from './message-encode';
import { fieldMessage, protoMessageForKind } from './schema';
import { ProtoWriter } from './wire';

/**
 * Kinds whose protobuf KubeTab could not write byte for byte as kube does.
 * They answer the client's next acceptable media type instead, as kube does
 * for types without protobuf (decision 0280). Keys are `apiVersion/kind`.
 * Empty: every kind's round trip holds (protobuf/serve.test.ts).
 */
const REFUSED: ReadonlySet<string> = new Set<string>();

/** Whether objects of this apiVersion/kind are answered in protobuf (built-in kinds of 1.32 and the meta.k8s.io transforms). */
export function canServeProtobuf(apiVersion: string, kind: string): boolean {
  return protoMessageForKind(apiVersion, kind) !== undefined && !REFUSED.has(`${apiVersion}/${kind}`);
}

/**
 * Documents kube writes with a kind and no apiVersion (legacy discovery:
 * `/api` APIVersions and `/api/v1` APIResourceList). The protobuf envelope
 * carries the same type meta as the JSON, so its apiVersion is empty; the
 * message is meta/v1's.
 */
const WITHOUT_API_VERSION: ReadonlySet<string> = new Set(['APIVersions', 'APIResourceList']);

/**
 * The protobuf response body of an object (`k8s\0` + Unknown), or undefined
 * when it has no protobuf form: custom resources, unknown kinds, refused kinds.
 * Throws ProtoEncodeError for a value that does not fit its message.
 */
export function encodeProtobufResponse(object: Record<string, unknown>): Uint8Array | undefined {
  const apiVersion = object['apiVersion'];
  const kind = object['kind'];
  if (typeof kind !== 'string') return undefined;
  if (apiVersion === undefined && WITHOUT_API_VERSION.has(kind)) {
    return encodeEnvelope('', kind, encodeMessage(messageFor('v1', kind), object));
  }
  if (typeof apiVersion !== 'string' || !canServeProtobuf(apiVersion, kind)) return undefined;
  return encodeEnvelope(apiVersion, kind, encodeMessage(messageFor(apiVersion, kind), object));
}

function messageFor(apiVersion: string, kind: string) {
  const message = protoMessageForKind(apiVersion, kind);
  if (!message) throw new Error(`no protobuf message for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`);
  return message;
}

/** The object's own message bytes (what a list holds for each item). */
export function encodeProtobufItem(apiVersion: string, kind: string, object: Record<string, unknown>): Uint8Array {
  return encodeMessage(messageFor(apiVersion, kind), object);
}

/**
 * A list response as consecutive byte parts: `k8s\0`, the Unknown's type
 * meta and raw-length header with the list's metadata, then each item's
 * field header and bytes, then the Unknown's empty contentEncoding and
 * contentType. Concatenated they are encodeKubernetesProtobuf(list); the
 * items are not copied. The list message must be {metadata=1, items=2}
 * (every List kind is; the meta.k8s.io/v1beta1 transform is not and goes
 * through encodeKubernetesProtobuf).
 */
export function protobufListParts(apiVersion: string, listKind: string, listMeta: Record<string, unknown>, items: readonly Uint8Array[]): Uint8Array[] {
  const list = messageFor(apiVersion, listKind);
  const metaField = list.byNumber.get(1);
  const itemsField = list.byNumber.get(2);
  if (metaField?.json !== 'metadata' || itemsField?.json !== 'items' || !itemsField.repeated) {
    throw new Error(`protobuf: ${apiVersion} ${listKind} is not a {metadata=1, items=2} list`);
  }
  // The envelope with an empty raw gives the type meta and tail bytes exactly as encodeEnvelope writes them.
  const empty = encodeEnvelope(apiVersion, listKind, new Uint8Array(0));
  const typeMeta = empty.subarray(PROTOBUF_MAGIC.length, empty.length - 6); // the type meta field; 12 00 (raw) follows
  const tail = empty.subarray(empty.length - 4); // 1a 00 22 00
  const metaBytes = new ProtoWriter().tag(1, 2).lengthDelimited(encodeMessage(fieldMessage(metaField), listMeta)).finish();
  const prefixes = items.map((item) => new ProtoWriter().tag(2, 2).varint(item.length).finish());
  let rawLength = metaBytes.length;
  for (let i = 0; i < items.length; i++) rawLength += prefixes[i]!.length + items[i]!.length;
  const head = new ProtoWriter().raw(PROTOBUF_MAGIC).raw(typeMeta).tag(2, 2).varint(rawLength).raw(metaBytes).finish();
  const parts: Uint8Array[] = [head];
  for (let i = 0; i < items.length; i++) parts.push(prefixes[i]!, items[i]!);
  parts.push(tail);
  return parts;
}
