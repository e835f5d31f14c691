// JSON value → protobuf message bytes, written the way gogo's generated
// Marshal writes the Go struct: fields in number order, value (non-pointer)
// fields always (zero values included), pointers only when set, map entries
// sorted by key, custom types in their wire form.

import { decodeBase64 } from '../kinds/builtin/common/base64';
import { goCompareStrings } from '../patch/go-format';
import { parseGoDuration } from './go-duration';
import { GO_ZERO_TIME_SECONDS, parseRfc3339 } from './go-time';
import { fieldMessage, type ProtoField, type ProtoMessage, type ScalarType, wireTypeOf, WIRE_BYTES } from './schema';
import { ProtoWriter } from './wire';

const utf8 = new TextEncoder();

/** A JSON value that cannot be written as the field's type. */
export class ProtoEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtoEncodeError';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return 0;
}

function toBytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v !== 'string') return new Uint8Array(0);
  const bytes = decodeBase64(v.replace(/[\r\n]/g, ''));
  if (!bytes) throw new ProtoEncodeError(`illegal base64 data in ${JSON.stringify(v.slice(0, 20))}`);
  return bytes;
}

function writeScalar(w: ProtoWriter, type: ScalarType, v: unknown): void {
  switch (type) {
    case 'string':
      w.lengthDelimited(utf8.encode(typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)));
      return;
    case 'bytes':
      w.lengthDelimited(toBytes(v));
      return;
    case 'bool':
      w.varint(v === true ? 1 : 0);
      return;
    case 'int32':
    case 'int64':
      w.varint(BigInt(Math.trunc(toNumber(v))));
      return;
    case 'uint32':
    case 'uint64':
      w.varint(BigInt(Math.max(0, Math.trunc(toNumber(v)))));
      return;
    case 'sint32':
    case 'sint64': {
      const n = BigInt(Math.trunc(toNumber(v)));
      w.varint((n << 1n) ^ (n < 0n ? -1n : 0n));
      return;
    }
    case 'double':
      w.fixed64((d) => d.setFloat64(0, toNumber(v), true));
      return;
    case 'float':
      w.fixed32((d) => d.setFloat32(0, toNumber(v), true));
      return;
    case 'fixed32':
      w.fixed32((d) => d.setUint32(0, toNumber(v), true));
      return;
    case 'sfixed32':
      w.fixed32((d) => d.setInt32(0, toNumber(v), true));
      return;
    case 'fixed64':
      w.fixed64((d) => d.setBigUint64(0, BigInt(Math.trunc(toNumber(v))), true));
      return;
    case 'sfixed64':
      w.fixed64((d) => d.setBigInt64(0, BigInt(Math.trunc(toNumber(v))), true));
      return;
  }
}

function writeScalarField(w: ProtoWriter, number: number, type: ScalarType, v: unknown): void {
  w.tag(number, wireTypeOf(type));
  writeScalar(w, type, v);
}

function writeMessageField(w: ProtoWriter, number: number, message: ProtoMessage, v: unknown): void {
  w.tag(number, WIRE_BYTES).lengthDelimited(encodeMessage(message, v));
}

function timeSeconds(v: unknown, what: string): { seconds: number; nanos: number } | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ProtoEncodeError(`${what}: not a time: ${JSON.stringify(v)}`);
  const t = parseRfc3339(v);
  if (!t) throw new ProtoEncodeError(`${what}: not an RFC 3339 time: ${JSON.stringify(v)}`);
  return t;
}

/**
 * Embedded JSON (RawExtension, FieldsV1, apiextensions JSON) as the bytes a
 * Go client sends and kube stores verbatim: compact, with encoding/json's
 * HTML-safe escapes (json-iterator's too, for managedFields).
 */
const jsonBytes = (v: unknown) => utf8.encode(JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

/** The wire form of a special message's JSON value. */
function encodeSpecial(message: ProtoMessage, v: unknown): Uint8Array {
  const w = new ProtoWriter();
  const field = (n: number) => message.byNumber.get(n)!;
  switch (message.special) {
    case 'time':
    case 'microtime': {
      // The zero time (absent / null) is an empty message; Time writes no fraction.
      const t = timeSeconds(v, message.name);
      if (!t || (t.seconds === GO_ZERO_TIME_SECONDS && t.nanos === 0)) break;
      w.tag(1, 0).varint(BigInt(t.seconds));
      w.tag(2, 0).varint(message.special === 'time' ? 0 : Math.floor(t.nanos / 1000) * 1000);
      break;
    }
    case 'duration': {
      let nanos = 0n;
      if (typeof v === 'string') {
        try {
          nanos = parseGoDuration(v);
        } catch (err) {
          throw new ProtoEncodeError((err as Error).message);
        }
      } else if (typeof v === 'number') nanos = BigInt(Math.trunc(v));
      w.tag(1, 0).varint(nanos);
      break;
    }
    case 'quantity':
      writeScalarField(w, 1, 'string', v === undefined || v === null ? '0' : typeof v === 'number' ? String(v) : v);
      break;
    case 'intorstring': {
      const isString = typeof v === 'string';
      w.tag(1, 0).varint(isString ? 1 : 0);
      w.tag(2, 0).varint(BigInt(isString ? 0 : Math.trunc(toNumber(v))));
      writeScalarField(w, 3, 'string', isString ? v : '');
      break;
    }
    case 'rawextension':
    case 'fieldsv1':
    case 'json':
      if (v !== undefined && v !== null) w.tag(1, WIRE_BYTES).lengthDelimited(jsonBytes(v));
      break;
    case 'schemaorarray': {
      const schema = fieldMessage(field(1));
      if (Array.isArray(v)) for (const item of v) writeMessageField(w, 2, schema, item);
      else if (isObject(v)) writeMessageField(w, 1, schema, v);
      break;
    }
    case 'schemaorbool': {
      // UnmarshalJSON: a schema means allows=true.
      w.tag(1, 0).varint(v === false ? 0 : 1);
      if (isObject(v)) writeMessageField(w, 2, fieldMessage(field(2)), v);
      break;
    }
    case 'schemaorstringarray':
      if (Array.isArray(v)) for (const item of v) writeScalarField(w, 2, 'string', item);
      else if (isObject(v)) writeMessageField(w, 1, fieldMessage(field(1)), v);
      break;
    case 'list':
      if (Array.isArray(v)) for (const item of v) writeScalarField(w, 1, field(1).scalar!, item);
      break;
  }
  return w.finish();
}

function writeField(w: ProtoWriter, field: ProtoField, obj: Record<string, unknown>): void {
  if (field.inline) {
    // An embedded struct reads its fields from the same JSON object.
    writeMessageField(w, field.number, fieldMessage(field), obj);
    return;
  }
  const v = obj[field.json];
  if (field.map) {
    if (!isObject(v)) return;
    const valueMessage = field.scalar ? undefined : fieldMessage(field);
    for (const key of Object.keys(v).sort(goCompareStrings)) {
      const entry = new ProtoWriter();
      writeScalarField(entry, 1, 'string', key);
      if (valueMessage) writeMessageField(entry, 2, valueMessage, v[key]);
      else writeScalarField(entry, 2, field.scalar!, v[key]);
      w.tag(field.number, WIRE_BYTES).lengthDelimited(entry.finish());
    }
    return;
  }
  if (field.repeated) {
    if (!Array.isArray(v)) return;
    const message = field.scalar ? undefined : fieldMessage(field);
    for (const item of v) {
      if (message) writeMessageField(w, field.number, message, item);
      else writeScalarField(w, field.number, field.scalar!, item);
    }
    return;
  }
  const absent = v === undefined || v === null;
  if (field.scalar) {
    // Pointers only when set; []byte only when non-nil; other values always.
    if (absent && (field.nullable || field.scalar === 'bytes')) return;
    writeScalarField(w, field.number, field.scalar, v);
    return;
  }
  if (absent && field.nullable) return;
  writeMessageField(w, field.number, fieldMessage(field), v);
}

/** The message bytes of a JSON value (absent values encode as Go's zero value). */
export function encodeMessage(message: ProtoMessage, value: unknown): Uint8Array {
  if (message.special) return encodeSpecial(message, value);
  const obj = isObject(value) ? value : {};
  const w = new ProtoWriter();
  for (const field of message.fields) writeField(w, field, obj);
  return w.finish();
}
