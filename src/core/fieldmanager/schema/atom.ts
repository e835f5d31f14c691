// The merge view of a schema: what structured-merge-diff's schema package
// (as kube-openapi's schemaconv builds it from OpenAPI) knows about a type.
//
//   scalar   string | numeric | boolean | untyped (IntOrString, Quantity)
//   list     atomic, or associative: a set (no keys) or a map (keys)
//   map      a struct (named fields) and/or a map (element type), atomic or granular
//
// A value without a type ("any", x-kubernetes-preserve-unknown-fields) is
// "deduced": scalar, atomic list or granular map, whichever the value is.
// Built-in lists without x-kubernetes-list-type use their patch strategy
// (effectiveListType); custom-resource lists are atomic unless marked.

import { effectiveListType, isRef, type ObjectNode, type SchemaNode, type SchemaTable } from '../../schema/types';

export type ScalarType = 'string' | 'numeric' | 'boolean' | 'untyped';

export interface FieldDef {
  /** The field's type (resolved lazily: schemas are recursive). */
  atom(): Atom;
  /** The OpenAPI default of the field, used for absent list-map keys. */
  readonly default: unknown;
}

export interface ListAtom {
  readonly atomic: boolean;
  /** List-map keys; empty for a set (associative without keys) or an atomic list. */
  readonly keys: readonly string[];
  elem(): Atom;
}

export interface MapAtom {
  readonly atomic: boolean;
  /** Named fields (a struct); looked up by name. */
  field(name: string): FieldDef | undefined;
  readonly hasFields: boolean;
  /** Type of keys that are not named fields; undefined when unknown keys are not allowed. */
  elem(): Atom | undefined;
  /** A map with no fields and deduced elements (x-kubernetes-preserve-unknown-fields without properties). */
  readonly untypedDeduced: boolean;
}

export interface Atom {
  readonly scalar?: ScalarType;
  readonly list?: ListAtom;
  readonly map?: MapAtom;
}

const NO_FIELDS: MapAtom['field'] = () => undefined;

/** Elements of a deduced list and of an atomic deduced map: anything, atomic. */
export const UNTYPED_ATOMIC: Atom = {
  scalar: 'untyped',
  list: { atomic: true, keys: [], elem: () => UNTYPED_ATOMIC },
  map: { atomic: true, field: NO_FIELDS, hasFields: false, elem: () => UNTYPED_ATOMIC, untypedDeduced: false },
};

/** smd's __untyped_deduced_: scalars, atomic lists, granular maps of deduced values. */
export const DEDUCED: Atom = {
  scalar: 'untyped',
  list: { atomic: true, keys: [], elem: () => UNTYPED_ATOMIC },
  map: { atomic: false, field: NO_FIELDS, hasFields: false, elem: () => DEDUCED, untypedDeduced: true },
};

/**
 * Builds atoms from SchemaNodes, cached per node. `preserve` is the inherited
 * x-kubernetes-preserve-unknown-fields of inline schemas; a named definition
 * (a ref) starts afresh, as schemaconv converts each definition on its own.
 */
export class AtomResolver {
  private readonly cache = [new WeakMap<object, Atom>(), new WeakMap<object, Atom>()];

  constructor(private readonly table: SchemaTable) {}

  atomOf(node: SchemaNode, preserve = false): Atom {
    if (isRef(node)) return this.atomOf(this.table.resolve(node), false);
    const cache = this.cache[preserve ? 1 : 0]!;
    let atom = cache.get(node);
    if (!atom) {
      atom = this.build(node, preserve);
      cache.set(node, atom);
    }
    return atom;
  }

  private build(node: Exclude<SchemaNode, { ref: string }>, inherited: boolean): Atom {
    const preserve = inherited || node.preserveUnknownFields === true;
    switch (node.type) {
      case 'string':
        // resource.Quantity is a oneOf string/number upstream: schemaconv makes it untyped.
        return { scalar: node.format === 'quantity' ? 'untyped' : 'string' };
      case 'integer':
      case 'number':
        return { scalar: 'numeric' };
      case 'boolean':
        return { scalar: 'boolean' };
      case 'int-or-string':
        return { scalar: 'untyped' };
      case 'any':
        return DEDUCED;
      case 'array': {
        const { listType, keys } = effectiveListType(node);
        let elem: Atom | undefined;
        const items = node.items;
        return {
          list: {
            atomic: listType === 'atomic',
            keys: listType === 'map' ? keys : [],
            elem: () => (elem ??= this.atomOf(items, preserve)),
          },
        };
      }
      case 'object':
        return { map: this.mapAtom(node, preserve) };
      default:
        return DEDUCED;
    }
  }

  private mapAtom(node: ObjectNode, preserve: boolean): MapAtom {
    const properties = node.properties ?? {};
    const names = Object.keys(properties);
    const fields = new Map<string, FieldDef>();
    for (const name of names) {
      const prop = properties[name]!;
      let atom: Atom | undefined;
      const def = (prop as { default?: unknown }).default;
      fields.set(name, { atom: () => (atom ??= this.atomOf(prop, preserve)), default: def });
    }
    let elem: Atom | undefined;
    let elemFn: () => Atom | undefined;
    const additional = node.additionalProperties;
    const untypedDeduced = !additional && names.length === 0;
    if (additional) elemFn = () => (elem ??= this.atomOf(additional, preserve));
    // An object without properties is free-form; with properties, unknown keys
    // are only allowed below x-kubernetes-preserve-unknown-fields.
    else if (preserve || names.length === 0) elemFn = () => DEDUCED;
    else elemFn = () => undefined;
    return {
      atomic: node.mapType === 'atomic',
      field: names.length === 0 ? NO_FIELDS : (name) => fields.get(name),
      hasFields: names.length > 0,
      elem: elemFn,
      untypedDeduced,
    };
  }
}

/** The type of a map entry: its named field's type, else the element type (undefined: not allowed). */
export function entryAtom(map: MapAtom, key: string): Atom | undefined {
  const f = map.field(key);
  return f ? f.atom() : map.elem();
}

/** deduceAtom: narrows a multi-form (deduced) atom to the form of the value; absent or mismatching values keep the whole atom. */
export function deduceAtom(atom: Atom, value: unknown): Atom {
  if (value === undefined) return atom;
  if (value === null) return atom;
  if (typeof value === 'object') {
    if (Array.isArray(value)) return atom.list && (atom.scalar || atom.map) ? { list: atom.list } : atom;
    return atom.map && (atom.scalar || atom.list) ? { map: atom.map } : atom;
  }
  return atom.scalar && (atom.list || atom.map) ? { scalar: atom.scalar } : atom;
}

/** Atom.Equals for two atoms narrowed from the same one: same forms present. */
export function sameForms(a: Atom, b: Atom): boolean {
  return (a.scalar === undefined) === (b.scalar === undefined) && (a.list === undefined) === (b.list === undefined) && (a.map === undefined) === (b.map === undefined);
}
