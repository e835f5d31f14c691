// The Kubernetes protobuf envelope: the magic prefix `k8s\0` followed by a
// runtime.Unknown message {typeMeta(1){apiVersion(1), kind(2)}, raw(2),
// contentEncoding(3), contentType(4)}; raw holds the object's own message.

import { ProtoDecodeError, ProtoReader, ProtoWriter } from './wire';

export const PROTOBUF_MAGIC: Readonly<Uint8Array> = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

export function hasProtobufMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00;
}

const utf8 = new TextDecoder();

/** Checks a tag the way gogo's generated Unmarshal does; returns [fieldNumber, wireType]. */
export function readTag(reader: ProtoReader, messageName: string): [number, number] {
  const wire = reader.varint();
  const big = typeof wire === 'bigint';
  const wireType = big ? Number(wire & 7n) : wire & 7;
  // gogo converts the field number to int32.
  const fieldNumber = big ? Number(BigInt.asIntN(32, wire >> 3n)) : Math.floor(wire / 8) | 0;
  if (wireType === 4) throw new ProtoDecodeError(`proto: ${messageName}: wiretype end group for non-group`);
  if (fieldNumber <= 0) throw new ProtoDecodeError(`proto: ${messageName}: illegal tag ${fieldNumber} (wire type ${wire})`);
  return [fieldNumber, wireType];
}

function expectBytes(wireType: number, goName: string): void {
  if (wireType !== 2) throw new ProtoDecodeError(`proto: wrong wireType = ${wireType} for field ${goName}`);
}

function decodeTypeMeta(reader: ProtoReader, into: Envelope): void {
  while (!reader.done) {
    const [field, wireType] = readTag(reader, 'TypeMeta');
    if (field === 1) {
      expectBytes(wireType, 'APIVersion');
      into.apiVersion = utf8.decode(reader.bytes());
    } else if (field === 2) {
      expectBytes(wireType, 'Kind');
      into.kind = utf8.decode(reader.bytes());
    } else reader.skip(wireType);
  }
}

/**
 * Decodes the runtime.Unknown after the magic prefix (which the caller has
 * checked). Throws ProtoDecodeError with gogo's texts.
 */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  const out: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  const reader = new ProtoReader(bytes, PROTOBUF_MAGIC.length);
  while (!reader.done) {
    const [field, wireType] = readTag(reader, 'Unknown');
    switch (field) {
      case 1: {
        expectBytes(wireType, 'TypeMeta');
        const inner = reader.bytes();
        decodeTypeMeta(new ProtoReader(inner), out);
        break;
      }
      case 2:
        expectBytes(wireType, 'Raw');
        out.raw = reader.bytes();
        break;
      case 3:
        expectBytes(wireType, 'ContentEncoding');
        out.contentEncoding = utf8.decode(reader.bytes());
        break;
      case 4:
        expectBytes(wireType, 'ContentType');
        out.contentType = utf8.decode(reader.bytes());
        break;
      default:
        reader.skip(wireType);
    }
  }
  return out;
}

const utf8Encoder = new TextEncoder();

/** magic + Unknown, with every field written as gogo writes it (strings always, raw when set). */
export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const typeMeta = new ProtoWriter();
  typeMeta.tag(1, 2).lengthDelimited(utf8Encoder.encode(apiVersion));
  typeMeta.tag(2, 2).lengthDelimited(utf8Encoder.encode(kind));
  const w = new ProtoWriter();
  w.raw(PROTOBUF_MAGIC);
  w.tag(1, 2).lengthDelimited(typeMeta.finish());
  w.tag(2, 2).lengthDelimited(raw);
  w.tag(3, 2).varint(0);
  w.tag(4, 2).varint(0);
  return w.finish();
}
