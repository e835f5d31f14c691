// Objects in the key order kube-apiserver 1.32 writes them in.
//
// kube encodes built-in objects with encoding/json over typed structs: the
// fields of a struct come in its declaration order (TypeMeta is embedded
// first: kind, apiVersion; `json:",inline"` structs such as Volume's
// VolumeSource put their fields at their place in the parent), and the keys of
// map-typed fields (labels, annotations, data, selectors, resource lists…) come
// sorted by their bytes. Custom resources are unstructured
// (map[string]interface{}), so every object of theirs has its keys sorted, at
// every level. Some typed fields hold JSON kube keeps or re-marshals itself:
// - runtime.RawExtension writes the bytes it was given: kept as they are;
// - apiextensions JSON (a CRD schema's default, example, enum) is converted to
//   interface{} and marshaled again in the internal version: keys sorted;
// - metav1.FieldsV1 writes structured-merge-diff's serialization, which the
//   field manager already builds in that order (fieldmanager/fieldpath);
// - Time, MicroTime, Duration, Quantity and IntOrString are scalars.
//
// Struct order and which fields are maps come from the protobuf table (fields
// in number order, their JSON names and types) and the generated declaration
// order of the messages whose numbers are not in declaration order
// (./generated/field-order.ts, scripts/gen-field-order.mjs).

import { protoMessage, protoMessageForKind, type ProtoField, type ProtoMessage } from '../protobuf/schema';
import { compareGoStrings } from '../util/go/strings';
import { setOwn } from '../util/set-own';
import { fieldOrderText } from './generated/field-order';

type Json = Record<string, unknown>;

/** How a value (a field's value, a map's value, a list's item) is put in order. */
type ValueOrder =
  | { readonly t: 'leaf' }
  | { readonly t: 'sorted' }
  | { readonly t: 'message'; readonly name: string }
  /** apiextensions' JSONSchemaPropsOr{Array,Bool,StringArray}: a schema object, or an array (of schemas when `items`). */
  | { readonly t: 'schema'; readonly name: string; readonly items: boolean };

interface Slot {
  readonly json: string;
  readonly map: boolean;
  readonly value: ValueOrder;
}

interface CompiledMessage {
  /** Fields in declaration order, inline structs' fields spliced in at their place. */
  readonly slots: readonly Slot[];
  readonly position: ReadonlyMap<string, number>;
  /** The Go struct embeds TypeMeta (or at least has no kind/apiVersion fields of its own): kind and apiVersion come first. */
  readonly typeMeta: boolean;
}

const LEAF: ValueOrder = { t: 'leaf' };
const SORTED: ValueOrder = { t: 'sorted' };
const SCHEMA_PROPS = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';

let declarationOrders: Readonly<Record<string, readonly number[]>> | undefined;
const compiled = new Map<string, CompiledMessage>();

function fieldsInDeclarationOrder(message: ProtoMessage): readonly ProtoField[] {
  declarationOrders ??= JSON.parse(fieldOrderText) as Record<string, readonly number[]>;
  const order = declarationOrders[message.fullName];
  if (!order) return message.fields;
  const fields: ProtoField[] = [];
  for (const n of order) {
    const f = message.byNumber.get(n);
    if (f) fields.push(f);
  }
  // A field the order does not name (a table regenerated without this one) keeps its number order, last.
  for (const f of message.fields) if (!order.includes(f.number)) fields.push(f);
  return fields;
}

function valueOrderOf(field: ProtoField): ValueOrder {
  if (!field.messageName) return LEAF;
  const target = protoMessage(field.messageName);
  if (!target) return LEAF;
  switch (target.special) {
    case undefined:
      return { t: 'message', name: target.fullName };
    case 'json':
      return SORTED;
    case 'schemaorarray':
      return { t: 'schema', name: SCHEMA_PROPS, items: true };
    case 'schemaorbool':
    case 'schemaorstringarray':
      return { t: 'schema', name: SCHEMA_PROPS, items: false };
    case 'list': {
      // A named slice (`{items}` in protobuf) is a plain JSON array of its items.
      const items = target.fields[0];
      return items ? valueOrderOf(items) : LEAF;
    }
    default:
      // time, microtime, duration, quantity, intorstring, rawextension, fieldsv1.
      return LEAF;
  }
}

function slotsOf(message: ProtoMessage, into: Slot[]): void {
  for (const field of fieldsInDeclarationOrder(message)) {
    if (field.inline && field.messageName) {
      const inner = protoMessage(field.messageName);
      if (inner) {
        slotsOf(inner, into);
        continue;
      }
    }
    into.push({ json: field.json, map: field.map, value: valueOrderOf(field) });
  }
}

function compile(name: string): CompiledMessage | undefined {
  const hit = compiled.get(name);
  if (hit) return hit;
  const message = protoMessage(name);
  if (!message) return undefined;
  const slots: Slot[] = [];
  slotsOf(message, slots);
  const position = new Map<string, number>();
  slots.forEach((s, i) => position.set(s.json, i));
  const result: CompiledMessage = { slots, position, typeMeta: !position.has('kind') && !position.has('apiVersion') };
  compiled.set(name, result);
  return result;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------
// Building the ordered copy. Leaves (strings, numbers, kept JSON) are shared.

/** Every object's keys sorted by their bytes, at every level (map[string]interface{}). */
export function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort(compareGoStrings)) setOwn(out, key, sortedDeep(value[key]));
  return out;
}

function orderedValue(value: unknown, how: ValueOrder): unknown {
  if (how.t === 'leaf' || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (how.t === 'schema' && !how.items) return value;
    return value.map((v) => orderedValue(v, how));
  }
  if (how.t === 'sorted') return sortedDeep(value);
  const message = compile(how.name);
  return message ? orderedMessage(value as Json, message) : value;
}

function orderedMap(value: unknown, how: ValueOrder): unknown {
  if (!isObject(value)) return orderedValue(value, how);
  const out: Json = {};
  for (const key of Object.keys(value).sort(compareGoStrings)) setOwn(out, key, orderedValue(value[key], how));
  return out;
}

function orderedMessage(src: Json, message: CompiledMessage): Json {
  const out: Json = {};
  let placed = 0;
  if (message.typeMeta) {
    if (src['kind'] !== undefined) {
      out['kind'] = src['kind'];
      placed++;
    }
    if (src['apiVersion'] !== undefined) {
      out['apiVersion'] = src['apiVersion'];
      placed++;
    }
  }
  for (const slot of message.slots) {
    const value = src[slot.json];
    if (value === undefined) continue;
    out[slot.json] = slot.map ? orderedMap(value, slot.value) : orderedValue(value, slot.value);
    placed++;
  }
  // Keys the struct does not have (kube would have dropped them) stay, after the known ones.
  let total = 0;
  for (const key in src) if (src[key] !== undefined) total++;
  if (total !== placed) for (const key in src) if (!Object.hasOwn(out, key) && src[key] !== undefined) setOwn(out, key, src[key]);
  return out;
}

// ---------------------------------------------------------------------------
// Checking without building: most objects read back from storage are already
// in order, and a check allocates nothing.

function isSortedDeep(value: unknown): boolean {
  if (Array.isArray(value)) {
    for (const v of value) if (!isSortedDeep(v)) return false;
    return true;
  }
  if (!isObject(value)) return true;
  let last: string | undefined;
  for (const key in value) {
    if (last !== undefined && compareGoStrings(last, key) >= 0) return false;
    last = key;
    if (!isSortedDeep(value[key])) return false;
  }
  return true;
}

function isOrderedValue(value: unknown, how: ValueOrder): boolean {
  if (how.t === 'leaf' || value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    if (how.t === 'schema' && !how.items) return true;
    for (const v of value) if (!isOrderedValue(v, how)) return false;
    return true;
  }
  if (how.t === 'sorted') return isSortedDeep(value);
  const message = compile(how.name);
  return message ? isOrderedMessage(value as Json, message) : true;
}

function isOrderedMap(value: unknown, how: ValueOrder): boolean {
  if (!isObject(value)) return isOrderedValue(value, how);
  let last: string | undefined;
  for (const key in value) {
    if (last !== undefined && compareGoStrings(last, key) >= 0) return false;
    last = key;
    if (!isOrderedValue(value[key], how)) return false;
  }
  return true;
}

function isOrderedMessage(src: Json, message: CompiledMessage): boolean {
  // Positions: kind -2, apiVersion -1 (TypeMeta), fields 0…n-1, unknown keys n.
  const unknown = message.slots.length;
  let at = -3;
  for (const key in src) {
    const value = src[key];
    if (value === undefined) continue;
    let p = message.position.get(key);
    if (p === undefined) p = message.typeMeta && key === 'kind' ? -2 : message.typeMeta && key === 'apiVersion' ? -1 : unknown;
    if (p < at || (p === at && p !== unknown)) return false;
    at = p;
    if (p >= 0 && p < unknown) {
      const slot = message.slots[p]!;
      if (!(slot.map ? isOrderedMap(value, slot.value) : isOrderedValue(value, slot.value))) return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// The API.

/** What decides an object's order: a custom resource (all keys sorted), or a built-in kind's message. */
export type OrderOf = { readonly custom: true } | { readonly custom?: false; readonly apiVersion: string; readonly kind: string };

function messageFor(of: OrderOf): CompiledMessage | undefined {
  if (of.custom) return undefined;
  const message = protoMessageForKind(of.apiVersion, of.kind);
  return message ? compile(message.fullName) : undefined;
}

/**
 * A copy of `obj` with its keys in the order kube-apiserver writes them. A
 * built-in kind without a known message is returned as it is. Leaves are
 * shared with `obj`; `obj` is not changed.
 */
export function goOrdered<T extends object>(obj: T, of: OrderOf): T {
  if (of.custom) return sortedDeep(obj) as T;
  const message = messageFor(of);
  return message ? (orderedMessage(obj as Json, message) as T) : obj;
}

/** Whether `obj` already is in kube's order (allocates nothing). */
export function isInGoOrder(obj: object, of: OrderOf): boolean {
  if (of.custom) return isSortedDeep(obj);
  const message = messageFor(of);
  return message ? isOrderedMessage(obj as Json, message) : true;
}

/** `obj` itself when it is in kube's order, else an ordered copy. */
export function inGoOrder<T extends object>(obj: T, of: OrderOf): T {
  return isInGoOrder(obj, of) ? obj : goOrdered(obj, of);
}
