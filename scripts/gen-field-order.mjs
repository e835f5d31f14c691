#!/usr/bin/env node
// Generates src/core/serialization/generated/field-order.ts — the Go struct
// declaration order of the Kubernetes 1.32 built-in types, which is the order
// encoding/json writes their fields in:
//
//   node scripts/gen-field-order.mjs [--kubectl <kubectl 1.32 binary>]
//
// Where the order comes from: go-to-protobuf writes each message's fields into
// generated.proto in the Go struct's declaration order (a field added later
// keeps its place in the struct and gets the next free number, e.g. PodSpec's
// initContainers = 20 right after volumes = 1), and protoc keeps declaration
// order in the FileDescriptorProto. kubectl 1.32 links k8s.io/api and
// k8s.io/apimachinery at 1.32 and registers those descriptors gzipped, so its
// binary holds the exact 1.32 orders (the same source
// scripts/gen-protobuf-table.mjs reads for numbers and types).
//
// The table keeps only what the protobuf table (src/core/protobuf/generated,
// fields in field-number order) does not already say: for each message whose
// declaration order is not its field-number order, its field numbers in
// declaration order. Every other message is written in field-number order.
//
// kubectl does not link apiextensions-apiserver or kube-aggregator; their
// messages are hand facts in gen-protobuf-table.mjs. Their declaration orders
// were read from the upstream generated.proto / types.go and are written in
// HAND_ORDERS below (all their other messages are in number order).

import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findKubectl, k8sFileDescriptors, readFields, utf8 } from './lib/kubectl-descriptors.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const outFile = join(root, 'src', 'core', 'serialization', 'generated', 'field-order.ts');
const messagesFile = join(root, 'src', 'core', 'protobuf', 'generated', 'messages.ts');

function fail(message) {
  console.error(`gen-field-order: ${message}`);
  process.exit(1);
}

const text = utf8;

/** DescriptorProto → full name → field numbers in declaration order (nested messages included). */
function collectMessage(bytes, prefix, into) {
  let name = '';
  const numbers = [];
  const nested = [];
  for (const x of readFields(bytes)) {
    if (x.num === 1) name = text(x.bytes);
    else if (x.num === 2) {
      const varint = readFields(x.bytes).find((f) => f.num === 3)?.value;
      const number = varint === undefined ? undefined : Number(varint);
      if (number === undefined) throw new Error(`field without a number in ${prefix}.${name}`);
      numbers.push(number);
    } else if (x.num === 3) nested.push(x.bytes);
  }
  const fullName = `${prefix}.${name}`;
  into.set(fullName, numbers);
  for (const n of nested) collectMessage(n, fullName, into);
}

/** Every k8s.io FileDescriptorProto registered (gzipped) in a Go binary: message → declaration order. */
function declarationOrders(path) {
  const orders = new Map();
  for (const fields of k8sFileDescriptors(path).values()) {
    const pkg = fields.find((f) => f.num === 2);
    if (!pkg) continue;
    for (const f of fields) if (f.num === 4) collectMessage(f.bytes, text(pkg.bytes), orders);
  }
  return orders;
}

const HAND_ORDERS = {
  // name, served, storage, deprecated, deprecationWarning, schema, subresources, additionalPrinterColumns, selectableFields
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion': [1, 2, 3, 7, 8, 4, 5, 6, 9],
  // url, service, caBundle
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig': [3, 1, 2],
};

// ---------------------------------------------------------------------------
// The protobuf table: which messages exist and their field numbers.

function protobufTable() {
  const source = readFileSync(messagesFile, 'utf8');
  const messages = new Map();
  const re = /^"([^"]+)":String\.raw`([\s\S]*?)`/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const pkg = m[1];
    const parsed = JSON.parse(m[2]);
    for (const [name, spec] of Object.entries(parsed)) messages.set(`${pkg}.${name}`, spec.f.map((f) => f[0]));
  }
  if (messages.size === 0) fail(`no messages read from ${messagesFile}`);
  return messages;
}

const kubectl = findKubectl(option('--kubectl'));
if (!kubectl || !existsSync(kubectl)) fail('no kubectl 1.32 binary found; pass --kubectl <path>');
const declared = declarationOrders(kubectl);
if (declared.size === 0) fail(`no k8s.io descriptors found in ${kubectl}`);
const table = protobufTable();

// Meta messages the protobuf module adds by hand (meta-messages.ts) come from these packages' descriptors.
const META_PACKAGES = ['k8s.io.apimachinery.pkg.apis.meta.v1.', 'k8s.io.apimachinery.pkg.apis.meta.v1beta1.'];

const sameSet = (a, b) => a.length === b.length && [...a].sort((x, y) => x - y).every((n, i) => n === [...b].sort((x, y) => x - y)[i]);
const inNumberOrder = (numbers) => numbers.every((n, i) => i === 0 || n > numbers[i - 1]);

const out = {};
const problems = [];
let compared = 0;
for (const [fullName, numbers] of table) {
  const order = HAND_ORDERS[fullName] ?? declared.get(fullName);
  if (!order) {
    // A hand-fact message (apiextensions, apiregistration) not listed above: number order.
    if (!fullName.startsWith('k8s.io.apiextensions_apiserver.') && !fullName.startsWith('k8s.io.kube_aggregator.')) problems.push(`${fullName}: no descriptor`);
    continue;
  }
  compared++;
  if (!sameSet(order, numbers)) problems.push(`${fullName}: descriptor fields ${order.join(',')} differ from the protobuf table's ${numbers.join(',')}`);
  else if (!inNumberOrder(order)) out[fullName] = order;
}
for (const [fullName, order] of declared) {
  if (table.has(fullName) || !META_PACKAGES.some((p) => fullName.startsWith(p))) continue;
  if (!inNumberOrder(order)) out[fullName] = order;
}
if (problems.length) fail(`the protobuf table and the descriptors disagree:\n  ${problems.join('\n  ')}`);

const sorted = Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]]));
const body = Object.entries(sorted)
  .map(([name, order]) => `${JSON.stringify(name)}:${JSON.stringify(order)}`)
  .join(',\n');
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(
  outFile,
  `// Generated by scripts/gen-field-order.mjs from the protobuf descriptors of kubectl 1.32 (Go struct
// declaration order). Do not edit.

/**
 * Full proto message name → its field numbers in Go struct declaration order,
 * for the messages whose declaration order is not their field-number order
 * (every other message is written in field-number order). JSON text, parsed
 * on first use.
 */
export const fieldOrderText = String.raw\`{
${body}
}\`;
`,
);
console.log(`gen-field-order: ${compared} messages compared with their descriptors, ${Object.keys(sorted).length} not in field-number order`);
