// Protobuf message bytes → the JSON value Go's encoding/json would produce for
// the decoded struct: omitempty zero values dropped, pointers kept when set,
// custom-marshalled types (Time, Quantity, IntOrString, RawExtension, …) in
// their JSON form, inline structs flattened into their parent.

import { encodeBase64 } from '../kinds/builtin/common/base64';
import { quantityParseError } from '../schema/go-values';
import { hasProtobufMagic, readTag } from './envelope';
import { formatGoDuration } from './go-duration';
import { formatMicroTime, formatTime } from './go-time';
import { fieldMessage, type ProtoField, type ProtoMessage, type ScalarType, wireTypeOf, WIRE_BYTES, WIRE_VARINT } from './schema';
import { ProtoDecodeError, ProtoReader, toInt32, toInt64, toUint32, toUint64, zigzag64 } from './wire';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const utf8 = new TextDecoder();

/**
 * Decodes an embedded protobuf envelope (a RawExtension holding `k8s\0…`);
 * supplied by decode.ts to avoid a module cycle.
 */
export type NestedEnvelopeDecoder = (bytes: Uint8Array) => JsonObject;

export interface DecodeContext {
  readonly nested: NestedEnvelopeDecoder;
}

function wrongWireType(wireType: number, field: ProtoField): ProtoDecodeError {
  return new ProtoDecodeError(`proto: wrong wireType = ${wireType} for field ${field.goName}`);
}

function readScalar(reader: ProtoReader, type: ScalarType): Json {
  switch (type) {
    case 'string':
      return utf8.decode(reader.bytes());
    case 'bytes':
      return encodeBase64(reader.bytes());
    case 'bool': {
      const v = reader.varint();
      return v !== 0 && v !== 0n;
    }
    case 'int32':
      return toInt32(reader.varint());
    case 'int64':
      return toInt64(reader.varint());
    case 'uint32':
      return toUint32(reader.varint());
    case 'uint64':
      return toUint64(reader.varint());
    case 'sint32':
    case 'sint64':
      return zigzag64(reader.varint());
    case 'double':
      return reader.fixed64().getFloat64(0, true);
    case 'float':
      return reader.fixed32().getFloat32(0, true);
    case 'fixed32':
      return reader.fixed32().getUint32(0, true);
    case 'sfixed32':
      return reader.fixed32().getInt32(0, true);
    case 'fixed64':
      return Number(reader.fixed64().getBigUint64(0, true));
    case 'sfixed64':
      return Number(reader.fixed64().getBigInt64(0, true));
  }
}

function zeroOf(type: ScalarType): Json {
  return type === 'string' ? '' : type === 'bool' ? false : 0;
}

/** Reads a field value of a scalar type, accepting packed encoding for repeated numbers. */
function readScalarField(reader: ProtoReader, field: ProtoField, wireType: number, push: (v: Json) => void): void {
  const type = field.scalar!;
  const expected = wireTypeOf(type);
  if (wireType === expected) {
    push(readScalar(reader, type));
    return;
  }
  if (field.repeated && wireType === WIRE_BYTES && expected !== WIRE_BYTES) {
    const packed = reader.bytes();
    const inner = new ProtoReader(packed);
    while (!inner.done) push(readScalar(inner, type));
    return;
  }
  throw wrongWireType(wireType, field);
}

function parseJsonBytes(bytes: Uint8Array): Json {
  const text = utf8.decode(bytes);
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new ProtoDecodeError(`invalid JSON in an embedded value: ${(err as Error).message}`);
  }
}

/** Fields of a small message, by number (for the special types). */
function readSmall(bytes: Uint8Array, message: ProtoMessage): Map<number, unknown[]> {
  const out = new Map<number, unknown[]>();
  const reader = new ProtoReader(bytes);
  while (!reader.done) {
    const [num, wireType] = readTag(reader, message.name);
    const field = message.byNumber.get(num);
    if (!field) {
      reader.skip(wireType);
      continue;
    }
    let list = out.get(num);
    if (!list) out.set(num, (list = []));
    if (field.scalar) {
      // Keep raw varints for 64-bit exactness where it matters (durations).
      if (wireType === WIRE_VARINT && (field.scalar === 'int64' || field.scalar === 'int32')) list.push(reader.varint());
      else if (wireType === WIRE_BYTES && field.scalar === 'bytes') list.push(reader.bytes());
      else readScalarField(reader, field, wireType, (v) => list!.push(v));
    } else {
      if (wireType !== WIRE_BYTES) throw wrongWireType(wireType, field);
      list.push(reader.bytes());
    }
  }
  return out;
}

const last = <T>(m: Map<number, unknown[]>, n: number): T | undefined => {
  const list = m.get(n);
  return list && list.length ? (list[list.length - 1] as T) : undefined;
};

const asBigInt = (v: unknown): bigint => (v === undefined ? 0n : BigInt.asIntN(64, BigInt(v as number | bigint)));

/** The JSON value of a special message; undefined means "omit" (Go's null). */
function decodeSpecial(message: ProtoMessage, bytes: Uint8Array, ctx: DecodeContext): Json | undefined {
  switch (message.special) {
    case 'time': {
      // metav1.Time ignores nanos when unmarshalling protobuf (JSON has whole seconds).
      if (bytes.length === 0) return undefined;
      const f = readSmall(bytes, message);
      return formatTime(toInt64(last<number | bigint>(f, 1) ?? 0));
    }
    case 'microtime': {
      if (bytes.length === 0) return undefined;
      const f = readSmall(bytes, message);
      return formatMicroTime(toInt64(last<number | bigint>(f, 1) ?? 0), toInt32(last<number | bigint>(f, 2) ?? 0));
    }
    case 'duration': {
      const f = readSmall(bytes, message);
      return formatGoDuration(asBigInt(last(f, 1)));
    }
    case 'quantity': {
      const f = readSmall(bytes, message);
      const text = last<string>(f, 1);
      if (text === undefined) return '0';
      const err = quantityParseError(text);
      if (err) throw new ProtoDecodeError(err);
      return text;
    }
    case 'intorstring': {
      const f = readSmall(bytes, message);
      const type = toInt64(last<number | bigint>(f, 1) ?? 0);
      return type === 1 ? (last<string>(f, 3) ?? '') : toInt32(last<number | bigint>(f, 2) ?? 0);
    }
    case 'rawextension':
    case 'fieldsv1':
    case 'json': {
      const raw = last<Uint8Array>(readSmall(bytes, message), 1);
      if (!raw || raw.length === 0) return message.special === 'json' ? null : undefined;
      if (message.special === 'rawextension' && hasProtobufMagic(raw)) return ctx.nested(raw);
      return parseJsonBytes(raw);
    }
    case 'schemaorarray': {
      const f = readSmall(bytes, message);
      const schemas = (f.get(2) ?? []) as Uint8Array[];
      const schemaType = fieldMessage(message.byNumber.get(1)!);
      if (schemas.length > 0) return schemas.map((b) => decodeMessage(schemaType, b, ctx) as Json);
      const schema = last<Uint8Array>(f, 1);
      return schema ? (decodeMessage(schemaType, schema, ctx) as Json) : null;
    }
    case 'schemaorbool': {
      const f = readSmall(bytes, message);
      const schema = last<Uint8Array>(f, 2);
      if (schema) return decodeMessage(fieldMessage(message.byNumber.get(2)!), schema, ctx) as Json;
      return (last<boolean>(f, 1) ?? false) === true;
    }
    case 'schemaorstringarray': {
      const f = readSmall(bytes, message);
      const property = (f.get(2) ?? []) as string[];
      if (property.length > 0) return property;
      const schema = last<Uint8Array>(f, 1);
      return schema ? (decodeMessage(fieldMessage(message.byNumber.get(1)!), schema, ctx) as Json) : null;
    }
    case 'list':
      return ((readSmall(bytes, message).get(1) ?? []) as Json[]).slice();
    default:
      return undefined;
  }
}

function decodeMapEntry(bytes: Uint8Array, field: ProtoField, ctx: DecodeContext): [string, Json | undefined] {
  const reader = new ProtoReader(bytes);
  let key = '';
  let value: Json | undefined;
  let valueBytes: Uint8Array | undefined;
  while (!reader.done) {
    const [num, wireType] = readTag(reader, field.goName);
    if (num === 1) {
      if (wireType !== WIRE_BYTES) throw wrongWireType(wireType, field);
      key = utf8.decode(reader.bytes());
    } else if (num === 2) {
      if (field.scalar) {
        if (wireType !== wireTypeOf(field.scalar)) throw wrongWireType(wireType, field);
        value = readScalar(reader, field.scalar);
      } else {
        if (wireType !== WIRE_BYTES) throw wrongWireType(wireType, field);
        valueBytes = reader.bytes();
      }
    } else reader.skip(wireType);
  }
  if (field.scalar) return [key, value ?? (field.scalar === 'bytes' ? '' : zeroOf(field.scalar))];
  // A missing message value is the zero value of its type.
  return [key, decodeMessage(fieldMessage(field), valueBytes ?? new Uint8Array(0), ctx)];
}

/** Zero values of value fields without omitempty, also inside inlined structs. */
function fillZeros(message: ProtoMessage, obj: JsonObject): void {
  for (const field of message.fields) {
    if (field.emitZero && !(field.json in obj)) obj[field.json] = zeroOf(field.scalar!);
    else if (field.inline) fillZeros(fieldMessage(field), obj);
  }
}

function decodeInto(message: ProtoMessage, bytes: Uint8Array, obj: JsonObject, ctx: DecodeContext): void {
  const reader = new ProtoReader(bytes);
  while (!reader.done) {
    const [num, wireType] = readTag(reader, message.name);
    const field = message.byNumber.get(num);
    if (!field) {
      reader.skip(wireType);
      continue;
    }
    if (field.scalar && !field.map) {
      if (field.repeated) {
        const list = (obj[field.json] ??= []) as Json[];
        readScalarField(reader, field, wireType, (v) => list.push(v));
      } else {
        readScalarField(reader, field, wireType, (v) => {
          // A zero value of an omitempty value field is what Go's JSON drops.
          if (field.nullable || field.emitZero || (v !== '' && v !== 0 && v !== false)) obj[field.json] = v;
          else delete obj[field.json];
        });
      }
      continue;
    }
    if (wireType !== WIRE_BYTES) throw wrongWireType(wireType, field);
    const inner = reader.bytes();
    if (field.map) {
      const [key, value] = decodeMapEntry(inner, field, ctx);
      const map = (obj[field.json] ??= {}) as JsonObject;
      if (value === undefined) delete map[key];
      else map[key] = value;
      continue;
    }
    const type = fieldMessage(field);
    if (field.inline) {
      decodeInto(type, inner, obj, ctx);
      continue;
    }
    if (field.repeated) {
      const value = decodeMessage(type, inner, ctx);
      ((obj[field.json] ??= []) as Json[]).push(value === undefined ? null : value);
      continue;
    }
    const existing = obj[field.json];
    if (!type.special && existing && typeof existing === 'object' && !Array.isArray(existing)) {
      // A repeated occurrence of a message field merges into the first, as in gogo.
      decodeInto(type, inner, existing, ctx);
      continue;
    }
    const value = decodeMessage(type, inner, ctx);
    if (value === undefined) delete obj[field.json];
    else obj[field.json] = value;
  }
  fillZeros(message, obj);
}

/**
 * Decodes one message to its JSON value: an object for ordinary messages,
 * the custom JSON form for special ones; undefined when Go would write null.
 */
export function decodeMessage(message: ProtoMessage, bytes: Uint8Array, ctx: DecodeContext): Json | undefined {
  if (message.special) return decodeSpecial(message, bytes, ctx);
  const obj: JsonObject = {};
  decodeInto(message, bytes, obj, ctx);
  return obj;
}

export type { Json, JsonObject };
