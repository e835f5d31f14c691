// What kube-apiserver's JSON decoder (sigs.k8s.io/json, a fork of Go's
// encoding/json, run case-sensitively and with strict checks) observes when it
// decodes a request body into a built-in Go type. One walk over the body's
// syntax tree, guided by the schema, reproduces in Go's order:
//
// - the first type error ("json: cannot unmarshal string into Go struct field
//   PodSpec.spec.containers of type []v1.Container"), or the error a custom
//   unmarshaler (Quantity, Time, IntOrString) returns, which stops decoding;
// - the strict errors: `unknown field "spec.foo"` and `duplicate field
//   "metadata.name"`, with the decoder's paths (keys joined by ".", list
//   indices as "[i]", map keys as path segments), deduplicated, at most 100.
//
// Fields Go decodes as raw bytes (RawExtension, FieldsV1, apiextensions JSON)
// are not looked into, as Go does not.

import { inlineCopyOf } from './builtin-table';
import { base64DecodeError, quantityParseError, rfc3339ParseError } from './go-values';
import type { JsonAst } from './json-ast';
import { isRef, type ObjectNode, type SchemaNode, type SchemaTable } from './types';

export interface BuiltinDecodeResult {
  /** The error the decoder returns (type error or unmarshaler error); undefined when the body decodes. */
  readonly error?: string;
  /** Unknown and duplicate field errors, in the decoder's order. Go drops them when `error` is set. */
  readonly strictErrors: readonly string[];
}

const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const MAX_STRICT_ERRORS = 100;

/**
 * Go structs that embed another struct inline (`json:",inline"`): the error
 * context of a promoted field names the embedded struct (Go ≥ 1.21 decoder).
 * The OpenAPI documents flatten these, so they are listed here.
 */
const EMBEDDED: Readonly<Record<string, { name: string; fields: (field: string) => boolean }>> = {
  'io.k8s.api.core.v1.Volume': { name: 'VolumeSource', fields: (f) => f !== 'name' },
  'io.k8s.api.core.v1.EphemeralContainer': { name: 'EphemeralContainerCommon', fields: (f) => f !== 'targetContainerName' },
  'io.k8s.api.core.v1.PersistentVolumeSpec': {
    name: 'PersistentVolumeSource',
    fields: (f) =>
      ![
        'accessModes',
        'capacity',
        'claimRef',
        'mountOptions',
        'nodeAffinity',
        'persistentVolumeReclaimPolicy',
        'storageClassName',
        'volumeMode',
        'volumeAttributesClassName',
      ].includes(f),
  },
};

class FatalDecodeError {
  constructor(readonly message: string) {}
}

interface ErrorContext {
  /** Name of the Go struct type holding the current field ('' at the root). */
  struct: string;
  fieldStack: string[];
}

/** Decodes `ast` into the built-in type `root` (usually a ref to a kind's root definition) the way Go does. */
export function decodeBuiltin(ast: JsonAst, root: SchemaNode, table: SchemaTable): BuiltinDecodeResult {
  const decoder = new Decoder(table);
  try {
    decoder.value(ast, root);
  } catch (e) {
    if (e instanceof FatalDecodeError) return { error: e.message, strictErrors: decoder.strictErrors };
    throw e;
  }
  return decoder.savedError !== undefined
    ? { error: decoder.savedError, strictErrors: decoder.strictErrors }
    : { strictErrors: decoder.strictErrors };
}

/** The Go type name of a definition as reflect prints it: "io.k8s.api.core.v1.PodSpec" → "v1.PodSpec". */
export function goTypeOfDefinition(name: string): string {
  const parts = name.split('.');
  return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
}

class Decoder {
  savedError: string | undefined;
  readonly strictErrors: string[] = [];
  private readonly seenStrict = new Set<string>();
  private readonly strictPath: string[] = [];
  private readonly ctx: ErrorContext = { struct: '', fieldStack: [] };

  constructor(private readonly table: SchemaTable) {}

  value(ast: JsonAst, node: SchemaNode, name?: string): void {
    let defName = name;
    if (isRef(node)) {
      defName = node.ref;
      // Custom unmarshalers are known by definition.
      switch (node.ref) {
        case TIME:
        case MICRO_TIME:
          return this.time(ast, node.ref === MICRO_TIME);
        case QUANTITY:
          return this.quantity(ast);
        case INT_OR_STRING:
          return this.intOrString(ast);
        default:
          break;
      }
    }
    const n = this.table.resolve(node);
    // null leaves any Go value unset without error.
    if (ast.kind === 'null') return;
    switch (n.type) {
      case 'any':
        return;
      case 'int-or-string':
        return this.intOrString(ast);
      case 'object':
        if (n.properties) return this.struct(ast, n, defName);
        return this.map(ast, n);
      case 'array':
        return this.array(ast, n.items);
      case 'string':
        if (n.format === 'quantity') return this.quantity(ast);
        if (n.format === 'byte') {
          if (ast.kind !== 'string') return this.typeError(literalKind(ast), '[]uint8');
          const err = base64DecodeError(ast.value);
          if (err !== undefined) this.save(err);
          return;
        }
        if (ast.kind !== 'string') this.typeError(literalKind(ast), 'string');
        return;
      case 'integer': {
        const goType = n.format === 'int32' ? 'int32' : n.format === 'int64' ? 'int64' : 'int';
        if (ast.kind !== 'number') return this.typeError(literalKind(ast), goType);
        if (!fitsInteger(ast.text, goType)) this.typeError(`number ${ast.text}`, goType);
        return;
      }
      case 'number':
        if (ast.kind !== 'number') this.typeError(literalKind(ast), 'float64');
        return;
      case 'boolean':
        if (ast.kind !== 'boolean') this.typeError(literalKind(ast), 'bool');
        return;
    }
  }

  private struct(ast: JsonAst, node: ObjectNode, defName: string | undefined): void {
    const structName = defName ? defName.slice(defName.lastIndexOf('.') + 1) : this.inlineStructName(node);
    if (ast.kind !== 'object') {
      const copied = defName ?? inlineCopyOf(node);
      return this.typeError(literalKind(ast), copied ? goTypeOfDefinition(copied) : 'struct {}');
    }
    const properties = node.properties ?? {};
    const embedded = defName ? EMBEDDED[defName] : undefined;
    const isRootKind = properties.apiVersion !== undefined && properties.kind !== undefined && properties.metadata !== undefined;
    const seen = new Set<string>();
    for (const { key, value } of ast.entries) {
      const child = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (!child) {
        this.strict('unknown', key);
        continue;
      }
      if (seen.has(key)) this.strict('duplicate', key);
      seen.add(key);
      const saved = { struct: this.ctx.struct, depth: this.ctx.fieldStack.length };
      if (embedded?.fields(key)) this.ctx.fieldStack.push(embedded.name);
      else if (isRootKind && (key === 'apiVersion' || key === 'kind')) this.ctx.fieldStack.push('TypeMeta');
      this.ctx.fieldStack.push(key);
      this.ctx.struct = structName;
      this.strictPath.push(key);
      this.value(value, child);
      this.strictPath.pop();
      this.ctx.fieldStack.length = saved.depth;
      this.ctx.struct = saved.struct;
    }
  }

  private map(ast: JsonAst, node: ObjectNode): void {
    const valueNode = node.additionalProperties ?? { type: 'any' };
    if (ast.kind !== 'object') return this.typeError(literalKind(ast), this.goType(node));
    const seen = new Set<string>();
    for (const { key, value } of ast.entries) {
      if (seen.has(key)) this.strict('duplicate', key);
      seen.add(key);
      this.strictPath.push(key);
      this.value(value, valueNode);
      this.strictPath.pop();
    }
  }

  private array(ast: JsonAst, items: SchemaNode): void {
    if (ast.kind !== 'array') return this.typeError(literalKind(ast), `[]${this.goType(items)}`);
    ast.items.forEach((item, i) => {
      const last = this.strictPath.length - 1;
      const parent = this.strictPath[last];
      // An index belongs to the path segment before it: "containers[0]".
      if (last >= 0) this.strictPath[last] = `${parent}[${i}]`;
      else this.strictPath.push(`[${i}]`);
      this.value(item, items);
      if (last >= 0) this.strictPath[last] = parent!;
      else this.strictPath.pop();
    });
  }

  // metav1.Time.UnmarshalJSON: null, else a JSON string parsed as RFC 3339.
  private time(ast: JsonAst, micro: boolean): void {
    if (ast.kind === 'null') return;
    if (ast.kind !== 'string') this.fatalTypeError(literalKind(ast), 'string');
    const err = rfc3339ParseError(ast.value, micro);
    if (err !== undefined) throw new FatalDecodeError(err);
  }

  // resource.Quantity.UnmarshalJSON: a string or the raw JSON text, parsed as a quantity.
  private quantity(ast: JsonAst): void {
    if (ast.kind === 'null') return;
    const text = ast.kind === 'string' ? ast.value : ast.kind === 'number' ? ast.text : rawText(ast);
    const err = quantityParseError(ast.kind === 'string' ? text : text.trim());
    if (err !== undefined) throw new FatalDecodeError(err);
  }

  // intstr.IntOrString.UnmarshalJSON: a string, else decoded into an int32 by a nested json.Unmarshal.
  private intOrString(ast: JsonAst): void {
    if (ast.kind === 'string' || ast.kind === 'null') return;
    if (ast.kind !== 'number') this.fatalTypeError(literalKind(ast), 'int32');
    if (!fitsInteger(ast.text, 'int32')) this.fatalTypeError(`number ${ast.text}`, 'int32');
  }

  private goType(node: SchemaNode): string {
    if (isRef(node)) {
      if (node.ref === INT_OR_STRING) return 'intstr.IntOrString';
      if (node.ref === QUANTITY) return 'resource.Quantity';
      return goTypeOfDefinition(node.ref);
    }
    switch (node.type) {
      case 'object':
        if (node.properties) {
          const copied = inlineCopyOf(node);
          return copied ? goTypeOfDefinition(copied) : 'struct {}';
        }
        return `map[string]${this.goType(node.additionalProperties ?? { type: 'any' })}`;
      case 'array':
        return `[]${this.goType(node.items)}`;
      case 'string':
        return node.format === 'byte' ? '[]uint8' : node.format === 'quantity' ? 'resource.Quantity' : 'string';
      case 'integer':
        return node.format === 'int32' ? 'int32' : node.format === 'int64' ? 'int64' : 'int';
      case 'number':
        return 'float64';
      case 'boolean':
        return 'bool';
      case 'int-or-string':
        return 'intstr.IntOrString';
      case 'any':
        return 'interface {}';
    }
  }

  /** Fields carrying an inline copy of a definition (a field-level marker) still decode into that named type. */
  private inlineStructName(node: ObjectNode): string {
    const name = inlineCopyOf(node);
    return name ? name.slice(name.lastIndexOf('.') + 1) : '';
  }

  private describe(value: string, goType: string): string {
    if (this.ctx.struct || this.ctx.fieldStack.length) {
      return `json: cannot unmarshal ${value} into Go struct field ${this.ctx.struct}.${this.ctx.fieldStack.join('.')} of type ${goType}`;
    }
    return `json: cannot unmarshal ${value} into Go value of type ${goType}`;
  }

  /** A type error is saved (the first one wins) and decoding goes on. */
  private typeError(value: string, goType: string): void {
    this.save(this.describe(value, goType));
  }

  /** A type error inside a custom unmarshaler ends decoding; the decoder adds its field context. */
  private fatalTypeError(value: string, goType: string): never {
    throw new FatalDecodeError(this.describe(value, goType));
  }

  private save(message: string): void {
    if (this.savedError === undefined) this.savedError = message;
  }

  private strict(type: 'unknown' | 'duplicate', field: string): void {
    if (this.strictErrors.length >= MAX_STRICT_ERRORS) return;
    const parent = this.strictPath.join('.');
    const message = `${type} field ${JSON.stringify(parent ? `${parent}.${field}` : field)}`;
    if (this.seenStrict.has(message)) return;
    this.seenStrict.add(message);
    this.strictErrors.push(message);
  }
}

/** How Go's decoder names a JSON value that does not fit: "string", "number", "bool", "object", "array". */
function literalKind(ast: JsonAst): string {
  switch (ast.kind) {
    case 'boolean':
      return 'bool';
    case 'null':
      return 'null';
    default:
      return ast.kind;
  }
}

const LIMITS: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  int: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** strconv.ParseInt of the literal text plus the overflow check of the target type. */
function fitsInteger(text: string, goType: string): boolean {
  if (!/^-?[0-9]+$/.test(text)) return false;
  const n = BigInt(text);
  const [min, max] = LIMITS[goType]!;
  return n >= min && n <= max;
}

/** Compact JSON text of a value, as the raw bytes a custom unmarshaler receives (whitespace aside). */
function rawText(ast: JsonAst): string {
  switch (ast.kind) {
    case 'object':
      return `{${ast.entries.map((e) => `${JSON.stringify(e.key)}:${rawText(e.value)}`).join(',')}}`;
    case 'array':
      return `[${ast.items.map(rawText).join(',')}]`;
    case 'string':
      return JSON.stringify(ast.value);
    case 'number':
      return ast.text;
    case 'boolean':
      return String(ast.value);
    case 'null':
      return 'null';
  }
}
