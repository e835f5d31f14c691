// Rules checked: application/strategic-merge-patch+json as kube-apiserver 1.32
// applies it (k8s.io/apimachinery strategicpatch), on the upstream test type
// `mergeItem`: once with a hand-written schema table, once with the upstream
// OpenAPI test schema read from ../shared at test time (skipped when absent).
// The behaviours are numbered as in ../shared/reference/strategic-merge-patch/README.md.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSchemaTable, type SchemaNode, type SchemaTable } from '../schema/types';
import { strategicMergePatch } from './strategic-merge-patch';
import { StrategicMergePatchError } from './smp-errors';
import { handWrittenMergeItemTable, MERGE_ITEM_ROOT, SMP_CASES } from './smp-test-cases';

function sharedReference(): string | undefined {
  for (const dir of [fileURLToPath(new URL('../../../../shared/reference', import.meta.url)), '/work/shared/reference']) {
    if (existsSync(dir)) return dir;
  }
  return undefined;
}

type OpenAPISchema = Record<string, unknown> & {
  $ref?: string;
  allOf?: OpenAPISchema[];
  type?: string;
  format?: string;
  items?: OpenAPISchema;
  properties?: Record<string, OpenAPISchema>;
  additionalProperties?: OpenAPISchema;
};

/**
 * A minimal OpenAPI v3 → SchemaNode reading of the upstream test schema: refs,
 * `allOf` wrappers (inlined when they carry a patch strategy, as the built-in
 * tables do), arrays, maps, structs, scalars and the patch markers.
 */
function tableFromOpenAPIV3(doc: { components: { schemas: Record<string, OpenAPISchema> } }): SchemaTable {
  const schemas = doc.components.schemas;
  const refName = (ref: string) => ref.replace('#/components/schemas/', '');
  const inlining = new Set<string>();
  const convert = (s: OpenAPISchema): SchemaNode => {
    const strategy = s['x-kubernetes-patch-strategy'] as string | undefined;
    const mergeKey = s['x-kubernetes-patch-merge-key'] as string | undefined;
    if (s.$ref) return { ref: refName(s.$ref) };
    const wrapped = s.allOf?.[0]?.$ref;
    if (wrapped) {
      const name = refName(wrapped);
      if (!strategy || inlining.has(name)) return { ref: name };
      inlining.add(name);
      const target = convert(schemas[name]!);
      inlining.delete(name);
      return 'type' in target && target.type === 'object' ? { ...target, patchStrategy: strategy } : target;
    }
    if (s.type === 'array' && s.items) {
      return { type: 'array', items: convert(s.items), ...(strategy ? { patchStrategy: strategy } : {}), ...(mergeKey ? { patchMergeKey: mergeKey } : {}) };
    }
    if (s.type === 'object' || s.properties) {
      const node: { type: 'object'; properties?: Record<string, SchemaNode>; additionalProperties?: SchemaNode; patchStrategy?: string } = { type: 'object' };
      if (s.properties) node.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, convert(v)]));
      if (s.additionalProperties) node.additionalProperties = convert(s.additionalProperties);
      if (strategy) node.patchStrategy = strategy;
      return node;
    }
    if (s.type === 'string') return { type: 'string' };
    if (s.type === 'integer') return { type: 'integer' };
    if (s.type === 'number') return { type: 'number' };
    if (s.type === 'boolean') return { type: 'boolean' };
    return { type: 'any' };
  };
  return createSchemaTable(Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, convert(s)])));
}

const reference = sharedReference();
const upstreamSchemaFile = reference && `${reference}/strategic-merge-patch/swagger-merge-item-v3.json`;

const tables: [string, SchemaTable | undefined][] = [
  ['hand-written mergeItem table', handWrittenMergeItemTable()],
  ['upstream swagger-merge-item-v3.json', upstreamSchemaFile && existsSync(upstreamSchemaFile) ? tableFromOpenAPIV3(JSON.parse(readFileSync(upstreamSchemaFile, 'utf8'))) : undefined],
];

for (const [label, table] of tables) {
  describe.skipIf(!table)(`strategic merge patch on mergeItem (${label}${table ? '' : ': ../shared not found, not run'})`, () => {
    for (const c of SMP_CASES) {
      it(`${c.rule}: ${c.name}`, () => {
        const run = () => strategicMergePatch(c.live, c.patch, { node: MERGE_ITEM_ROOT, table: table! });
        if (c.error !== undefined) {
          expect(run).toThrow(StrategicMergePatchError);
          expect(run).toThrow(c.error);
          try {
            run();
          } catch (e) {
            expect((e as Error).message).toBe(c.error);
          }
        } else {
          expect(run()).toEqual(c.expected);
        }
      });
    }
  });
}

describe('strategic merge patch inputs', () => {
  const schema = { node: MERGE_ITEM_ROOT, table: handWrittenMergeItemTable() };

  it('does not modify the live object or the patch', () => {
    const live = { mergingList: [{ name: 'a', value: '1' }], simpleMap: { k: 'v' } };
    const patch = { mergingList: [{ name: 'a', value: '2' }, { name: 'b', $patch: 'delete' }], $retainKeys: ['mergingList', 'simpleMap'], simpleMap: { k: null } };
    const liveCopy = structuredClone(live);
    const patchCopy = structuredClone(patch);
    expect(strategicMergePatch(live, patch, schema)).toEqual({ mergingList: [{ name: 'a', value: '2' }], simpleMap: {} });
    expect(live).toEqual(liveCopy);
    expect(patch).toEqual(patchCopy);
  });

  it('a null patch leaves the object as it is', () => {
    expect(strategicMergePatch({ value: 'v' }, null, schema)).toEqual({ value: 'v' });
  });

  it('orders a 25-item list by $setElementOrder the way Go’s stable sort does (blocks of 20, then merge)', () => {
    const names = Array.from({ length: 25 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    const live = { mergingList: names.map((name) => ({ name })) };
    const order = [...names].reverse().map((name) => ({ name }));
    expect(strategicMergePatch(live, { '$setElementOrder/mergingList': order }, schema)).toEqual({ mergingList: order });
  });
});
