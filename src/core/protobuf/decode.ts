// Request bodies in application/vnd.kubernetes.protobuf: the envelope, the
// kind lookup and the object's message decoded into the JSON a client would
// have sent, with kube-apiserver's 400 texts for anything it cannot decode.
//
// kube-apiserver's protobuf serializer fails in two ways, and the handler
// words them differently (transformDecodeError in k8s.io/apiserver):
// - before the envelope's kind is known (no prefix, empty, a bad Unknown):
//   `the object provided is unrecognized (must be of type K): ERR (SUMMARY)`;
// - once it is known (unregistered kind, bad object bytes):
//   `KIND in version "V" cannot be handled as a K: ERR`.

import { errors, StatusError } from '../errors/status';
import { decodeEnvelope, hasProtobufMagic, PROTOBUF_MAGIC } from './envelope';
import { decodeMessage, type DecodeContext, type JsonObject } from './message-decode';
import { protoMessageForKind } from './schema';
import type { GroupVersionKind } from './types';
import { ProtoDecodeError } from './wire';

export interface DecodedProtobufObject {
  readonly apiVersion: string;
  readonly kind: string;
  /** The object as JSON, `apiVersion` and `kind` included. */
  readonly object: Record<string, unknown>;
}

/** The scheme name kube-apiserver prints in "no kind is registered" errors for built-in types. */
const LEGACY_SCHEME = 'pkg/api/legacyscheme/scheme.go:30';

/** summarizeData(body, 30) of k8s.io/apiserver's handlers: JSON text or hex, cut at 30 bytes. */
function summarizeData(data: Uint8Array, maxLength = 30): string {
  if (data.length === 0) return '<empty>';
  const cut = data.length > maxLength;
  const part = cut ? data.subarray(0, maxLength) : data;
  const text = data[0] === 0x7b ? new TextDecoder().decode(part) : Array.from(part, (b) => b.toString(16).padStart(2, '0')).join('');
  return cut ? `${text} ...` : text;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  if (slash === -1) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function formatApiVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** The failure before the kind is known. */
function unrecognized(message: string, bytes: Uint8Array, expected?: GroupVersionKind): StatusError {
  if (!expected) return errors.badRequest(message);
  return errors.badRequest(`the object provided is unrecognized (must be of type ${expected.kind}): ${message} (${summarizeData(bytes)})`);
}

/** The failure once the kind is known. */
function cannotHandle(kind: string, version: string, message: string, expected?: GroupVersionKind): StatusError {
  if (!expected) return errors.badRequest(message);
  return errors.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${expected.kind}: ${message}`);
}

const nestedContext: DecodeContext = {
  nested: (bytes) => decodeKubernetesProtobuf(bytes).object as JsonObject,
};

/**
 * Decodes a Kubernetes protobuf body (`k8s\0` + runtime.Unknown) into the
 * JSON object a client would have sent for the same Go struct.
 *
 * `expected` is the endpoint's group/version/kind: it fills a missing kind or
 * version in the envelope (as kube's copyKindDefaults does) and words the
 * errors as kube-apiserver's create/update handlers do. A kind other than the
 * expected one is decoded as that kind and returned; the caller's type-meta
 * check reports the mismatch like it does for JSON.
 *
 * Throws a 400 StatusError for a body that is not a protobuf envelope, an
 * unknown kind (custom resources have no protobuf form) or bad object bytes.
 */
export function decodeKubernetesProtobuf(bytes: Uint8Array, expected?: GroupVersionKind): DecodedProtobufObject {
  if (bytes.length === 0) throw unrecognized('empty data', bytes, expected);
  if (!hasProtobufMagic(bytes)) {
    throw unrecognized(`provided data does not appear to be a protobuf message, expected prefix [${Array.from(PROTOBUF_MAGIC).join(' ')}]`, bytes, expected);
  }
  if (bytes.length === PROTOBUF_MAGIC.length) throw unrecognized('empty body', bytes, expected);

  let envelope;
  try {
    envelope = decodeEnvelope(bytes);
  } catch (err) {
    if (err instanceof ProtoDecodeError) throw unrecognized(err.message, bytes, expected);
    throw err;
  }

  // copyKindDefaults: the endpoint's kind and group/version fill what the envelope leaves empty.
  let { group, version } = splitApiVersion(envelope.apiVersion);
  let kind = envelope.kind;
  if (expected) {
    if (!kind) kind = expected.kind;
    if (!version && expected.version) {
      group = expected.group;
      version = expected.version;
    }
  }
  const typeMetaText = `runtime.TypeMeta{APIVersion:${goQuote(envelope.apiVersion)}, Kind:${goQuote(envelope.kind)}}`;
  if (!kind) throw unrecognized(`Object 'Kind' is missing in '${typeMetaText}'`, bytes, expected);
  if (!version) throw cannotHandle(kind, version, `Object 'apiVersion' is missing in '${typeMetaText}'`, expected);

  const apiVersion = formatApiVersion(group, version);
  const message = protoMessageForKind(apiVersion, kind);
  if (!message) {
    throw cannotHandle(kind, version, `no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme ${goQuote(LEGACY_SCHEME)}`, expected);
  }

  let decoded;
  try {
    decoded = decodeMessage(message, envelope.raw, nestedContext) as JsonObject;
  } catch (err) {
    if (err instanceof ProtoDecodeError) throw cannotHandle(kind, version, err.message, expected);
    throw err;
  }
  const object: Record<string, unknown> = { apiVersion, kind, ...decoded };
  return { apiVersion, kind, object };
}
