#!/usr/bin/env node
// Generates src/core/protobuf/generated/ — the protobuf schema of the Kubernetes
// 1.32 built-in types — from facts readable on disk:
//
//   node scripts/gen-protobuf-table.mjs [--kubectl <kubectl 1.32 binary>] [--openapi <dir>]
//
// 1. A Go program that links k8s.io/api registers the gzipped FileDescriptorProto
//    of every generated.proto it contains (gogo's proto.RegisterFile). kubectl
//    1.32 links all of k8s.io/api and k8s.io/apimachinery at 1.32, so its
//    binary holds the exact 1.32 descriptors: message names, field names and
//    numbers, scalar types, labels, map entries and gogo's nullable option
//    (pointer or value in Go). They are found by scanning the binary for gzip
//    members whose content is a FileDescriptorProto named k8s.io/….
// 2. kubectl does not link apiextensions-apiserver or kube-aggregator; their few
//    messages are written below (APIEXTENSIONS_FACTS, APIREGISTRATION_FACTS) from
//    the upstream generated.proto and types.go struct tags (see
//    docs/decisions/0090-protobuf.md).
// 3. The OpenAPI v3 documents of 1.32 (../shared/reference/k8s-openapi-v3) give
//    what a descriptor does not: which Go fields are `json:",inline"` embedded
//    structs, which named-slice wrappers (`Verbs`, `ExtraValue`) are JSON arrays,
//    which value fields lack omitempty (OpenAPI carries their zero value as
//    `default`), the JSON name where it differs from the proto name, and the
//    group/version/kind of each root type. Every OpenAPI property must be covered
//    by a proto field and every proto field by a property, or the script fails.
//
// Output (committed, so a checkout never needs the sources):
//   generated/messages.ts — proto package → message → fields
//   generated/kinds.ts    — apiVersion → kind → message
// Only facts are kept: names, numbers, types, flags. No description text.

import { readFileSync, readdirSync, writeFileSync, mkdirSync, existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findKubectl, k8sFileDescriptors, readFields, utf8 } from './lib/kubectl-descriptors.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
function option(name) {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}
const openapiDir = resolve(option('--openapi') ?? join(root, '..', 'shared', 'reference', 'k8s-openapi-v3'));
const outDir = join(root, 'src', 'core', 'protobuf', 'generated');

const kubectl = findKubectl(option('--kubectl'));
if (!kubectl || !existsSync(kubectl)) fail('no kubectl 1.32 binary found; pass --kubectl <path>');
if (!existsSync(openapiDir) || !statSync(openapiDir).isDirectory()) fail(`OpenAPI v3 directory not found: ${openapiDir}`);

function fail(message) {
  console.error(`gen-protobuf-table: ${message}`);
  process.exit(1);
}

const str = utf8;

// descriptor.proto field type numbers → proto scalar names.
const SCALAR_TYPES = {
  1: 'double', 2: 'float', 3: 'int64', 4: 'uint64', 5: 'int32', 6: 'fixed64', 7: 'fixed32', 8: 'bool',
  9: 'string', 12: 'bytes', 13: 'uint32', 15: 'sfixed32', 16: 'sfixed64', 17: 'sint32', 18: 'sint64',
};

function parseField(bytes) {
  const f = { nullable: true };
  for (const x of readFields(bytes)) {
    if (x.num === 1) f.name = str(x.bytes);
    else if (x.num === 3) f.number = Number(x.value);
    else if (x.num === 4) f.label = Number(x.value);
    else if (x.num === 5) f.type = Number(x.value);
    else if (x.num === 6) f.typeName = str(x.bytes).replace(/^\./, '');
    else if (x.num === 8) {
      for (const o of readFields(x.bytes)) {
        if (o.num === 65001) f.nullable = o.value !== 0n; // gogoproto.nullable
        else if (o.num === 65004) f.goName = str(o.bytes); // gogoproto.customname
      }
    }
  }
  return f;
}

function parseMessage(bytes, prefix, into) {
  const m = { fields: [], mapEntry: false };
  const nested = [];
  for (const x of readFields(bytes)) {
    if (x.num === 1) m.name = str(x.bytes);
    else if (x.num === 2) m.fields.push(parseField(x.bytes));
    else if (x.num === 3) nested.push(x.bytes);
    else if (x.num === 7) for (const o of readFields(x.bytes)) if (o.num === 7) m.mapEntry = o.value !== 0n;
  }
  m.fullName = `${prefix}.${m.name}`;
  into.set(m.fullName, m);
  for (const n of nested) parseMessage(n, m.fullName, into);
  return m;
}


// ---------------------------------------------------------------------------
// Hand-written facts for the two API groups kubectl does not link. One message
// a line: `Name field=number:type …`; `*` marks a Go pointer (nullable), `[]`
// repeated, `map<V>` a map with string keys, `@json` a JSON name that differs
// from the proto name; `meta.` and `runtime.` abbreviate apimachinery packages.

const APIEXTENSIONS_FACTS = `
package k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1
ConversionRequest uid=1:string desiredAPIVersion=2:string objects=3:[]runtime.RawExtension
ConversionResponse uid=1:string convertedObjects=2:[]runtime.RawExtension result=3:meta.Status
ConversionReview request=1:*ConversionRequest response=2:*ConversionResponse
CustomResourceColumnDefinition name=1:string type=2:string format=3:string description=4:string priority=5:int32 jsonPath=6:string
CustomResourceConversion strategy=1:string webhook=2:*WebhookConversion
CustomResourceDefinition metadata=1:meta.ObjectMeta spec=2:CustomResourceDefinitionSpec status=3:CustomResourceDefinitionStatus
CustomResourceDefinitionCondition type=1:string status=2:string lastTransitionTime=3:meta.Time reason=4:string message=5:string
CustomResourceDefinitionList metadata=1:meta.ListMeta items=2:[]CustomResourceDefinition
CustomResourceDefinitionNames plural=1:string singular=2:string shortNames=3:[]string kind=4:string listKind=5:string categories=6:[]string
CustomResourceDefinitionSpec group=1:string names=3:CustomResourceDefinitionNames scope=4:string versions=7:[]CustomResourceDefinitionVersion conversion=9:*CustomResourceConversion preserveUnknownFields=10:bool
CustomResourceDefinitionStatus conditions=1:[]CustomResourceDefinitionCondition acceptedNames=2:CustomResourceDefinitionNames storedVersions=3:[]string
CustomResourceDefinitionVersion name=1:string served=2:bool storage=3:bool schema=4:*CustomResourceValidation subresources=5:*CustomResourceSubresources additionalPrinterColumns=6:[]CustomResourceColumnDefinition deprecated=7:bool deprecationWarning=8:*string selectableFields=9:[]SelectableField
CustomResourceSubresourceScale specReplicasPath=1:string statusReplicasPath=2:string labelSelectorPath=3:*string
CustomResourceSubresourceStatus
CustomResourceSubresources status=1:*CustomResourceSubresourceStatus scale=2:*CustomResourceSubresourceScale
CustomResourceValidation openAPIV3Schema=1:*JSONSchemaProps
ExternalDocumentation description=1:string url=2:string
JSON raw=1:bytes
JSONSchemaProps id=1:string schema=2:string@$schema ref=3:*string@$ref description=4:string type=5:string format=6:string title=7:string default=8:*JSON maximum=9:*double exclusiveMaximum=10:bool minimum=11:*double exclusiveMinimum=12:bool maxLength=13:*int64 minLength=14:*int64 pattern=15:string maxItems=16:*int64 minItems=17:*int64 uniqueItems=18:bool multipleOf=19:*double enum=20:[]JSON maxProperties=21:*int64 minProperties=22:*int64 required=23:[]string items=24:*JSONSchemaPropsOrArray allOf=25:[]JSONSchemaProps oneOf=26:[]JSONSchemaProps anyOf=27:[]JSONSchemaProps not=28:*JSONSchemaProps properties=29:map<JSONSchemaProps> additionalProperties=30:*JSONSchemaPropsOrBool patternProperties=31:map<JSONSchemaProps> dependencies=32:map<JSONSchemaPropsOrStringArray> additionalItems=33:*JSONSchemaPropsOrBool definitions=34:map<JSONSchemaProps> externalDocs=35:*ExternalDocumentation example=36:*JSON nullable=37:bool xKubernetesPreserveUnknownFields=38:*bool@x-kubernetes-preserve-unknown-fields xKubernetesEmbeddedResource=39:bool@x-kubernetes-embedded-resource xKubernetesIntOrString=40:bool@x-kubernetes-int-or-string xKubernetesListMapKeys=41:[]string@x-kubernetes-list-map-keys xKubernetesListType=42:*string@x-kubernetes-list-type xKubernetesMapType=43:*string@x-kubernetes-map-type xKubernetesValidations=44:[]ValidationRule@x-kubernetes-validations
JSONSchemaPropsOrArray schema=1:*JSONSchemaProps jSONSchemas=2:[]JSONSchemaProps
JSONSchemaPropsOrBool allows=1:bool schema=2:*JSONSchemaProps
JSONSchemaPropsOrStringArray schema=1:*JSONSchemaProps property=2:[]string
SelectableField jsonPath=1:string
ServiceReference namespace=1:string name=2:string path=3:*string port=4:*int32
ValidationRule rule=1:string message=2:string messageExpression=3:string reason=4:*string fieldPath=5:string optionalOldSelf=6:*bool
WebhookClientConfig service=1:*ServiceReference caBundle=2:bytes url=3:*string
WebhookConversion clientConfig=2:*WebhookClientConfig conversionReviewVersions=3:[]string
`;

const APIREGISTRATION_FACTS = `
package k8s.io.kube_aggregator.pkg.apis.apiregistration.v1
APIService metadata=1:meta.ObjectMeta spec=2:APIServiceSpec status=3:APIServiceStatus
APIServiceCondition type=1:string status=2:string lastTransitionTime=3:meta.Time reason=4:string message=5:string
APIServiceList metadata=1:meta.ListMeta items=2:[]APIService
APIServiceSpec service=1:*ServiceReference group=2:string version=3:string insecureSkipTLSVerify=4:bool caBundle=5:bytes groupPriorityMinimum=7:int32 versionPriority=8:int32
APIServiceStatus conditions=1:[]APIServiceCondition
ServiceReference namespace=1:string name=2:string port=3:*int32
`;

const FACT_ALIASES = {
  'meta.': 'k8s.io.apimachinery.pkg.apis.meta.v1.',
  'runtime.': 'k8s.io.apimachinery.pkg.runtime.',
};
const SCALAR_NAMES = new Set(Object.values(SCALAR_TYPES));

function parseFacts(text, into, packages) {
  let pkg = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('package ')) {
      pkg = line.slice(8).trim();
      packages.add(pkg);
      continue;
    }
    const [name, ...specs] = line.split(/\s+/);
    const m = { name, fullName: `${pkg}.${name}`, fields: [], mapEntry: false, json: {} };
    for (const spec of specs) {
      const match = /^([A-Za-z0-9]+)=(\d+):(\*?)(\[\])?(?:map<([^>]+)>|([A-Za-z0-9.]+))(?:@(.+))?$/.exec(spec);
      if (!match) fail(`bad fact ${spec} in ${name}`);
      const [, fname, num, ptr, rep, mapValue, type, json] = match;
      const resolveType = (t) => {
        if (SCALAR_NAMES.has(t)) return { scalar: t };
        for (const [alias, full] of Object.entries(FACT_ALIASES)) if (t.startsWith(alias)) return { message: full + t.slice(alias.length) };
        return { message: `${pkg}.${t}` };
      };
      const f = { name: fname, number: Number(num), nullable: ptr === '*', goName: upperFirst(fname) };
      if (mapValue) {
        f.map = { key: 'string', ...resolveType(mapValue) };
      } else {
        f.repeated = rep === '[]';
        Object.assign(f, resolveType(type));
      }
      if (json) m.json[fname] = json;
      m.fields.push(f);
    }
    into.set(m.fullName, m);
  }
}

// ---------------------------------------------------------------------------
// Load everything into one registry: full message name → message.

const registry = new Map();
const packagesOfFile = new Set();
for (const [, fileFields] of k8sFileDescriptors(kubectl)) {
  const pkgField = fileFields.find((f) => f.num === 2);
  const pkg = pkgField ? str(pkgField.bytes) : '';
  packagesOfFile.add(pkg);
  const local = new Map();
  for (const f of fileFields) if (f.num === 4) parseMessage(f.bytes, pkg, local);
  // Normalise descriptor fields into the same shape as the hand facts.
  for (const [fullName, m] of local) {
    if (m.mapEntry) continue;
    const fields = m.fields.map((f) => {
      const out = { name: f.name, number: f.number, nullable: f.nullable, goName: f.goName ?? upperFirst(f.name) };
      if (f.type === 11) {
        const target = local.get(f.typeName);
        if (target?.mapEntry) {
          const key = target.fields.find((x) => x.number === 1);
          const value = target.fields.find((x) => x.number === 2);
          if (key.type !== 9) fail(`${fullName}.${f.name}: map key of type ${key.type} is not supported`);
          out.map = { key: 'string', ...(value.type === 11 ? { message: value.typeName } : { scalar: SCALAR_TYPES[value.type] }) };
          return out;
        }
        out.message = f.typeName;
      } else if (SCALAR_TYPES[f.type]) out.scalar = SCALAR_TYPES[f.type];
      else fail(`${fullName}.${f.name}: unsupported field type ${f.type}`);
      out.repeated = f.label === 3;
      return out;
    });
    registry.set(fullName, { name: m.name, fullName, fields, json: {} });
  }
}
if (registry.size === 0) fail(`no k8s.io descriptors found in ${kubectl}`);
parseFacts(APIEXTENSIONS_FACTS, registry, packagesOfFile);
parseFacts(APIREGISTRATION_FACTS, registry, packagesOfFile);

// ---------------------------------------------------------------------------
// OpenAPI: definitions, served group-versions, GVKs.

const definitions = new Map();
const servedGroupVersions = new Set();
for (const file of readdirSync(openapiDir).filter((f) => f.endsWith('_openapi.json')).sort()) {
  const doc = JSON.parse(readFileSync(join(openapiDir, file), 'utf8'));
  const m = /^apis__(.+)__(.+)_openapi\.json$/.exec(file);
  servedGroupVersions.add(m ? `${m[1]}/${m[2]}` : 'v1');
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) definitions.set(name, schema);
}

const protoPackageOf = (fullName) => fullName.slice(0, fullName.lastIndexOf('.'));
const shortName = (fullName) => fullName.slice(fullName.lastIndexOf('.') + 1);
const openapiNameOf = (fullName) => `io.k8s.${fullName.slice('k8s.io.'.length).replace(/_/g, '-')}`;

const byOpenapiName = new Map([...registry.keys()].map((n) => [openapiNameOf(n), n]));

// Kinds: every GVK of a served group-version whose root type has a message.
const kinds = {};
for (const [defName, schema] of definitions) {
  for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
    const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
    if (!servedGroupVersions.has(apiVersion)) continue;
    const fullName = byOpenapiName.get(defName);
    if (fullName) (kinds[apiVersion] ??= {})[gvk.kind] = fullName;
  }
}

// Status is registered unversioned in every group; its OpenAPI definition
// carries no GVK, but errors are encoded as {apiVersion: v1, kind: Status}.
(kinds['v1'] ??= {})['Status'] = 'k8s.io.apimachinery.pkg.apis.meta.v1.Status';

// Messages to emit: those reachable from a served kind (unserved kinds of a
// served package, e.g. admissionregistration/v1beta1 webhooks, stay out).
const reachable = new Set();
const queue = Object.values(kinds).flatMap((k) => Object.values(k));
while (queue.length) {
  const fullName = queue.pop();
  if (reachable.has(fullName)) continue;
  const m = registry.get(fullName);
  if (!m) fail(`unknown message ${fullName}`);
  reachable.add(fullName);
  for (const f of m.fields) {
    const ref = f.message ?? f.map?.message;
    if (ref) queue.push(ref);
  }
}

// Types whose JSON form is not their proto structure; the runtime maps them.
const SPECIAL = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime': 'microtime',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'duration',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'fieldsv1',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intorstring',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'rawextension',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON': 'json',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': 'schemaorarray',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': 'schemaorbool',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': 'schemaorstringarray',
};

const zeroOf = (scalar) => (scalar === 'string' ? '' : scalar === 'bool' ? false : scalar === 'bytes' ? undefined : 0);
function resolveRef(schema) {
  if (!schema) return undefined;
  if (schema.$ref) return schema.$ref.replace('#/components/schemas/', '');
  if (schema.allOf?.length === 1) return resolveRef(schema.allOf[0]);
  return undefined;
}
function upperFirst(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const problems = [];
const listWrappers = new Set();
// Flags of a field tuple (mirrored in src/core/protobuf/types.ts).
const REPEATED = 1, MAP = 2, NULLABLE = 4, EMIT_ZERO = 8, INLINE = 16;

/**
 * The JSON name of a proto field among an OpenAPI definition's properties:
 * the proto name, or the one property that differs only in case (go-to-protobuf
 * names some fields after the Go field, e.g. `uID`, `aPIGroup`, `Webhooks`).
 */
function propertyName(m, f, props) {
  const json = m.json[f.name] ?? f.name;
  if (json in props) return json;
  const folded = Object.keys(props).filter((p) => p.toLowerCase() === json.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

/** The JSON names an embedded message contributes to `props` when inlined (recursively), or undefined. */
function inlineNames(m, props) {
  const names = [];
  for (const f of m.fields) {
    const p = propertyName(m, f, props);
    if (p) {
      names.push(p);
      continue;
    }
    const inner = f.message && !f.repeated ? registry.get(f.message) : undefined;
    const nested = inner ? inlineNames(inner, props) : undefined;
    if (!nested) return undefined;
    names.push(...nested);
  }
  return names.length ? names : undefined;
}

function analyse(m) {
  const own = definitions.get(openapiNameOf(m.fullName))?.properties;
  const host = own ? undefined : inlineHost.get(m.fullName);
  const props = own ?? host;
  const covered = new Set(['apiVersion', 'kind']);
  const out = [];
  for (const f of [...m.fields].sort((a, b) => a.number - b.number)) {
    let json = m.json[f.name] ?? f.name;
    let flags = 0;
    if (f.repeated) flags |= REPEATED;
    if (f.map) flags |= MAP;
    if (f.nullable && !f.repeated && !f.map && f.scalar && f.scalar !== 'bytes') flags |= NULLABLE;
    if (f.nullable && f.message && !f.repeated) flags |= NULLABLE;
    if (props && !SPECIAL[m.fullName]) {
      const name = propertyName(m, f, props);
      const prop = name ? props[name] : undefined;
      if (prop) {
        json = name;
        covered.add(json);
        if (f.scalar && !f.repeated && !f.map && !(flags & NULLABLE) && prop.default !== undefined && prop.default === zeroOf(f.scalar)) flags |= EMIT_ZERO;
        // A message field that is a JSON array is a named-slice wrapper ({items}).
        const target = f.message ?? f.map?.message;
        const jsonSchema = f.map ? prop.additionalProperties : prop;
        if (target && !f.repeated && jsonSchema?.type === 'array') listWrappers.add(target);
      } else if (f.message && !f.repeated && !f.map && registry.has(f.message)) {
        const names = inlineNames(registry.get(f.message), props);
        if (names) {
          flags |= INLINE;
          names.forEach((n) => covered.add(n));
        } else problems.push(`${m.fullName}.${f.name}: no OpenAPI property ${json}`);
      } else problems.push(`${m.fullName}.${f.name}: no OpenAPI property ${json}`);
    }
    const type = f.scalar ?? f.message ?? f.map.scalar ?? f.map.message;
    const tuple = [f.number, json, relativeType(type, protoPackageOf(m.fullName)), flags];
    if (f.goName && f.goName !== upperFirst(json)) tuple.push(f.goName);
    out.push(tuple);
  }
  if (own && !SPECIAL[m.fullName]) {
    for (const p of Object.keys(props)) if (!covered.has(p)) problems.push(`${m.fullName}: OpenAPI property ${p} has no proto field`);
  }
  return out;
}

/** Message references inside the same package are written by short name. */
function relativeType(type, pkg) {
  if (SCALAR_NAMES.has(type)) return type;
  return protoPackageOf(type) === pkg ? shortName(type) : type;
}

// Inlined messages rarely have an OpenAPI definition of their own; their JSON
// names are resolved against the definition they are inlined into.
const inlineHost = new Map();
for (const fullName of reachable) {
  const m = registry.get(fullName);
  const props = definitions.get(openapiNameOf(fullName))?.properties;
  if (!props) continue;
  for (const f of m.fields) {
    if (!f.message || f.repeated || propertyName(m, f, props)) continue;
    if (inlineNames(registry.get(f.message), props)) inlineHost.set(f.message, props);
  }
}

const packagesOut = {};
let checked = 0;
const unchecked = [];
for (const fullName of [...reachable].sort()) {
  const m = registry.get(fullName);
  if (definitions.has(openapiNameOf(fullName))) checked++;
  else if (!SPECIAL[fullName] && !inlineHost.has(fullName)) unchecked.push(fullName);
  (packagesOut[protoPackageOf(fullName)] ??= {})[m.name] = { f: analyse(m) };
}
const messageCount = reachable.size;
for (const wrapper of listWrappers) {
  const m = registry.get(wrapper);
  if (!m || m.fields.length !== 1 || m.fields[0].name !== 'items' || !m.fields[0].repeated) problems.push(`${wrapper}: JSON array but not an {items} wrapper`);
}
// Mark specials and wrappers on the message entries.
for (const [fullName, kind] of [...Object.entries(SPECIAL), ...[...listWrappers].map((w) => [w, 'list'])]) {
  const pkg = protoPackageOf(fullName);
  const entry = packagesOut[pkg]?.[shortName(fullName)];
  if (entry) entry.s = kind;
}
if (problems.length) fail(`OpenAPI cross-check failed:\n  ${problems.join('\n  ')}`);

const sortedKinds = Object.fromEntries(
  Object.keys(kinds)
    .sort()
    .map((v) => [v, Object.fromEntries(Object.keys(kinds[v]).sort().map((k) => [k, kinds[v][k]]))]),
);

// ---------------------------------------------------------------------------
// Write.

const header = `// Generated by scripts/gen-protobuf-table.mjs from the protobuf descriptors of kubectl 1.32 and\n// the Kubernetes 1.32 OpenAPI v3 documents. Do not edit.\n`;
mkdirSync(outDir, { recursive: true });
// Each package is a JSON text, parsed when the package is first read: a
// service worker's cold start does not pay for the tables (decision 0316).
let body = '';
for (const [pkg, messages] of Object.entries(packagesOut)) {
  const text = Object.entries(messages)
    .map(([name, spec]) => `${JSON.stringify(name)}:${JSON.stringify(spec)}`)
    .join(',\n');
  if (text.includes('`') || text.includes('${')) fail('table text cannot be embedded in a template literal');
  body += `${JSON.stringify(pkg)}:String.raw\`{\n${text}\n}\`,\n`;
}
body = body.replace(/,\n$/, '\n');
const lazyPackages = `
/** The packages as properties that parse their JSON text when first read. */
function lazyPackages(texts: Readonly<Record<string, string>>): ProtoPackages {
  const packages = {};
  for (const [name, text] of Object.entries(texts)) {
    let parsed: ProtoPackages[string] | undefined;
    Object.defineProperty(packages, name, { enumerable: true, get: () => (parsed ??= JSON.parse(text) as ProtoPackages[string]) });
  }
  return packages as ProtoPackages;
}
`;
writeFileSync(
  join(outDir, 'messages.ts'),
  `${header}import type { ProtoPackages } from '../types';\n${lazyPackages}\n/** proto package → message name → fields (see ../types.ts for the tuple layout). */\nexport const protoPackages: ProtoPackages = lazyPackages({\n${body}});\n`,
);
writeFileSync(
  join(outDir, 'kinds.ts'),
  `${header}\n/** apiVersion → kind → full proto message name, for every kind of a group-version a 1.32 server serves. */\nexport const protoKinds: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(sortedKinds, null, 1)};\n`,
);
console.log(
  `gen-protobuf-table: ${messageCount} messages in ${Object.keys(packagesOut).length} packages (${checked} checked against OpenAPI; not checked: ${unchecked.join(', ') || 'none'}), ${listWrappers.size} list wrappers, ${Object.values(sortedKinds).reduce((n, k) => n + Object.keys(k).length, 0)} kinds`,
);
