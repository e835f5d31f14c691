// Every kind KubeTab answers in protobuf round-trips: a sample object with
// every field of its message set (generated from the message table, nested
// messages to a fixed depth) encodes and decodes back to the same JSON, and
// re-encodes to the same bytes. A kind failing here must be refused
// (serve.ts REFUSED) rather than sent as wrong bytes (decision 0280). Also:
// a list assembled from parts equals the whole-list encoding.

import { describe, expect, it } from 'vitest';
import { protoKinds } from './generated/kinds';
import { metaKinds } from './meta-messages';
import { decodeKubernetesProtobuf } from './decode';
import { encodeKubernetesProtobuf } from './encode';
import { fieldMessage, protoMessageForKind, type ProtoField, type ProtoMessage } from './schema';
import { canServeProtobuf, encodeProtobufItem, protobufListParts } from './serve';

const MAX_DEPTH = 5;

function scalarSample(field: ProtoField): unknown {
  switch (field.scalar) {
    case 'string':
      return `${field.json}-<v>`;
    case 'bytes':
      return 'AAEC/w==';
    case 'bool':
      return true;
    case 'double':
    case 'float':
      return 1.5;
    default:
      return 7;
  }
}

function specialSample(message: ProtoMessage, depth: number): unknown {
  switch (message.special) {
    case 'time':
      return '2024-12-11T12:00:00Z';
    case 'microtime':
      return '2024-12-11T12:00:00.123456Z';
    case 'duration':
      return '1m30s';
    case 'quantity':
      return '100m';
    case 'intorstring':
      return 8080;
    case 'rawextension':
    case 'json':
      return { a: 1, b: ['<x>'] };
    case 'fieldsv1':
      return { 'f:metadata': { 'f:name': {} } };
    case 'schemaorarray':
    case 'schemaorbool':
    case 'schemaorstringarray': {
      if (depth >= MAX_DEPTH) return message.special === 'schemaorbool' ? true : message.special === 'schemaorarray' ? { type: 'object' } : ['x'];
      return message.special === 'schemaorstringarray' ? ['p', 'q'] : sampleOf(fieldMessage(message.byNumber.get(message.special === 'schemaorbool' ? 2 : 1)!), depth + 1);
    }
    case 'list':
      return ['one', 'two'];
    default:
      return undefined;
  }
}

function valueSample(field: ProtoField, depth: number): unknown {
  if (field.scalar) return scalarSample(field);
  return sampleOf(fieldMessage(field), depth + 1);
}

/** A JSON object with every field of the message set (to MAX_DEPTH; deeper, nullable fields are left out). */
function sampleOf(message: ProtoMessage, depth = 0): unknown {
  if (message.special) return specialSample(message, depth);
  const out: Record<string, unknown> = {};
  for (const field of message.fields) {
    if (field.inline) {
      Object.assign(out, sampleOf(fieldMessage(field), depth) as Record<string, unknown>);
      continue;
    }
    const isMessage = !field.scalar;
    if (isMessage && depth >= MAX_DEPTH && (field.nullable || field.repeated || field.map)) continue;
    if (field.map) out[field.json] = { k1: valueSample(field, depth), k0: valueSample(field, depth) };
    else if (field.repeated) out[field.json] = [valueSample(field, depth)];
    else out[field.json] = valueSample(field, depth);
  }
  return out;
}

const allKinds: [string, string][] = [];
for (const table of [protoKinds, metaKinds]) {
  for (const [apiVersion, kinds] of Object.entries(table)) for (const kind of Object.keys(kinds)) allKinds.push([apiVersion, kind]);
}
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('every served kind round-trips a full sample', () => {
  it('covers every built-in kind of the table', () => {
    expect(allKinds.length).toBeGreaterThan(200);
  });

  for (const [apiVersion, kind] of allKinds) {
    it(`${apiVersion} ${kind}`, () => {
      expect(canServeProtobuf(apiVersion, kind)).toBe(true);
      const message = protoMessageForKind(apiVersion, kind)!;
      const sample = { apiVersion, kind, ...(sampleOf(message) as Record<string, unknown>) };
      const bytes = encodeKubernetesProtobuf(sample);
      const decoded = decodeKubernetesProtobuf(bytes).object;
      // Every value set comes back (the decoder adds Go's zero values for value structs left out at depth).
      expect(decoded).toMatchObject(sample);
      // And the decoded JSON writes the same bytes again.
      expect(hex(encodeKubernetesProtobuf(decoded))).toBe(hex(bytes));
    });
  }
});

describe('custom resources and unknown kinds', () => {
  it('have no protobuf form', () => {
    expect(canServeProtobuf('stable.example.com/v1', 'CronTab')).toBe(false);
    expect(canServeProtobuf('v1', 'Nope')).toBe(false);
    // Table has no message in 1.32.
    expect(canServeProtobuf('meta.k8s.io/v1', 'Table')).toBe(false);
  });
});

describe('a list from parts', () => {
  it('concatenated, equals the whole ConfigMapList encoding (items not copied)', () => {
    const items = [
      { metadata: { name: 'a', namespace: 'ns', resourceVersion: '5' }, data: { k: 'v' } },
      { metadata: { name: 'b', namespace: 'ns', resourceVersion: '6' }, binaryData: { b: 'AAE=' } },
    ];
    const listMeta = { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 };
    const itemBytes = items.map((i) => encodeProtobufItem('v1', 'ConfigMap', i));
    const parts = protobufListParts('v1', 'ConfigMapList', listMeta, itemBytes);
    expect(parts[2]).toBe(itemBytes[0]);
    const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      joined.set(p, at);
      at += p.length;
    }
    const whole = encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: listMeta, items });
    expect(hex(joined)).toBe(hex(whole));
  });

  it('an empty list, and one larger than 127 bytes of raw (multi-byte lengths)', () => {
    for (const n of [0, 40]) {
      const items = Array.from({ length: n }, (_, i) => ({ metadata: { name: `cm-${i}` }, data: { x: 'y'.repeat(i * 10) } }));
      const parts = protobufListParts('v1', 'ConfigMapList', { resourceVersion: '1' }, items.map((i) => encodeProtobufItem('v1', 'ConfigMap', i)));
      const joined = Uint8Array.from(parts.flatMap((p) => Array.from(p)));
      expect(hex(joined)).toBe(hex(encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '1' }, items })));
    }
  });

  it('refuses a list message that is not {metadata=1, items=2} (meta.k8s.io/v1beta1 PartialObjectMetadataList)', () => {
    expect(() => protobufListParts('meta.k8s.io/v1beta1', 'PartialObjectMetadataList', {}, [])).toThrow(/not a \{metadata=1, items=2\} list/);
  });
});
