// The compact structural schema every kind is described by.
//
// Built-in kinds get theirs from tables generated out of the 1.32 OpenAPI v3
// documents (facts only: names, types, formats, enums, defaults, required,
// merge markers); custom resources get theirs from their CRD's
// openAPIV3Schema. Validation, pruning, defaulting from schema, field
// validation (unknown fields), strategic merge patch, server-side apply and
// the served /openapi/v3 documents all read this one representation.
//
// A schema is a tree of `SchemaNode`s; named definitions (the OpenAPI
// `components.schemas`, e.g. "io.k8s.api.core.v1.PodSpec") are shared through
// `{ ref }` nodes resolved against a `SchemaTable`.

export type ListType = 'atomic' | 'set' | 'map';
export type MapType = 'atomic' | 'granular';

interface NodeBase {
  /**
   * A CRD author's own text, published in /openapi/v2 and v3 as kube does, so
   * `kubectl explain` shows it. Built-in tables carry none (upstream's texts
   * stay out of the project).
   */
  readonly description?: string;
  /** OpenAPI `default` (a JSON value), applied by schema defaulting where the server does. */
  readonly default?: unknown;
  /** x-kubernetes-preserve-unknown-fields: unknown fields below are kept, not pruned. */
  readonly preserveUnknownFields?: boolean;
  /** x-kubernetes-embedded-resource */
  readonly embeddedResource?: boolean;
  readonly nullable?: boolean;
  /**
   * OpenAPI `enum` (CRD schemas; built-in 1.32 schemas carry none). Kinds
   * narrow the element type where they can.
   */
  readonly enum?: readonly unknown[];
  /** Value validations of CRD schemas (JSON Schema combinators). */
  readonly allOf?: readonly SchemaNode[];
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly not?: SchemaNode;
}

export interface StringNode extends NodeBase {
  readonly type: 'string';
  /**
   * 'date-time', 'byte', 'int-or-string' is its own node, …
   * 'quantity' (resource.Quantity): a string, or a JSON number the decoder accepts as one.
   */
  readonly format?: string;
  readonly enum?: readonly string[];
  readonly pattern?: string;
  readonly maxLength?: number;
  readonly minLength?: number;
}

export interface IntegerNode extends NodeBase {
  readonly type: 'integer';
  readonly format?: 'int32' | 'int64';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly multipleOf?: number;
  readonly enum?: readonly number[];
}

export interface NumberNode extends NodeBase {
  readonly type: 'number';
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly multipleOf?: number;
}

export interface BooleanNode extends NodeBase {
  readonly type: 'boolean';
}

/** A struct: known fields (properties). May also be a map when additionalProperties is set and properties empty. */
export interface ObjectNode extends NodeBase {
  readonly type: 'object';
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  /** Map values' schema (a map when present). */
  readonly additionalProperties?: SchemaNode;
  /** x-kubernetes-map-type (for maps and structs). Absent means granular for structs and maps. */
  readonly mapType?: MapType;
  /**
   * x-kubernetes-patch-strategy on a struct-valued field ('retainKeys' on
   * DeploymentSpec.strategy, 'replace' on PodDisruptionBudgetSpec.selector).
   * Such a field carries an inline copy of the referenced definition, since a
   * RefNode holds no markers.
   */
  readonly patchStrategy?: string;
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

export interface ArrayNode extends NodeBase {
  readonly type: 'array';
  readonly items: SchemaNode;
  /**
   * x-kubernetes-list-type. When absent on a built-in type and patchStrategy
   * contains 'merge', readers treat it as 'map' keyed by patchMergeKey (as the
   * specification says); otherwise as 'atomic'. Use `effectiveListType()`.
   */
  readonly listType?: ListType;
  readonly listMapKeys?: readonly string[];
  /** x-kubernetes-patch-strategy, e.g. 'merge', 'retainKeys', 'merge,retainKeys', 'replace'. */
  readonly patchStrategy?: string;
  /** x-kubernetes-patch-merge-key */
  readonly patchMergeKey?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** JSON Schema uniqueItems (CRD schemas). */
  readonly uniqueItems?: boolean;
}

/** x-kubernetes-int-or-string (IntOrString): an integer or a string. */
export interface IntOrStringNode extends NodeBase {
  readonly type: 'int-or-string';
}

/** Anything (RawExtension, JSON, an untyped field with preserve-unknown-fields). */
export interface AnyNode extends NodeBase {
  readonly type: 'any';
}

/** A reference to a named definition in the SchemaTable. Never nested: `ref` nodes carry only the name and an optional default. */
export interface RefNode {
  readonly ref: string;
  readonly default?: unknown;
}

export type SchemaNode =
  | StringNode
  | IntegerNode
  | NumberNode
  | BooleanNode
  | ObjectNode
  | ArrayNode
  | IntOrStringNode
  | AnyNode
  | RefNode;

/**
 * Named definitions. Struct-level markers live on the definition itself
 * (e.g. ObjectReference and LabelSelector have mapType 'atomic').
 */
export interface SchemaTable {
  readonly definitions: Readonly<Record<string, SchemaNode>>;
  /** Resolves refs (follows chains), throwing for an unknown name. */
  resolve(node: SchemaNode): Exclude<SchemaNode, RefNode>;
}

export function isRef(node: SchemaNode): node is RefNode {
  return (node as RefNode).ref !== undefined;
}

/** The list type a merge must use for an array node, per the specification's rule for unmarked built-in lists. */
export function effectiveListType(node: ArrayNode): { listType: ListType; keys: readonly string[] } {
  if (node.listType) return { listType: node.listType, keys: node.listMapKeys ?? [] };
  if (node.patchStrategy?.split(',').includes('merge')) {
    if (node.patchMergeKey) return { listType: 'map', keys: [node.patchMergeKey] };
    return { listType: 'set', keys: [] };
  }
  return { listType: 'atomic', keys: [] };
}

export function createSchemaTable(definitions: Record<string, SchemaNode>): SchemaTable {
  return {
    definitions,
    resolve(node) {
      let current = node;
      for (let depth = 0; isRef(current); depth++) {
        if (depth > 32) throw new Error(`schema ref cycle at ${current.ref}`);
        const next = definitions[current.ref];
        if (!next) throw new Error(`unknown schema definition ${current.ref}`);
        current = next;
      }
      return current as Exclude<SchemaNode, RefNode>;
    },
  };
}
