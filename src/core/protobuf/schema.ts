// Lookup of the generated table: messages by full name and by apiVersion/kind,
// compiled on first use into objects the decoder and encoder walk quickly.

import { protoKinds } from './generated/kinds';
import { protoPackages } from './generated/messages';
import { metaKinds, metaPackages } from './meta-messages';
import {
  FIELD_EMIT_ZERO,
  FIELD_INLINE,
  FIELD_MAP,
  FIELD_NULLABLE,
  FIELD_REPEATED,
  type SpecialKind,
} from './types';

export type ScalarType =
  | 'double'
  | 'float'
  | 'int64'
  | 'uint64'
  | 'int32'
  | 'fixed64'
  | 'fixed32'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'uint32'
  | 'sfixed32'
  | 'sfixed64'
  | 'sint32'
  | 'sint64';

const SCALARS: ReadonlySet<string> = new Set<ScalarType>([
  'double', 'float', 'int64', 'uint64', 'int32', 'fixed64', 'fixed32', 'bool',
  'string', 'bytes', 'uint32', 'sfixed32', 'sfixed64', 'sint32', 'sint64',
]);

/** Protobuf wire types. */
export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

export function wireTypeOf(scalar: ScalarType): number {
  switch (scalar) {
    case 'double':
    case 'fixed64':
    case 'sfixed64':
      return WIRE_FIXED64;
    case 'float':
    case 'fixed32':
    case 'sfixed32':
      return WIRE_FIXED32;
    case 'string':
    case 'bytes':
      return WIRE_BYTES;
    default:
      return WIRE_VARINT;
  }
}

export interface ProtoField {
  readonly number: number;
  readonly json: string;
  /** The Go field name, for gogo's error texts. */
  readonly goName: string;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly nullable: boolean;
  readonly emitZero: boolean;
  readonly inline: boolean;
  /** Set for scalar fields (for maps: the value type). */
  readonly scalar?: ScalarType;
  /** Full name of the message type (for maps: the value type). */
  readonly messageName?: string;
}

export interface ProtoMessage {
  readonly fullName: string;
  /** The short name, as gogo's errors print it. */
  readonly name: string;
  readonly special?: SpecialKind;
  /** In field-number order. */
  readonly fields: readonly ProtoField[];
  readonly byNumber: ReadonlyMap<number, ProtoField>;
}

const compiled = new Map<string, ProtoMessage | null>();

/** The message with this full proto name (`k8s.io.api.core.v1.Pod`), or undefined. */
export function protoMessage(fullName: string): ProtoMessage | undefined {
  const cached = compiled.get(fullName);
  if (cached !== undefined) return cached ?? undefined;
  const dot = fullName.lastIndexOf('.');
  const pkg = fullName.slice(0, dot);
  const name = fullName.slice(dot + 1);
  const spec = protoPackages[pkg]?.[name] ?? metaPackages[pkg]?.[name];
  if (!spec) {
    compiled.set(fullName, null);
    return undefined;
  }
  const fields: ProtoField[] = spec.f.map(([number, json, type, flags, goName]) => {
    const isScalar = SCALARS.has(type);
    return {
      number,
      json,
      goName: goName ?? json.charAt(0).toUpperCase() + json.slice(1),
      repeated: (flags & FIELD_REPEATED) !== 0,
      map: (flags & FIELD_MAP) !== 0,
      nullable: (flags & FIELD_NULLABLE) !== 0,
      emitZero: (flags & FIELD_EMIT_ZERO) !== 0,
      inline: (flags & FIELD_INLINE) !== 0,
      scalar: isScalar ? (type as ScalarType) : undefined,
      messageName: isScalar ? undefined : type.includes('.') ? type : `${pkg}.${type}`,
    };
  });
  const message: ProtoMessage = {
    fullName,
    name,
    special: spec.s,
    fields,
    byNumber: new Map(fields.map((f) => [f.number, f])),
  };
  compiled.set(fullName, message);
  return message;
}

/** The message type of a field (maps: of its values); throws if the table is inconsistent. */
export function fieldMessage(field: ProtoField): ProtoMessage {
  const m = field.messageName ? protoMessage(field.messageName) : undefined;
  if (!m) throw new Error(`protobuf table: no message ${field.messageName}`);
  return m;
}

/** The message of a kind a 1.32 server serves, e.g. ('v1', 'ConfigMap'); undefined for anything else (custom resources). */
export function protoMessageForKind(apiVersion: string, kind: string): ProtoMessage | undefined {
  const name = protoKinds[apiVersion]?.[kind] ?? metaKinds[apiVersion]?.[kind];
  return name ? protoMessage(name) : undefined;
}
