// Strategic merge patch cases on the `mergeItem` test type of
// k8s.io/apimachinery's strategicpatch tests (fields and strategies as listed in
// ../shared/reference/strategic-merge-patch/README.md), written as our own
// examples of the behaviours that README summarises. Shared by the tests that
// run them against a hand-written schema table and against the upstream
// OpenAPI test schema. Test data only: imported by *.test.ts files.

import { createSchemaTable, type SchemaNode, type SchemaTable } from '../schema/types';

export interface SmpCase {
  /** The README behaviour (1–21) or a named rule the case checks. */
  readonly rule: string;
  readonly name: string;
  readonly live: unknown;
  readonly patch: unknown;
  readonly expected?: unknown;
  /** The error text strategicpatch returns. */
  readonly error?: string;
}

const str: SchemaNode = { type: 'string' };
const int32: SchemaNode = { type: 'integer', format: 'int32' };

/** mergeItem and retainKeysMergeItem, by hand, in our schema's form. */
export function handWrittenMergeItemTable(): SchemaTable {
  const mergeItemFields = {
    name: str,
    value: str,
    other: str,
    mergingList: { type: 'array', items: { ref: 'mergeItem' }, patchStrategy: 'merge', patchMergeKey: 'name' },
    nonMergingList: { type: 'array', items: { ref: 'mergeItem' } },
    mergingIntList: { type: 'array', items: int32, patchStrategy: 'merge' },
    nonMergingIntList: { type: 'array', items: int32 },
  } as const satisfies Record<string, SchemaNode>;
  return createSchemaTable({
    mergeItem: {
      type: 'object',
      properties: {
        ...mergeItemFields,
        mergeItemPtr: { ref: 'mergeItem' },
        simpleMap: { type: 'object', additionalProperties: str },
        // A RawExtension with strategy replace.
        replacingItem: { type: 'object', properties: { Raw: { type: 'string', format: 'byte' } }, patchStrategy: 'replace' },
        retainKeysMap: {
          type: 'object',
          properties: { ...mergeItemFields, simpleMap: { type: 'object', additionalProperties: str } },
          patchStrategy: 'retainKeys',
        },
        retainKeysMergingList: { type: 'array', items: { ref: 'mergeItem' }, patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
      },
    },
  });
}

export const MERGE_ITEM_ROOT: SchemaNode = { ref: 'mergeItem' };

const a = (extra: Record<string, unknown> = {}) => ({ name: 'a', ...extra });
const b = (extra: Record<string, unknown> = {}) => ({ name: 'b', ...extra });

export const SMP_CASES: readonly SmpCase[] = [
  // 1. Maps merge recursively; null deletes.
  {
    rule: '1 maps merge, null deletes',
    name: 'merges a map and deletes a key with null',
    live: { simpleMap: { a: '1', b: '2' }, value: 'v' },
    patch: { simpleMap: { b: null, c: '3' } },
    expected: { simpleMap: { a: '1', c: '3' }, value: 'v' },
  },
  { rule: '1 maps merge, null deletes', name: 'deleting a missing key is a no-op', live: { simpleMap: { a: '1' } }, patch: { simpleMap: { z: null }, other: null }, expected: { simpleMap: { a: '1' } } },
  { rule: '1 maps merge, null deletes', name: 'null deletes a whole field', live: { value: 'v', mergingList: [a()] }, patch: { mergingList: null }, expected: { value: 'v' } },
  {
    rule: '1 maps merge, null deletes',
    name: 'a null for a map the object lacks leaves an empty map (nulls of new values are dropped)',
    live: {},
    patch: { simpleMap: { k: null } },
    expected: { simpleMap: {} },
  },
  { rule: '1 maps merge, null deletes', name: 'an empty patch changes nothing', live: { value: 'v' }, patch: {}, expected: { value: 'v' } },

  // 2. Lists without a strategy are replaced.
  {
    rule: '2 lists without strategy replaced',
    name: 'a list of maps without strategy is replaced',
    live: { nonMergingList: [a({ value: '1' }), b()] },
    patch: { nonMergingList: [a({ other: 'x' })] },
    expected: { nonMergingList: [a({ other: 'x' })] },
  },
  { rule: '2 lists without strategy replaced', name: 'a list of scalars without strategy is replaced', live: { nonMergingIntList: [1, 2] }, patch: { nonMergingIntList: [3] }, expected: { nonMergingIntList: [3] } },
  {
    rule: '2 lists without strategy replaced',
    name: 'a replaced list is taken as sent, nulls and directives included',
    live: { nonMergingList: [a()] },
    patch: { nonMergingList: [{ name: 'c', value: null, $patch: 'delete' }] },
    expected: { nonMergingList: [{ name: 'c', value: null, $patch: 'delete' }] },
  },

  // 3. Lists of maps with merge strategy merge on the merge key.
  {
    rule: '3 merge by key',
    name: 'merges the item with the same key, keeps the others',
    live: { mergingList: [a({ value: '1', other: 'x' }), b({ value: '2' })] },
    patch: { mergingList: [a({ value: '9' })] },
    expected: { mergingList: [a({ value: '9', other: 'x' }), b({ value: '2' })] },
  },
  {
    rule: '3 merge by key',
    name: 'merges recursively into nested merging lists',
    live: { mergingList: [a({ mergingList: [{ name: 'x', value: '1' }] })] },
    patch: { mergingList: [a({ mergingList: [{ name: 'y', value: '2' }] })] },
    expected: { mergingList: [a({ mergingList: [{ name: 'y', value: '2' }, { name: 'x', value: '1' }] })] },
  },
  {
    rule: '3 merge by key',
    name: 'null inside an item deletes that item field',
    live: { mergingList: [a({ value: '1', other: 'x' })] },
    patch: { mergingList: [a({ other: null })] },
    expected: { mergingList: [a({ value: '1' })] },
  },
  {
    rule: '3 merge by key',
    name: 'a new item is appended as sent (its nulls kept)',
    live: { mergingList: [a()] },
    patch: { mergingList: [{ name: 'c', value: null }] },
    expected: { mergingList: [{ name: 'c', value: null }, a()] },
  },

  // 4. Every patch item needs the merge key.
  {
    rule: '4 merge key required',
    name: 'an item without the merge key is an error',
    live: { mergingList: [a()] },
    patch: { mergingList: [{ value: '2' }] },
    error: 'map: map[value:2] does not contain declared merge key: name',
  },
  {
    rule: '4 merge key required',
    name: 'a live item without the merge key is an error too',
    live: { mergingList: [{ value: '1' }] },
    patch: { mergingList: [a()] },
    error: 'map: map[value:1] does not contain declared merge key: name',
  },

  // 5. $patch: delete in a list.
  {
    rule: '5 $patch: delete in a list',
    name: 'deletes every item with that key',
    live: { mergingList: [a({ value: '1' }), b(), a({ value: '2' })] },
    patch: { mergingList: [{ name: 'a', $patch: 'delete' }] },
    expected: { mergingList: [b()] },
  },
  { rule: '5 $patch: delete in a list', name: 'deleting a missing key is a no-op', live: { mergingList: [a()] }, patch: { mergingList: [{ name: 'z', $patch: 'delete' }] }, expected: { mergingList: [a()] } },
  {
    rule: '5 $patch: delete in a list',
    name: 'a delete without the merge key is an error',
    live: { mergingList: [a()] },
    patch: { mergingList: [{ $patch: 'delete' }] },
    error: 'map: map[$patch:delete] does not contain declared merge key: name',
  },
  {
    rule: '5 $patch: delete in a list',
    name: 'merge and delete in one list',
    live: { mergingList: [a({ value: '1' }), b({ value: '2' })] },
    patch: { mergingList: [b({ value: '3' }), { name: 'a', $patch: 'delete' }] },
    expected: { mergingList: [b({ value: '3' })] },
  },

  // 6. $patch: replace in a list.
  { rule: '6 $patch: replace in a list', name: 'alone, empties the list', live: { mergingList: [a(), b()] }, patch: { mergingList: [{ $patch: 'replace' }] }, expected: { mergingList: [] } },
  {
    rule: '6 $patch: replace in a list',
    name: 'with items, the list becomes those items',
    live: { mergingList: [a({ value: '1' }), b()] },
    patch: { mergingList: [a({ other: 'x' }), { $patch: 'replace' }] },
    expected: { mergingList: [a({ other: 'x' })] },
  },
  {
    rule: '6 $patch: replace in a list',
    name: 'other $patch items are dropped too',
    live: { mergingList: [a()] },
    patch: { mergingList: [{ $patch: 'replace' }, { name: 'z', $patch: 'delete' }, b()] },
    expected: { mergingList: [b()] },
  },
  {
    rule: '6 $patch in a list',
    name: '$patch: merge in a list is refused',
    live: { mergingList: [a()] },
    patch: { mergingList: [{ $patch: 'merge' }] },
    error: 'merging lists cannot yet be specified in the patch',
  },
  {
    rule: '6 $patch in a list',
    name: 'an unknown $patch in a list is refused',
    live: { mergingList: [a()] },
    patch: { mergingList: [{ name: 'a', $patch: 'drop' }] },
    error: 'unknown patch type: drop in map: map[$patch:drop name:a]',
  },

  // 7. $patch: replace in a map.
  {
    rule: '7 $patch: replace in a map',
    name: 'replaces the map instead of merging it',
    live: { simpleMap: { a: '1', b: '2' }, value: 'v' },
    patch: { simpleMap: { c: '3', $patch: 'replace' } },
    expected: { simpleMap: { c: '3' }, value: 'v' },
  },
  {
    rule: '7 $patch: replace in a map',
    name: 'on a struct, keeps the patch as sent (its nulls too)',
    live: { mergeItemPtr: { name: 'p', value: '1', other: 'o' } },
    patch: { mergeItemPtr: { value: '2', other: null, $patch: 'replace' } },
    expected: { mergeItemPtr: { value: '2', other: null } },
  },
  {
    rule: '7 $patch: replace in a map',
    name: 'at the top level replaces the whole object',
    live: { value: 'v', other: 'o' },
    patch: { $patch: 'replace', name: 'n' },
    expected: { name: 'n' },
  },
  {
    rule: '7 $patch in a map',
    name: '$patch: merge in a map is an unknown patch type',
    live: { simpleMap: { a: '1' } },
    patch: { simpleMap: { $patch: 'merge', b: '2' } },
    error: 'unknown patch type: merge in map: map[$patch:merge b:2]',
  },
  {
    rule: '7 $patch in a map',
    name: 'a non-string $patch prints as Go prints it',
    live: { simpleMap: { a: '1' } },
    patch: { simpleMap: { $patch: 5 } },
    error: 'unknown patch type: %!s(int64=5) in map: map[$patch:5]',
  },

  // 8. $patch: delete in a map.
  {
    rule: '8 $patch: delete in a map',
    name: 'empties the map (the field stays, as {})',
    live: { simpleMap: { a: '1' }, value: 'v' },
    patch: { simpleMap: { $patch: 'delete' } },
    expected: { simpleMap: {}, value: 'v' },
  },
  {
    rule: '8 $patch in a new value',
    name: 'a map holding $patch is dropped from a value the object lacks',
    live: { value: 'v' },
    patch: { simpleMap: { $patch: 'replace', a: '1' }, mergeItemPtr: { name: 'p', simpleMap: { $patch: 'delete' } } },
    expected: { value: 'v', mergeItemPtr: { name: 'p' } },
  },
  {
    rule: '8 $patch in a new value',
    name: 'list items holding $patch are dropped from a list the object lacks',
    live: {},
    patch: { mergingList: [{ name: 'x', $patch: 'delete' }, b()] },
    expected: { mergingList: [b()] },
  },

  // 9. Primitive lists with merge strategy are ordered sets.
  { rule: '9 primitive merge lists', name: 'union without duplicates', live: { mergingIntList: [1, 2] }, patch: { mergingIntList: [2, 3] }, expected: { mergingIntList: [1, 2, 3] } },
  { rule: '9 primitive merge lists', name: 'duplicates in the live list collapse', live: { mergingIntList: [1, 1, 2] }, patch: { mergingIntList: [3] }, expected: { mergingIntList: [3, 1, 2] } },

  // 10. $deleteFromPrimitiveList.
  {
    rule: '10 $deleteFromPrimitiveList',
    name: 'removes every occurrence',
    live: { mergingIntList: [1, 2, 2, 3] },
    patch: { '$deleteFromPrimitiveList/mergingIntList': [2] },
    expected: { mergingIntList: [1, 3] },
  },
  {
    rule: '10 $deleteFromPrimitiveList',
    name: 'works on a list without the merge strategy too',
    live: { nonMergingIntList: [1, 2, 3] },
    patch: { '$deleteFromPrimitiveList/nonMergingIntList': [1, 3] },
    expected: { nonMergingIntList: [2] },
  },
  { rule: '10 $deleteFromPrimitiveList', name: 'a missing value is a no-op', live: { mergingIntList: [1] }, patch: { '$deleteFromPrimitiveList/mergingIntList': [7] }, expected: { mergingIntList: [1] } },
  { rule: '10 $deleteFromPrimitiveList', name: 'never creates the list', live: { value: 'v' }, patch: { '$deleteFromPrimitiveList/mergingIntList': [1] }, expected: { value: 'v' } },
  {
    rule: '10 $deleteFromPrimitiveList',
    name: 'with additions in the same patch',
    live: { mergingIntList: [1, 2] },
    patch: { mergingIntList: [3], '$deleteFromPrimitiveList/mergingIntList': [1] },
    expected: { mergingIntList: [3, 2] },
  },
  { rule: '10 $deleteFromPrimitiveList', name: 'null as the deletion list deletes the list', live: { mergingIntList: [1, 2], value: 'v' }, patch: { '$deleteFromPrimitiveList/mergingIntList': null }, expected: { value: 'v' } },
  { rule: '10 $deleteFromPrimitiveList', name: 'a key without "/" is a format error', live: {}, patch: { $deleteFromPrimitiveListmergingIntList: [1] }, error: 'invalid patch format of primitive list' },

  // 11. Order without $setElementOrder.
  {
    rule: '11 order without $setElementOrder',
    name: 'a new item goes in front of live-only items',
    live: { mergingList: [a(), b()] },
    patch: { mergingList: [{ name: 'c', value: '1' }] },
    expected: { mergingList: [{ name: 'c', value: '1' }, a(), b()] },
  },
  { rule: '11 order without $setElementOrder', name: 'patch order wins for items in the patch', live: { mergingIntList: [1, 2, 3] }, patch: { mergingIntList: [3, 1] }, expected: { mergingIntList: [2, 3, 1] } },
  {
    rule: '11 order without $setElementOrder',
    name: 'a live-only item goes before the first patch item that follows it in the live list',
    live: { mergingList: [a(), { name: 'x' }, b()] },
    patch: { mergingList: [b({ value: '2' }), a({ value: '1' })] },
    expected: { mergingList: [{ name: 'x' }, b({ value: '2' }), a({ value: '1' })] },
  },

  // 12. $setElementOrder fixes the order.
  {
    rule: '12 $setElementOrder',
    name: 'reorders maps by merge key without changing them',
    live: { mergingList: [a({ value: '1' }), b({ value: '2' })] },
    patch: { '$setElementOrder/mergingList': [{ name: 'b' }, { name: 'a' }] },
    expected: { mergingList: [b({ value: '2' }), a({ value: '1' })] },
  },
  {
    rule: '12 $setElementOrder',
    name: 'orders patched and new items; unknown order entries are ignored',
    live: { mergingList: [a(), b()] },
    patch: { '$setElementOrder/mergingList': [{ name: 'c' }, { name: 'b' }, { name: 'zz' }, { name: 'a' }], mergingList: [{ name: 'c' }, b({ value: '2' })] },
    expected: { mergingList: [{ name: 'c' }, b({ value: '2' }), a()] },
  },
  {
    rule: '12 $setElementOrder',
    name: 'orders a primitive list',
    live: { mergingIntList: [1, 2, 3] },
    patch: { '$setElementOrder/mergingIntList': [3, 1, 2] },
    expected: { mergingIntList: [3, 1, 2] },
  },
  {
    rule: '12 $setElementOrder',
    name: 'with a list the object lacks, its directives are dropped',
    live: {},
    patch: { '$setElementOrder/mergingList': [{ name: 'b' }, { name: 'a' }], mergingList: [b(), a()] },
    expected: { mergingList: [b(), a()] },
  },
  {
    rule: '12 $setElementOrder',
    name: 'a non-list order is a type error',
    live: { mergingList: [a()] },
    patch: { '$setElementOrder/mergingList': 'a' },
    error: 'expected a []interface {}, but received a string',
  },
  { rule: '12 $setElementOrder', name: 'a key without "/" is a format error', live: {}, patch: { $setElementOrder: [] }, error: 'invalid patch format of setElementOrder list' },
  {
    rule: '12 $setElementOrder',
    name: 'an order for a field the type lacks is an error',
    live: {},
    patch: { '$setElementOrder/nope': [] },
    error: 'unable to find api field in struct mergeItem for the json field "nope"',
  },

  // 13. Live-only items survive $setElementOrder.
  {
    rule: '13 server-only items with $setElementOrder',
    name: 'are woven in by their live position',
    live: { mergingList: [{ name: '1' }, { name: '2' }, { name: '9' }, { name: '3' }, { name: '4' }] },
    patch: { '$setElementOrder/mergingList': [{ name: '2' }, { name: '1' }, { name: '4' }, { name: '3' }] },
    expected: { mergingList: [{ name: '2' }, { name: '1' }, { name: '9' }, { name: '4' }, { name: '3' }] },
  },

  // 14. The patch list and $setElementOrder must agree.
  {
    rule: '14 $setElementOrder must match the patch',
    name: 'a different relative order is an error',
    live: { mergingList: [a(), b()] },
    patch: { '$setElementOrder/mergingList': [{ name: 'b' }, { name: 'a' }], mergingList: [a({ value: '1' }), b({ value: '2' })] },
    error: "The order in patch list:\n[map[name:a value:1] map[name:b value:2]]\n doesn't match $setElementOrder list:\n[map[name:b] map[name:a]]\n",
  },
  {
    rule: '14 $setElementOrder must match the patch',
    name: 'deletions are not checked against the order',
    live: { mergingList: [a(), b()] },
    patch: { '$setElementOrder/mergingList': [{ name: 'b' }], mergingList: [{ name: 'a', $patch: 'delete' }, b({ value: '2' })] },
    expected: { mergingList: [b({ value: '2' })] },
  },

  // 15. $retainKeys.
  {
    rule: '15 $retainKeys',
    name: 'clears every live key not listed',
    live: { retainKeysMap: { name: 'n', value: 'v', other: 'o' } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'v2' } },
    expected: { retainKeysMap: { name: 'n', value: 'v2' } },
  },
  {
    rule: '15 $retainKeys',
    name: 'without the directive the map merges normally',
    live: { retainKeysMap: { name: 'n', other: 'o' } },
    patch: { retainKeysMap: { value: 'v2' } },
    expected: { retainKeysMap: { name: 'n', other: 'o', value: 'v2' } },
  },
  {
    rule: '15 $retainKeys',
    name: 'a patch key missing from the list is a format error',
    live: { retainKeysMap: { name: 'n' } },
    patch: { retainKeysMap: { $retainKeys: ['name'], value: 'v2' } },
    error: 'invalid patch format of retainKeys',
  },
  {
    rule: '15 $retainKeys',
    name: 'nulls and parallel lists need not be listed',
    live: { retainKeysMap: { name: 'n', value: 'v', mergingIntList: [1, 2] } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'mergingIntList'], value: null, '$deleteFromPrimitiveList/mergingIntList': [1] } },
    expected: { retainKeysMap: { name: 'n', mergingIntList: [2] } },
  },
  { rule: '15 $retainKeys', name: 'a non-list directive is a format error', live: { retainKeysMap: {} }, patch: { retainKeysMap: { $retainKeys: 'name' } }, error: 'invalid patch format of retainKeys' },

  // 16. merge,retainKeys on a list of maps.
  {
    rule: '16 merge,retainKeys list',
    name: 'merges items by key and retains keys inside an item',
    live: { retainKeysMergingList: [a({ value: '1', other: 'x' }), b({ value: '2' })] },
    patch: { retainKeysMergingList: [{ name: 'a', $retainKeys: ['name', 'other'], other: 'y' }] },
    expected: { retainKeysMergingList: [a({ other: 'y' }), b({ value: '2' })] },
  },

  // 17. Strategy replace on a map field.
  {
    rule: '17 strategy replace',
    name: 'replaces the field wholesale while the rest merges',
    live: { replacingItem: { a: { b: 1 }, c: 1 }, simpleMap: { k: '1' } },
    patch: { replacingItem: { a: { d: 2 } }, simpleMap: { l: '2' } },
    expected: { replacingItem: { a: { d: 2 } }, simpleMap: { k: '1', l: '2' } },
  },

  // 18. Duplicates in merging lists.
  {
    rule: '18 duplicates',
    name: 'the first item with the key is merged, duplicates stay together',
    live: { mergingList: [a({ value: '1' }), b(), a({ value: '2' })] },
    patch: { mergingList: [a({ other: 'x' })] },
    expected: { mergingList: [a({ value: '1', other: 'x' }), a({ value: '2' }), b()] },
  },
  {
    rule: '18 duplicates',
    name: 'with $setElementOrder duplicates are kept at their key position',
    live: { mergingList: [a({ value: '1' }), b(), a({ value: '2' })] },
    patch: { '$setElementOrder/mergingList': [{ name: 'b' }, { name: 'a' }] },
    expected: { mergingList: [b(), a({ value: '1' }), a({ value: '2' })] },
  },

  // 20. Values the type does not describe; nulls in new values.
  {
    rule: '20 fields not in the schema',
    name: 'adding and removing an unknown field works',
    live: { value: 'v', gone: { x: 1 } },
    patch: { extra: { x: [1] }, gone: null },
    expected: { value: 'v', extra: { x: [1] } },
  },
  {
    rule: '20 fields not in the schema',
    name: 'merging into an unknown map field is an error',
    live: { extra: { a: '1' } },
    patch: { extra: { b: '2' } },
    error: 'unable to find api field in struct mergeItem for the json field "extra"',
  },
  {
    rule: '20 nulls in new values',
    name: 'are dropped from maps, also maps inside lists, but not from plain lists',
    live: {},
    patch: { mergeItemPtr: { name: 'p', value: null, mergingList: [{ name: 'x', value: null }] }, nonMergingIntList: [1, null, 2] },
    expected: { mergeItemPtr: { name: 'p', mergingList: [{ name: 'x' }] }, nonMergingIntList: [1, null, 2] },
  },

  // Type errors and lists of lists.
  {
    rule: 'type changes',
    name: 'a value of another JSON type replaces the live one',
    live: { mergingList: [a()], value: 'v' },
    patch: { mergingList: { name: 'a' }, value: 3 },
    expected: { mergingList: { name: 'a' }, value: 3 },
  },
  {
    rule: 'lists of lists',
    name: 'a merging list of lists is refused',
    live: { mergingIntList: [] },
    patch: { mergingIntList: [[1]] },
    error: 'lists of lists are not supported',
  },
  {
    rule: 'mixed lists',
    name: 'a merging list mixing kinds is refused',
    live: { mergingIntList: [1] },
    patch: { mergingIntList: ['x'] },
    error: 'list element types are not identical: [[1] [x]]',
  },
];
