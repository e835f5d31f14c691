#!/usr/bin/env node
// Generates src/core/schema/generated/ from the Kubernetes 1.32 OpenAPI v3
// documents (one per group-version, `<path>_openapi.json`).
//
//   node scripts/gen-schemas.mjs [dir-with-openapi-json]
//
// Default source: ../shared/reference/k8s-openapi-v3 relative to the project
// root. The output is committed, so a fresh checkout never needs the source.
//
// Only facts are kept (names, types, formats, defaults, required, the
// x-kubernetes-* merge and structure markers); no description text. The
// output is the compact `SchemaNode` form of src/core/schema/types.ts:
//   - packages/<go package>.ts: that package's definitions, one a line;
//   - all.ts: imports every package module;
//   - index.ts: group-version → kind → root definition, group-version → its
//     /openapi/v3 path, and each definition's x-kubernetes-group-version-kind
//     list (for the served OpenAPI documents).

import { readFileSync, readdirSync, writeFileSync, mkdirSync, rmSync, existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = resolve(process.argv[2] ?? join(root, '..', 'shared', 'reference', 'k8s-openapi-v3'));
const outDir = join(root, 'src', 'core', 'schema', 'generated');

if (!existsSync(source) || !statSync(source).isDirectory()) {
  console.error(`gen-schemas: OpenAPI v3 directory not found: ${source}`);
  console.error('usage: node scripts/gen-schemas.mjs <dir containing *_openapi.json>');
  process.exit(1);
}
const files = readdirSync(source)
  .filter((f) => f.endsWith('_openapi.json'))
  .sort();
if (files.length === 0) {
  console.error(`gen-schemas: no *_openapi.json files in ${source}`);
  process.exit(1);
}

// Definitions whose Go type decodes any JSON value as is (no field checks):
// the OpenAPI says `type: object` (or nothing) without properties.
const ANY_DEFINITIONS = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);

const REF_PREFIX = '#/components/schemas/';

// ---- read every document -------------------------------------------------

/** definition name → raw OpenAPI schema (identical across documents; checked). */
const rawDefinitions = new Map();
/** group-version ("" group for core) → { path, rootDefinitions } */
const groupVersions = new Map();
/** "<group>/<resource>" of the resources whose DELETE answers with the object. */
const deleteReturnsObject = new Set();

for (const file of files) {
  const doc = JSON.parse(readFileSync(join(source, file), 'utf8'));
  // `apis__apps__v1_openapi.json` → `apis/apps/v1`
  const path = file.slice(0, -'_openapi.json'.length).split('__').join('/');
  const parts = path.split('/');
  const gv = parts[0] === 'api' ? { group: '', version: parts[1] } : { group: parts[1], version: parts[2] };
  const gvKey = gv.group ? `${gv.group}/${gv.version}` : gv.version;
  const kinds = {};
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    const seen = rawDefinitions.get(name);
    if (seen && JSON.stringify(seen) !== JSON.stringify(schema)) {
      console.warn(`gen-schemas: ${name} differs between documents; keeping the first`);
    } else if (!seen) {
      rawDefinitions.set(name, schema);
    }
    for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
      if (gvk.group === gv.group && gvk.version === gv.version) kinds[gvk.kind] = name;
    }
  }
  groupVersions.set(gvKey, { ...gv, path, kinds });
  // A delete that answers with the deleted object rather than a Status
  // (the registry's ReturnDeletedObject), as the documents publish it.
  for (const [route, item] of Object.entries(doc.paths ?? {})) {
    const del = item.delete;
    if (del?.['x-kubernetes-action'] !== 'delete') continue;
    const ref = del.responses?.['200']?.content?.['application/json']?.schema?.$ref ?? '';
    if (ref && !ref.endsWith('.meta.v1.Status')) {
      const plural = route.split('/').slice(-2)[0];
      deleteReturnsObject.add(`${gv.group}/${plural}`);
    }
  }
}

// ---- convert to SchemaNode ----------------------------------------------

function refName(ref) {
  if (!ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref ${ref}`);
  return ref.slice(REF_PREFIX.length);
}

/** Copies the facts shared by every node kind. */
function base(schema, node) {
  if ('default' in schema) node.default = schema.default;
  if (schema.nullable) node.nullable = true;
  if (schema['x-kubernetes-preserve-unknown-fields']) node.preserveUnknownFields = true;
  if (schema['x-kubernetes-embedded-resource']) node.embeddedResource = true;
  return node;
}

const converted = new Map();
/** "<definition>.<property>" → the definition a field carries an inline copy of. */
const inlineCopies = {};
/**
 * definition → how some of its nodes are published beyond what their
 * SchemaNode renders to: a bare `$ref` where upstream writes no `allOf`
 * wrapper, and x-kubernetes-* markers a SchemaNode of that kind cannot hold
 * (list-type on a byte string or on a struct ref, a field-level marker over a
 * named type). `path` steps: a property name, "{}" (additionalProperties) or
 * "[]" (items). Facts only, for the served OpenAPI documents.
 */
const publishedForms = {};

// The x-kubernetes-* keys a SchemaNode of each type renders by itself.
const RENDERED_MARKERS = {
  common: ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string'],
  object: ['x-kubernetes-map-type', 'x-kubernetes-patch-strategy'],
  array: ['x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key'],
};

/** Records the markers of `schema` that `node` does not render (all of them for a ref or an inline copy). */
function recordPublishedForm(schema, node, loc, extra = {}) {
  const rendered = new Set(node && !node.ref && !extra.copy ? [...RENDERED_MARKERS.common, ...(RENDERED_MARKERS[node.type] ?? [])] : []);
  const extensions = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!key.startsWith('x-kubernetes-') || rendered.has(key)) continue;
    // Definition-level lists the index publishes on their own.
    if (loc.path.length === 0 && (key === 'x-kubernetes-group-version-kind' || key === 'x-kubernetes-unions')) continue;
    extensions[key] = value;
  }
  const form = {};
  if (extra.plainRef) form.plainRef = true;
  if (Object.keys(extensions).length) form.extensions = extensions;
  if (!Object.keys(form).length) return;
  (publishedForms[loc.def] ??= []).push({ path: loc.path, ...form });
}

const step = (loc, s) => ({ def: loc.def, path: [...loc.path, s] });

function convertDefinition(name) {
  if (converted.has(name)) return converted.get(name);
  const raw = rawDefinitions.get(name);
  if (!raw) throw new Error(`unknown definition ${name}`);
  const node = ANY_DEFINITIONS.has(name) ? base(raw, { type: 'any' }) : convert(raw, name, { def: name, path: [] });
  converted.set(name, node);
  return node;
}

function convert(schema, where, loc) {
  const node = convertNode(schema, where, loc);
  if (!schema.$ref && !schema.allOf) recordPublishedForm(schema, node, loc);
  return node;
}

function convertNode(schema, where, loc) {
  if (schema.$ref) {
    // A bare $ref (no allOf wrapper: upstream wraps only a ref with a default or description beside it).
    if (loc.path.length) recordPublishedForm(schema, undefined, loc, { plainRef: true });
    return { ref: refName(schema.$ref) };
  }
  if (schema.allOf) {
    if (schema.allOf.length !== 1 || !schema.allOf[0].$ref) throw new Error(`unsupported allOf at ${where}`);
    const name = refName(schema.allOf[0].$ref);
    const overrides = {};
    if (schema['x-kubernetes-map-type']) overrides.mapType = schema['x-kubernetes-map-type'];
    if (schema['x-kubernetes-patch-strategy']) overrides.patchStrategy = schema['x-kubernetes-patch-strategy'];
    // A field-level marker overrides the referenced type's own for this field
    // only (PersistentVolumeSpec.claimRef is granular although ObjectReference
    // is atomic; DeploymentSpec.strategy is retainKeys). A ref cannot carry
    // markers, so such a field gets an inline copy of the definition.
    // (x-kubernetes-list-type on a struct ref, as on Status.details, means
    // nothing to the merge algorithms; it is only published.)
    recordPublishedForm(schema, undefined, loc, { copy: true });
    if (Object.keys(overrides).length) {
      const target = convertDefinition(name);
      if (target.type !== 'object') throw new Error(`marker on non-object ref at ${where}`);
      const node = { ...target, ...overrides };
      if ('default' in schema) node.default = schema.default;
      inlineCopies[where] = name;
      return node;
    }
    const node = { ref: name };
    if ('default' in schema) node.default = schema.default;
    return node;
  }
  if (schema.oneOf) {
    const types = schema.oneOf.map((s) => s.type).sort().join(',');
    // IntOrString: x-kubernetes-int-or-string / format int-or-string.
    if (types === 'integer,string') return base(schema, { type: 'int-or-string' });
    // resource.Quantity: a string, or a JSON number the decoder turns into one.
    if (types === 'number,string') return base(schema, { type: 'string', format: 'quantity' });
    throw new Error(`unsupported oneOf at ${where}: ${types}`);
  }
  if (schema['x-kubernetes-int-or-string']) return base(schema, { type: 'int-or-string' });
  switch (schema.type) {
    case 'string': {
      const node = base(schema, { type: 'string' });
      if (schema.format) node.format = schema.format;
      if (schema.enum) node.enum = schema.enum;
      if (schema.pattern) node.pattern = schema.pattern;
      if (schema.maxLength !== undefined) node.maxLength = schema.maxLength;
      if (schema.minLength !== undefined) node.minLength = schema.minLength;
      return node;
    }
    case 'integer':
    case 'number': {
      const node = base(schema, { type: schema.type });
      if (schema.format) node.format = schema.format;
      if (schema.minimum !== undefined) node.minimum = schema.minimum;
      if (schema.maximum !== undefined) node.maximum = schema.maximum;
      if (schema.enum) node.enum = schema.enum;
      return node;
    }
    case 'boolean':
      return base(schema, { type: 'boolean' });
    case 'array': {
      const node = base(schema, { type: 'array', items: convert(schema.items ?? {}, `${where}[]`, step(loc, '[]')) });
      if (schema['x-kubernetes-list-type']) node.listType = schema['x-kubernetes-list-type'];
      if (schema['x-kubernetes-list-map-keys']) node.listMapKeys = schema['x-kubernetes-list-map-keys'];
      if (schema['x-kubernetes-patch-strategy']) node.patchStrategy = schema['x-kubernetes-patch-strategy'];
      if (schema['x-kubernetes-patch-merge-key']) node.patchMergeKey = schema['x-kubernetes-patch-merge-key'];
      if (schema.minItems !== undefined) node.minItems = schema.minItems;
      if (schema.maxItems !== undefined) node.maxItems = schema.maxItems;
      return node;
    }
    case 'object': {
      const node = base(schema, { type: 'object' });
      if (schema.properties || !schema.additionalProperties) {
        // A struct (an empty Go struct too: `properties: {}` tells it from a map).
        node.properties = {};
        for (const [key, child] of Object.entries(schema.properties ?? {})) {
          node.properties[key] = convert(child, `${where}.${key}`, step(loc, key));
        }
      }
      if (schema.required?.length) node.required = schema.required;
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        node.additionalProperties = convert(schema.additionalProperties, `${where}{}`, step(loc, '{}'));
      }
      if (schema['x-kubernetes-map-type']) node.mapType = schema['x-kubernetes-map-type'];
      if (schema['x-kubernetes-patch-strategy']) node.patchStrategy = schema['x-kubernetes-patch-strategy'];
      if (schema.minProperties !== undefined) node.minProperties = schema.minProperties;
      if (schema.maxProperties !== undefined) node.maxProperties = schema.maxProperties;
      return node;
    }
    case undefined:
      return base(schema, { type: 'any' });
    default:
      throw new Error(`unsupported type ${schema.type} at ${where}`);
  }
}

for (const name of [...rawDefinitions.keys()].sort()) convertDefinition(name);

// ---- group into per-package modules --------------------------------------

/** `io.k8s.api.core.v1.PodSpec` → `io.k8s.api.core.v1` */
function packageOf(name) {
  return name.slice(0, name.lastIndexOf('.'));
}

const packages = new Map();
for (const name of [...converted.keys()].sort()) {
  const pkg = packageOf(name);
  if (!packages.has(pkg)) packages.set(pkg, {});
  packages.get(pkg)[name] = converted.get(name);
}

// ---- write ---------------------------------------------------------------

rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, 'packages'), { recursive: true });

const HEADER = '// Generated by scripts/gen-schemas.mjs from the Kubernetes 1.32 OpenAPI v3 documents. Do not edit.\n';

/** A JSON text as the body of a String.raw template: verbatim, except characters a template cannot hold. */
function rawTemplate(jsonText) {
  return jsonText.replaceAll('`', '\\u0060').replaceAll('${', '$\\u007b');
}

function moduleId(pkg) {
  return pkg.replace(/^io\.k8s\./, '').replace(/[^a-zA-Z0-9.-]/g, '_');
}

let totalBytes = 0;
for (const [pkg, definitions] of packages) {
  // One definition per line keeps diffs readable; JSON.parse of a string is
  // the cheapest way to ship a large literal (no type inference, fast parse).
  // It is parsed on first use, not when the module is evaluated: a service
  // worker's cold start does not need the table (decision 0316).
  const lines = Object.entries(definitions).map(([name, node]) => `${JSON.stringify(name)}:${JSON.stringify(node)}`);
  const text =
    HEADER +
    "import type { SchemaNode } from '../../types';\n\n" +
    'let definitions: Record<string, SchemaNode> | undefined;\n\n' +
    '/** This package\'s definitions, parsed from their JSON text on the first call. */\n' +
    'export default function packageDefinitions(): Record<string, SchemaNode> {\n' +
    `  return (definitions ??= JSON.parse(String.raw\`{\n${rawTemplate(lines.join(',\n'))}\n}\`));\n` +
    '}\n';
  writeFileSync(join(outDir, 'packages', `${moduleId(pkg)}.ts`), text);
  totalBytes += Buffer.byteLength(text);
}

// Index: small, loaded eagerly.
const kinds = {};
const gvPaths = {};
for (const [gvKey, gv] of [...groupVersions].sort(([a], [b]) => a.localeCompare(b))) {
  kinds[gvKey] = gv.kinds;
  gvPaths[gvKey] = gv.path;
}
const definitionGVKs = {};
for (const [name, raw] of [...rawDefinitions].sort(([a], [b]) => a.localeCompare(b))) {
  const list = raw['x-kubernetes-group-version-kind'];
  if (list?.length) definitionGVKs[name] = list.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
}
const definitionUnions = {};
for (const [name, raw] of [...rawDefinitions].sort(([a], [b]) => a.localeCompare(b))) {
  if (raw['x-kubernetes-unions']) definitionUnions[name] = raw['x-kubernetes-unions'];
}
const allModules = [...packages.keys()].map(moduleId).sort();

let index = HEADER + '\n';
index += '/** group-version ("v1", "apps/v1", …) → kind → root definition name. */\n';
index += `export const kindDefinitions: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(kinds, null, 1)};\n\n`;
index += '/** group-version → its /openapi/v3 path ("api/v1", "apis/apps/v1"). */\n';
index += `export const groupVersionPaths: Readonly<Record<string, string>> = ${JSON.stringify(gvPaths, null, 1)};\n\n`;
index += '/** Every definition module under ./packages. */\n';
index += `export const allModules: readonly string[] = ${JSON.stringify(allModules, null, 1)};\n\n`;
index += '/** definition → its x-kubernetes-group-version-kind list, in the documents\' order. */\n';
index += `export const definitionGroupVersionKinds: Readonly<Record<string, readonly { group: string; kind: string; version: string }[]>> = ${JSON.stringify(definitionGVKs)};\n`;
index += '\n/** "<definition>.<property>" → the definition that property holds an inline copy of (a field-level marker). */\n';
index += `export const inlineCopies: Readonly<Record<string, string>> = ${JSON.stringify(inlineCopies, Object.keys(inlineCopies).sort())};\n`;
index += '\n/** definition → its x-kubernetes-unions (published in the OpenAPI documents, not used by the server). */\n';
index += `export const definitionUnions: Readonly<Record<string, readonly unknown[]>> = ${JSON.stringify(definitionUnions)};\n`;
index += '\n/** definition → its nodes published other than their SchemaNode renders (bare $ref, extra x-kubernetes-* markers). */\n';
index += `export const publishedForms: Readonly<Record<string, readonly { path: readonly string[]; plainRef?: true; extensions?: Readonly<Record<string, unknown>> }[]>> = ${JSON.stringify(
  Object.fromEntries(Object.entries(publishedForms).sort(([a], [b]) => a.localeCompare(b))),
)};\n`;
index += '\n/** "<group>/<resource>" whose DELETE answers with the deleted object in the 1.32 documents (others answer a Status). */\n';
index += `export const deleteReturnsObject: readonly string[] = ${JSON.stringify([...deleteReturnsObject].sort(), null, 1)};\n`;
writeFileSync(join(outDir, 'index.ts'), index);
totalBytes += Buffer.byteLength(index);

// Static import of every module: the whole table is ~280 KiB (~37 KiB
// gzipped), so the server loads it at once and synchronously (decision 0020);
// each module's JSON is parsed when its entry is first read (decision 0316).
let all = HEADER + "import type { SchemaNode } from '../types';\n";
allModules.forEach((id, i) => {
  all += `import m${i} from './packages/${id}';\n`;
});
all += '\n/** Every built-in definition, by module id; an entry is parsed when first read. */\n';
all += `export const modules: Readonly<Record<string, Record<string, SchemaNode>>> = {\n${allModules
  .map((id, i) => `  get ${JSON.stringify(id)}() {\n    return m${i}();\n  },`)
  .join('\n')}\n};\n`;
writeFileSync(join(outDir, 'all.ts'), all);
totalBytes += Buffer.byteLength(all);

console.log(
  `gen-schemas: ${converted.size} definitions, ${packages.size} modules, ${groupVersions.size} group-versions, ` +
    `${(totalBytes / 1024).toFixed(0)} KiB written to ${outDir}`,
);
