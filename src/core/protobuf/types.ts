// The shape of the generated protobuf schema table (generated/messages.ts),
// written by scripts/gen-protobuf-table.mjs from the 1.32 descriptors.

/**
 * One field: `[number, jsonName, type, flags, goName?]`.
 * - `type` is a proto scalar name (`string`, `int64`, `bytes`, …) or a message:
 *   a short name for a message of the same package, else the full dotted name.
 *   For a map it is the value type (keys are always strings in Kubernetes).
 * - `goName` is the Go field name, present only where it is not the proto name
 *   with an upper-case first letter; gogo's decode errors name the Go field.
 */
export type FieldTuple = readonly [number: number, json: string, type: string, flags: number, goName?: string];

/** `repeated` in the proto. */
export const FIELD_REPEATED = 1;
/** `map<string, type>`. */
export const FIELD_MAP = 2;
/** A Go pointer: present on the wire ⇔ present in JSON, zero values included. */
export const FIELD_NULLABLE = 4;
/** A Go value without `omitempty`: JSON shows its zero value. */
export const FIELD_EMIT_ZERO = 8;
/** An embedded struct with `json:",inline"`: its fields sit in the parent's JSON object. */
export const FIELD_INLINE = 16;

/**
 * Messages whose JSON form is not their proto structure (custom Go JSON
 * marshalling): times, durations, quantities, int-or-string, embedded raw
 * JSON, the apiextensions schema unions, and named-slice wrappers (`list`:
 * `{items: [...]}` on the wire, a plain array in JSON).
 */
export type SpecialKind =
  | 'time'
  | 'microtime'
  | 'duration'
  | 'quantity'
  | 'intorstring'
  | 'rawextension'
  | 'fieldsv1'
  | 'json'
  | 'schemaorarray'
  | 'schemaorbool'
  | 'schemaorstringarray'
  | 'list';

export interface ProtoMessageSpec {
  /** Fields in field-number order. */
  readonly f: readonly FieldTuple[];
  readonly s?: SpecialKind;
}

/** proto package → message name → message. */
export type ProtoPackages = Readonly<Record<string, Readonly<Record<string, ProtoMessageSpec>>>>;

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}
