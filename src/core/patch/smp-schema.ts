// The patch metadata a strategic merge patch reads from a type, looked up in
// our SchemaTable the way strategicpatch.PatchMetaFromStruct looks it up in Go
// struct tags on the server:
// - a struct field gives its `patchStrategy` / `patchMergeKey` (OpenAPI's
//   x-kubernetes-patch-strategy / -merge-key) and its type;
// - a map gives its value type and no metadata;
// - a field the struct does not have, or any key below a RawExtension / JSON
//   value, is an error ("unable to find api field in struct RawExtension for the
//   json field \"x\""), which the server returns as a 500.
// Only the patch markers matter here; list-type / map-type markers (used by
// server-side apply) do not change a strategic merge.

import { isRef, type SchemaNode, type SchemaTable } from '../schema/types';
import { goQuote } from '../util/go/quote';
import { StrategicMergePatchError } from './smp-errors';

export interface PatchMeta {
  /** x-kubernetes-patch-strategy split on ",", e.g. ['merge', 'retainKeys']. */
  readonly strategies: readonly string[];
  readonly mergeKey: string;
}

const NO_META: PatchMeta = { strategies: [], mergeKey: '' };

/** A type in the schema, with the Go name of the named definition it came from (for error texts). */
export class PatchSchema {
  private resolved?: Exclude<SchemaNode, { ref: string }>;
  private goName = '';

  constructor(
    private readonly node: SchemaNode | undefined,
    private readonly table: SchemaTable,
  ) {}

  private resolve(): Exclude<SchemaNode, { ref: string }> | undefined {
    if (this.resolved || !this.node) return this.resolved;
    let n: SchemaNode = this.node;
    // Follow refs by hand to remember the last definition's name: Go names the struct type.
    for (let depth = 0; isRef(n); depth++) {
      if (depth > 32) throw new Error(`schema ref cycle at ${n.ref}`);
      this.goName = n.ref.slice(n.ref.lastIndexOf('.') + 1);
      const next: SchemaNode | undefined = this.table.definitions[n.ref];
      if (!next) throw new Error(`unknown schema definition ${n.ref}`);
      n = next;
    }
    this.resolved = n as Exclude<SchemaNode, { ref: string }>;
    return this.resolved;
  }

  /** reflect.Kind name of this type, as PatchMetaFromStruct.Name() prints it. */
  kindName(): string {
    const n = this.resolve();
    if (!n) return 'interface';
    switch (n.type) {
      case 'object':
        if (n.properties) return 'struct';
        if (n.additionalProperties) return 'map';
        return n.preserveUnknownFields ? 'interface' : 'struct';
      case 'array':
        return 'slice';
      case 'string':
        return 'string';
      case 'boolean':
        return 'bool';
      case 'integer':
        return n.format === 'int32' ? 'int32' : 'int64';
      case 'number':
        return 'float64';
      case 'int-or-string':
        return 'struct';
      case 'any':
        return this.goName ? 'struct' : 'interface';
    }
  }

  /** The field's type and patch metadata for a JSON key of this struct or map (LookupPatchMetadataForStruct). */
  lookupStruct(key: string): { schema: PatchSchema; meta: PatchMeta } {
    const n = this.resolve();
    const missing = (structName: string) =>
      new StrategicMergePatchError(`unable to find api field in struct ${structName} for the json field ${goQuote(key)}`);
    if (n?.type === 'object') {
      if (n.properties) {
        if (!Object.prototype.hasOwnProperty.call(n.properties, key)) throw missing(this.goName);
        const field = n.properties[key]!;
        return { schema: new PatchSchema(field, this.table), meta: metaOf(field) };
      }
      if (n.additionalProperties) return { schema: new PatchSchema(n.additionalProperties, this.table), meta: NO_META };
      if (!n.preserveUnknownFields) throw missing(this.goName);
    }
    // IntOrString, RawExtension, JSON, FieldsV1…: Go structs whose JSON form is custom.
    if (n?.type === 'int-or-string') throw missing('IntOrString');
    if (n?.type === 'any' && this.goName) throw missing(this.goName);
    throw new StrategicMergePatchError(`merging an object in json but data type is not map or struct, instead is: ${this.kindName()}`);
  }

  /** The element type and patch metadata of a list field (LookupPatchMetadataForSlice). */
  lookupSlice(key: string): { schema: PatchSchema; meta: PatchMeta } {
    const { schema, meta } = this.lookupStruct(key);
    const field = schema.resolve();
    if (field?.type !== 'array') {
      // Go names the kind of the enclosing type here, not the field's.
      throw new StrategicMergePatchError(`expected slice or array type, but got: ${this.kindName()}`);
    }
    return { schema: new PatchSchema(field.items, this.table), meta };
  }
}

function metaOf(field: SchemaNode): PatchMeta {
  if (isRef(field)) return NO_META;
  const strategy = field.type === 'array' || field.type === 'object' ? field.patchStrategy : undefined;
  const mergeKey = field.type === 'array' ? (field.patchMergeKey ?? '') : '';
  if (!strategy && !mergeKey) return NO_META;
  return { strategies: strategy ? strategy.split(',') : [], mergeKey };
}
