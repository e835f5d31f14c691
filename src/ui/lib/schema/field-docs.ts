// What the editor's hover says about a field. KubeTab serves no upstream
// descriptions (their text is not ours to copy), so a field is described by
// the facts of its schema: its type (and format, item or value type, the
// definition it refers to), whether its object requires it, and the values
// an enumeration allows.

import type { SchemaObject } from './openapi-schema';

const REF = '#/components/schemas/';

/** `io.k8s.api.apps.v1.DeploymentSpec` → `DeploymentSpec`. */
function shortName(ref: string): string {
  const name = ref.startsWith(REF) ? ref.slice(REF.length) : ref;
  return name.slice(name.lastIndexOf('.') + 1);
}

/** The referenced definition of a property: `$ref`, or kube's `allOf: [{$ref}]`. */
function refOf(schema: SchemaObject): string | undefined {
  if (typeof schema.$ref === 'string') return schema.$ref;
  const first = schema.allOf?.[0];
  return first && typeof first.$ref === 'string' ? first.$ref : undefined;
}

/** A type in words: `integer (int32)`, `object (DeploymentSpec)`, `array of Container`, `map of string to string`. */
export function typeOf(schema: SchemaObject | undefined): string {
  if (!schema) return 'any';
  const ref = refOf(schema);
  if (ref) return `object (${shortName(ref)})`;
  const type = typeof schema.type === 'string' ? schema.type : undefined;
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  if (type === 'array') {
    const items = schema.items;
    const itemRef = items && refOf(items);
    return `array of ${itemRef ? shortName(itemRef) : typeOf(items)}`;
  }
  if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    const value = schema.additionalProperties;
    const valueRef = refOf(value);
    return `map of string to ${valueRef ? shortName(valueRef) : typeOf(value)}`;
  }
  if (schema['x-kubernetes-int-or-string']) return 'integer or string';
  if (schema['x-kubernetes-preserve-unknown-fields'] && !type) return 'any';
  return `${type ?? 'any'}${format}`;
}

/** The hover text of property `name` of an object that requires `required`. */
export function describeField(name: string, schema: SchemaObject | undefined, required: readonly string[], values?: readonly unknown[]): string {
  const parts = [`${name}: ${typeOf(schema)}`, required.includes(name) ? 'required' : 'optional'];
  const allowed = values ?? (Array.isArray(schema?.enum) ? schema.enum : undefined);
  let text = parts.join(', ');
  if (allowed?.length) text += `. One of: ${allowed.map((v) => (v === '' ? '""' : String(v))).join(', ')}`;
  return `${text}.`;
}
