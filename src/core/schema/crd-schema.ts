// A CustomResourceDefinition's openAPIV3Schema (apiextensions JSONSchemaProps
// as JSON) turned into the SchemaNode form every schema algorithm reads, and
// back (for the served /openapi/v3 documents).

import { isRef, type SchemaNode } from './types';

type Props = Record<string, unknown>;

function isProps(x: unknown): x is Props {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Converts a JSONSchemaProps value to a SchemaNode (inline; CRD schemas have no refs). */
export function fromJSONSchemaProps(props: unknown): SchemaNode {
  if (!isProps(props)) return { type: 'any', preserveUnknownFields: true };
  const node: Record<string, unknown> = {};
  const type = props.type as string | undefined;
  if (props['x-kubernetes-int-or-string'] === true) node.type = 'int-or-string';
  else if (type === 'string' || type === 'integer' || type === 'number' || type === 'boolean' || type === 'array' || type === 'object') node.type = type;
  else node.type = 'any';

  if (typeof props.description === 'string' && props.description !== '') node.description = props.description;
  if ('default' in props) node.default = props.default;
  if (props.nullable === true) node.nullable = true;
  if (props['x-kubernetes-preserve-unknown-fields'] === true) node.preserveUnknownFields = true;
  if (props['x-kubernetes-embedded-resource'] === true) node.embeddedResource = true;
  if (Array.isArray(props.enum)) node.enum = props.enum;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(props[key])) node[key] = (props[key] as unknown[]).map(fromJSONSchemaProps);
  }
  if (isProps(props.not)) node.not = fromJSONSchemaProps(props.not);
  for (const key of ['format', 'pattern']) if (typeof props[key] === 'string') node[key] = props[key];
  for (const key of ['minimum', 'maximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']) {
    if (typeof props[key] === 'number') node[key] = props[key];
  }
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum', 'uniqueItems']) if (props[key] === true) node[key] = true;

  if (node.type === 'array') {
    node.items = props.items !== undefined ? fromJSONSchemaProps(props.items) : { type: 'any' };
    if (typeof props['x-kubernetes-list-type'] === 'string') node.listType = props['x-kubernetes-list-type'];
    if (Array.isArray(props['x-kubernetes-list-map-keys'])) node.listMapKeys = props['x-kubernetes-list-map-keys'];
  }
  if (node.type === 'object' || node.type === 'any') {
    if (isProps(props.properties)) {
      node.type = 'object';
      node.properties = Object.fromEntries(Object.entries(props.properties).map(([k, v]) => [k, fromJSONSchemaProps(v)]));
    }
    if (isProps(props.additionalProperties)) {
      node.type = 'object';
      node.additionalProperties = fromJSONSchemaProps(props.additionalProperties);
    } else if (props.additionalProperties === true && !node.properties) {
      node.additionalProperties = { type: 'any', preserveUnknownFields: true };
    }
    if (node.type === 'object' && !node.properties && !node.additionalProperties) node.properties = {};
    if (Array.isArray(props.required) && props.required.length) node.required = props.required;
    if (typeof props['x-kubernetes-map-type'] === 'string') node.mapType = props['x-kubernetes-map-type'];
  }
  return node as unknown as SchemaNode;
}

/** How a node is published beyond what it renders to (built-in tables; see builtin-table's PublishedForm). */
export type PublishedFormOf = (node: SchemaNode) => { readonly copyOf?: string; readonly plainRef?: boolean; readonly extensions?: Readonly<Record<string, unknown>> } | undefined;

/**
 * Renders a SchemaNode as an OpenAPI v3 schema object, with kube's vendor
 * extensions. Refs become `allOf: [{$ref}]` (with the ref's default beside),
 * as the kube-openapi builder writes them, unless `publishedForm` says the
 * node is a bare `$ref`; markers `publishedForm` names are added.
 */
export function toOpenAPISchema(node: SchemaNode, refPrefix = '#/components/schemas/', publishedForm?: PublishedFormOf): Record<string, unknown> {
  const form = publishedForm?.(node);
  const rendered = renderNode(node, refPrefix, publishedForm, form);
  // Only markers the node did not render itself (a node never renders one differently).
  for (const [key, value] of Object.entries(form?.extensions ?? {})) if (!Object.hasOwn(rendered, key)) rendered[key] = value;
  return rendered;
}

function renderNode(node: SchemaNode, refPrefix: string, publishedForm: PublishedFormOf | undefined, form: ReturnType<PublishedFormOf>): Record<string, unknown> {
  // A field-level marker over a named definition is published as allOf + the marker (the marker comes from `form`).
  if (form?.copyOf && !isRef(node) && node.type === 'object') {
    const out: Record<string, unknown> = { allOf: [{ $ref: refPrefix + form.copyOf }] };
    if (node.default !== undefined) out.default = node.default;
    return out;
  }
  if (isRef(node)) {
    if (form?.plainRef) return { $ref: refPrefix + node.ref };
    const out: Record<string, unknown> = { allOf: [{ $ref: refPrefix + node.ref }] };
    if (node.default !== undefined) out.default = node.default;
    return out;
  }
  const out: Record<string, unknown> = {};
  const n = node as unknown as Record<string, unknown>;
  if (node.description) out.description = node.description;
  switch (node.type) {
    case 'int-or-string':
      out['x-kubernetes-int-or-string'] = true;
      break;
    case 'any':
      break;
    case 'string':
      if (node.format === 'quantity') {
        // resource.Quantity is published as a string-or-number.
        out.oneOf = [{ type: 'string' }, { type: 'number' }];
      } else {
        out.type = 'string';
        if (node.format) out.format = node.format;
      }
      break;
    default:
      out.type = node.type;
      if (typeof n.format === 'string') out.format = n.format;
  }
  for (const key of ['pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'nullable']) {
    if (n[key] !== undefined) out[key] = n[key];
  }
  if (node.enum) out.enum = node.enum;
  if (node.default !== undefined) out.default = node.default;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (list) out[key] = list.map((s) => toOpenAPISchema(s, refPrefix, publishedForm));
  }
  if (node.not) out.not = toOpenAPISchema(node.not, refPrefix, publishedForm);
  if (node.type === 'object') {
    if (node.properties && Object.keys(node.properties).length) {
      out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, toOpenAPISchema(v, refPrefix, publishedForm)]));
    }
    if (node.additionalProperties) out.additionalProperties = toOpenAPISchema(node.additionalProperties, refPrefix, publishedForm);
    if (node.required?.length) out.required = node.required;
    if (node.mapType) out['x-kubernetes-map-type'] = node.mapType;
    if (node.patchStrategy) out['x-kubernetes-patch-strategy'] = node.patchStrategy;
  }
  if (node.type === 'array') {
    out.items = toOpenAPISchema(node.items, refPrefix, publishedForm);
    if (node.listMapKeys) out['x-kubernetes-list-map-keys'] = node.listMapKeys;
    if (node.listType) out['x-kubernetes-list-type'] = node.listType;
    if (node.patchMergeKey) out['x-kubernetes-patch-merge-key'] = node.patchMergeKey;
    if (node.patchStrategy) out['x-kubernetes-patch-strategy'] = node.patchStrategy;
  }
  if (node.embeddedResource) out['x-kubernetes-embedded-resource'] = true;
  if (node.preserveUnknownFields) out['x-kubernetes-preserve-unknown-fields'] = true;
  return out;
}
