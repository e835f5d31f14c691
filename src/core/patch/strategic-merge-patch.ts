// Strategic merge patch, applied as kube-apiserver 1.32 applies it
// (k8s.io/apimachinery/pkg/util/strategicpatch StrategicMergeMapPatch, with
// MergeParallelList and IgnoreUnmatchedNulls), driven by our schema tables
// instead of Go struct tags (smp-schema.ts).
//
// In short:
// - maps merge recursively; `null` deletes a key; a key the live object lacks
//   takes the patch value, minus its nulls and any map holding `$patch`;
// - lists whose field has patch strategy `merge` merge: lists of maps by the
//   field's patch merge key, lists of scalars as an ordered set; every other
//   list is replaced as sent;
// - directives: `$patch: replace|delete` in a map, `$patch: delete|replace` as
//   a list element, `$retainKeys`, `$setElementOrder/<field>`,
//   `$deleteFromPrimitiveList/<field>` (on any list);
// - the order of a merged list: `$setElementOrder` if sent, else patch items in
//   patch order with live-only items woven in by their live position.
// Errors carry strategicpatch's texts (smp-errors.ts); apply-patch.ts maps them
// to HTTP statuses as the server does.
//
// Go iterates maps in random order; here patch keys are processed in the order
// they were sent, which is one of the orders Go may take.

import type { SchemaNode, SchemaTable } from '../schema/types';
import { isPlainObject } from './go-json';
import { setOwn } from '../util/set-own';
import { goSliceStable } from './go-sort';
import { goSprint, goTypeName } from './go-format';
import { structuredCloneJson } from './json-patch';
import { PatchSchema } from './smp-schema';
import { errBadArgType, errBadPatchType, errNoMergeKey, goPanic, StrategicMergePatchError } from './smp-errors';

const DIRECTIVE_MARKER = '$patch';
const DELETE_DIRECTIVE = 'delete';
const REPLACE_DIRECTIVE = 'replace';
const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

type JsonMap = Record<string, unknown>;

export interface SmpSchema {
  readonly node: SchemaNode;
  readonly table: SchemaTable;
}

/**
 * Applies a strategic merge patch (a decoded JSON object) to an object and
 * returns the result; neither input is modified. Throws
 * StrategicMergePatchError with strategicpatch's message.
 *
 * Like the server, the result may keep patch keys the type does not have
 * (e.g. directives inside a newly added list item); decoding into the type
 * drops them (with "unknown field" warnings under fieldValidation=Warn).
 */
export function strategicMergePatch(original: unknown, patch: unknown, schema: SmpSchema): unknown {
  const o = structuredCloneJson(original);
  if (!isPlainObject(o)) throw errBadArgType('map[string]interface {}', o);
  if (patch === null || patch === undefined) return o;
  const p = structuredCloneJson(patch);
  if (!isPlainObject(p)) throw errBadArgType('map[string]interface {}', p);
  return mergeMap(o, p, new PatchSchema(schema.node, schema.table));
}

const hasOwn = (m: JsonMap, k: string): boolean => Object.prototype.hasOwnProperty.call(m, k);

/** reflect Kind of a decoded value; numbers are one kind here (Go tells int64 from float64). */
type GoKind = 'nil' | 'map' | 'slice' | 'string' | 'number' | 'bool';
function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (isPlainObject(v)) return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  return 'bool';
}

/** Go's == on two interface{} values: panics when both hold the same uncomparable type. */
function goEqual(a: unknown, b: unknown): boolean {
  const ka = goKind(a);
  if (ka !== goKind(b)) return false;
  if (ka === 'map' || ka === 'slice') throw goPanic(`runtime error: comparing uncomparable type ${goTypeName(a)}`);
  return a === b || (ka === 'nil' && (a ?? null) === (b ?? null));
}

/** A map key for an interface{} value; Go panics on maps and slices. */
function hashKey(v: unknown): string {
  const k = goKind(v);
  if (k === 'map' || k === 'slice') throw goPanic(`runtime error: hash of unhashable type ${goTypeName(v)}`);
  return k === 'nil' ? 'nil' : `${k}:${String(v)}`;
}

function mergeMap(original: JsonMap | null, patch: JsonMap, schema: PatchSchema): JsonMap {
  if (hasOwn(patch, DIRECTIVE_MARKER)) return handleDirectiveInMergeMap(patch[DIRECTIVE_MARKER], patch);
  const orig = original ?? {};
  applyRetainKeysDirective(orig, patch);
  mergePatchIntoOriginal(orig, patch, schema);

  for (const patchKey of Object.keys(patch)) {
    let k = patchKey;
    const patchV = patch[patchKey];
    let isDeleteList = false;
    if (patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      isDeleteList = true;
      const listKey = extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      if (listKey.length > 0) k = listKey;
    }
    if (patchV === null) {
      // Even `$deleteFromPrimitiveList/x: null` deletes x.
      delete orig[k];
      continue;
    }
    if (!hasOwn(orig, k) || goKind(orig[k]) !== goKind(patchV)) {
      if (!isDeleteList) takePatchValue(orig, k, patchV);
      continue;
    }
    const originalV = orig[k];
    switch (goKind(originalV)) {
      case 'map': {
        const { schema: sub, meta } = schema.lookupStruct(k);
        const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
        setOwn(orig, k, mergeMapHandler(originalV, patchV, sub, strategy));
        break;
      }
      case 'slice': {
        const { schema: sub, meta } = schema.lookupSlice(k);
        const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
        setOwn(orig, k, mergeSliceHandler(originalV, patchV, sub, strategy, meta.mergeKey, isDeleteList));
        break;
      }
      default:
        takePatchValue(orig, k, patchV);
    }
  }
  return orig;
}

/** A value taken from the patch as is: its nulls dropped, maps holding `$patch` removed. */
function takePatchValue(orig: JsonMap, k: string, patchV: unknown): void {
  discardNullValuesFromPatch(patchV);
  const [value, keep] = removeDirectives(patchV);
  if (keep) setOwn(orig, k, value);
  else delete orig[k];
}

function discardNullValuesFromPatch(v: unknown): void {
  if (isPlainObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNullValuesFromPatch(v[k]);
    }
  } else if (Array.isArray(v)) {
    for (const item of v) discardNullValuesFromPatch(item);
  }
}

/** [value to use, whether to keep the field or item]. */
function removeDirectives(v: unknown): [unknown, boolean] {
  if (isPlainObject(v)) {
    if (hasOwn(v, DIRECTIVE_MARKER)) return [null, false];
    for (const k of Object.keys(v)) {
      const [nv, keep] = removeDirectives(v[k]);
      if (keep) setOwn(v, k, nv);
      else delete v[k];
    }
    return [v, true];
  }
  if (Array.isArray(v)) {
    const res: unknown[] = [];
    for (const item of v) {
      const [nv, keep] = removeDirectives(item);
      if (keep) res.push(nv);
    }
    return [res, true];
  }
  return [v, true];
}

function handleDirectiveInMergeMap(directive: unknown, patch: JsonMap): JsonMap {
  if (directive === REPLACE_DIRECTIVE) {
    // The map is replaced by the patch as sent (nested directives and nulls included).
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (directive === DELETE_DIRECTIVE) return {};
  throw errBadPatchType(directive, patch);
}

/** Splits "<prefix>/<field>"; a malformed key is the prefix's format error. */
function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX) throw StrategicMergePatchError.of('ErrBadPatchFormatForPrimitiveList');
    if (prefix === SET_ELEMENT_ORDER_PREFIX) throw StrategicMergePatchError.of('ErrBadPatchFormatForSetElementOrderList');
    throw new StrategicMergePatchError(`fail to find unknown prefix ${JSON.stringify(prefix)} in ${s}\n`);
  }
  return s.slice(slash + 1);
}

/** [has retainKeys, the other strategy]. */
function extractRetainKeysPatchStrategy(strategies: readonly string[]): [boolean, string] {
  const unexpected = () => new StrategicMergePatchError(`unexpected patch strategy: ${goSprint([...strategies])}`);
  switch (strategies.length) {
    case 0:
      return [false, ''];
    case 1:
      return strategies[0] === RETAIN_KEYS_STRATEGY ? [true, ''] : [false, strategies[0]!];
    case 2:
      if (strategies[0] === RETAIN_KEYS_STRATEGY) return [true, strategies[1]!];
      if (strategies[1] === RETAIN_KEYS_STRATEGY) return [true, strategies[0]!];
      throw unexpected();
    default:
      throw unexpected();
  }
}

/** `$retainKeys: [...]`: clears every live key not listed; every non-null patch key must be listed. */
function applyRetainKeysDirective(original: JsonMap, patch: JsonMap): void {
  if (!hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const list = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(list)) throw StrategicMergePatchError.of('ErrBadPatchFormatForRetainKeys');
  const retained = new Set(list.map(hashKey));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!retained.has(hashKey(k))) throw StrategicMergePatchError.of('ErrBadPatchFormatForRetainKeys');
  }
  for (const k of Object.keys(original)) if (!retained.has(hashKey(k))) delete original[k];
}

/** `$setElementOrder/<field>`: merges that field's list now and puts it in the given order. */
function mergePatchIntoOriginal(original: JsonMap, patch: JsonMap, schema: PatchSchema): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    const setOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setOrder)) throw errBadArgType('[]interface {}', setOrder);
    const listKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = hasOwn(original, listKey);
    const foundPatch = hasOwn(patch, listKey);
    const originalList = original[listKey];
    const patchList = patch[listKey];
    if (foundOriginal && !Array.isArray(originalList)) throw errBadArgType('[]interface {}', originalList);
    if (foundPatch && !Array.isArray(patchList)) throw errBadArgType('[]interface {}', patchList);
    const originalFieldValue = foundOriginal ? (originalList as unknown[]) : [];
    const patchFieldValue = foundPatch ? (patchList as unknown[]) : [];

    const { schema: sub, meta } = schema.lookupSlice(listKey);
    const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
    validatePatchWithSetOrderList(patchFieldValue, setOrder, meta.mergeKey);

    let merged: unknown[];
    if (foundOriginal && !foundPatch) merged = originalFieldValue;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchFieldValue)[0] as unknown[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList, patchList, sub, strategy, meta.mergeKey, false);
    else continue;

    const [patchItems, serverOnlyItems] =
      meta.mergeKey.length === 0 ? partitionPrimitivesByPresentInList(merged, setOrder) : partitionMapsByPresentInList(merged, setOrder, meta.mergeKey);
    const kind = sliceElementType([originalFieldValue, patchFieldValue]);
    setOwn(original, listKey, normalizeElementOrder(patchItems, serverOnlyItems, setOrder, originalFieldValue, meta.mergeKey, kind));
    delete patch[listKey];
  }
}

/** The patch list's items (deletions aside) must appear in `$setElementOrder` in the same relative order. */
function validatePatchWithSetOrderList(patchList: unknown[], setOrderList: unknown[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey.length > 0 ? extractToDeleteItems(patchList)[0] : patchList;
  let patchIndex = 0;
  let setOrderIndex = 0;
  while (patchIndex < nonDelete.length && setOrderIndex < setOrderList.length) {
    if (containsDirectiveMarker(nonDelete[patchIndex])) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[patchIndex], setOrderList[setOrderIndex], mergeKey)) patchIndex++;
    setOrderIndex++;
  }
  if (patchIndex < nonDelete.length && setOrderIndex >= setOrderList.length) {
    throw new StrategicMergePatchError(
      `The order in patch list:\n${goSprint(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goSprint(setOrderList)}\n`,
    );
  }
}

function containsDirectiveMarker(item: unknown): boolean {
  return isPlainObject(item) && hasOwn(item, DIRECTIVE_MARKER);
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey.length === 0) return goEqual(left, right);
  if (!isPlainObject(left)) throw errBadArgType('map[string]interface {}', left);
  if (!isPlainObject(right)) throw errBadArgType('map[string]interface {}', right);
  if (!hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/** [items to keep, items with `$patch: delete`]. */
function extractToDeleteItems(list: unknown[]): [unknown[], unknown[]] {
  const nonDelete: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const v of list) {
    if (!isPlainObject(v)) throw errBadArgType('map[string]interface {}', v);
    if (hasOwn(v, DIRECTIVE_MARKER) && v[DIRECTIVE_MARKER] === DELETE_DIRECTIVE) toDelete.push(v);
    else nonDelete.push(v);
  }
  return [nonDelete, toDelete];
}

function mergeMapHandler(original: unknown, patch: unknown, schema: PatchSchema, strategy: string): JsonMap {
  if (!isPlainObject(original)) throw errBadArgType('map[string]interface {}', original);
  if (!isPlainObject(patch)) throw errBadArgType('map[string]interface {}', patch);
  // Strategy `replace` (e.g. PodDisruptionBudgetSpec.selector): the patch as sent.
  return strategy === REPLACE_DIRECTIVE ? patch : mergeMap(original, patch, schema);
}

function mergeSliceHandler(
  original: unknown,
  patch: unknown,
  schema: PatchSchema,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
): unknown[] {
  if (!Array.isArray(original)) throw errBadArgType('[]interface {}', original);
  if (!Array.isArray(patch)) throw errBadArgType('[]interface {}', patch);
  // Deletion lists work on any list, whatever its strategy.
  if (strategy === MERGE_DIRECTIVE || isDeleteList) return mergeSlice(original, patch, schema, mergeKey, isDeleteList);
  return patch;
}

function mergeSlice(original: unknown[], patch: unknown[], schema: PatchSchema, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType([original, patch]);
  let merged: unknown[];
  let live = original;
  let items = patch;
  if (kind !== 'map') {
    if (isDeleteList) return deleteFromSlice(original, patch);
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw new StrategicMergePatchError(`cannot merge lists without merge key for ${schema.kindName()}`);
    [live, items] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(live, items, mergeKey, schema);
  }
  const [patchItems, serverOnlyItems] =
    mergeKey.length === 0 ? partitionPrimitivesByPresentInList(merged, items) : partitionMapsByPresentInList(merged, items, mergeKey);
  return normalizeElementOrder(patchItems, serverOnlyItems, items, live, mergeKey, kind);
}

/** Handles `$patch` list elements: [live list after deletions (or the replacement), patch without them]. */
function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let replace = false;
  let live = original;
  for (const v of patch as JsonMap[]) {
    if (!hasOwn(v, DIRECTIVE_MARKER)) {
      plain.push(v);
      continue;
    }
    const directive = v[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      live = deleteMatchingEntries(live, mergeKey, v[mergeKey]);
    } else if (directive === REPLACE_DIRECTIVE) {
      // Keep going: other `$patch` elements are still dropped.
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw new StrategicMergePatchError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, v);
    }
  }
  return replace ? [plain, []] : [live, plain];
}

/** Every item with this merge key value goes (duplicates included). */
function deleteMatchingEntries(original: unknown[], mergeKey: string, value: unknown): unknown[] {
  let list = original;
  for (;;) {
    const found = findMapInSliceBasedOnKeyValue(list, mergeKey, value);
    if (!found) return list;
    list = [...list.slice(0, found.index), ...list.slice(found.index + 1)];
  }
}

function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, schema: PatchSchema): unknown[] {
  const out = [...original];
  for (const v of patch as JsonMap[]) {
    if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    const found = findMapInSliceBasedOnKeyValue(out, mergeKey, v[mergeKey]);
    // A matching item (the first, if the live list has duplicates) is merged; a new one is appended as sent.
    if (found) out[found.index] = mergeMap(found.map, v, schema);
    else out.push(v);
  }
  return out;
}

function findMapInSliceBasedOnKeyValue(list: unknown[], key: string, value: unknown): { map: JsonMap; index: number } | undefined {
  for (let k = 0; k < list.length; k++) {
    const v = list[k];
    if (!isPlainObject(v)) throw new StrategicMergePatchError(`value for key ${k} is not a map.`);
    if (hasOwn(v, key) && goEqual(v[key], value)) return { map: v, index: k };
  }
  return undefined;
}

function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const gone = new Set(toDelete.map(hashKey));
  return current.filter((v) => !gone.has(hashKey(v)));
}

/** strategicpatch's in-place de-duplication (it reorders; the order is fixed afterwards). */
function deduplicateScalars(s: unknown[]): unknown[] {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEqual(s[i], s[j])) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

/** The kind shared by every item of the lists; errors for lists of lists, mixed kinds, or no items at all. */
function sliceElementType(slices: unknown[][]): GoKind {
  let prev: GoKind | undefined;
  for (const s of slices) {
    for (const v of s) {
      const current = goKind(v);
      if (prev === undefined) {
        if (current === 'nil') throw goPanic('runtime error: invalid memory address or nil pointer dereference');
        prev = current;
        if (prev === 'slice') throw StrategicMergePatchError.of('ErrNoListOfLists');
      } else if (prev !== current) {
        throw new StrategicMergePatchError(`list element types are not identical: ${goSprint(slices)}`);
      }
    }
  }
  if (prev === undefined) throw new StrategicMergePatchError('no elements in any of the given slices');
  return prev;
}

function partitionPrimitivesByPresentInList(original: unknown[], partitionBy: unknown[]): [unknown[], unknown[]] {
  const inPatch = new Set(partitionBy.map(hashKey));
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of original) (inPatch.has(hashKey(v)) ? patch : serverOnly).push(v);
  return [patch, serverOnly];
}

function partitionMapsByPresentInList(original: unknown[], partitionBy: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of original) {
    if (!isPlainObject(v)) throw errBadArgType('map[string]interface {}', v);
    if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (findMapInSliceBasedOnKeyValue(partitionBy, mergeKey, v[mergeKey]) ? patch : serverOnly).push(v);
  }
  return [patch, serverOnly];
}

/**
 * index(): the position in `order` of the first item with the same merge key
 * value (maps) or the same value (scalars), or -1. Built once per list.
 */
function indexer(order: unknown[], mergeKey: string, kind: GoKind): (item: unknown) => number {
  const keyOf = kind === 'map' ? (item: unknown) => (isPlainObject(item) ? (item[mergeKey] ?? null) : null) : (item: unknown) => item;
  const first = new Map<string, number>();
  let hashable = true;
  for (let i = 0; i < order.length; i++) {
    const k = keyOf(order[i]);
    const t = goKind(k);
    if (t === 'map' || t === 'slice') {
      hashable = false;
      break;
    }
    const h = hashKey(k);
    if (!first.has(h)) first.set(h, i);
  }
  if (hashable) {
    return (item) => {
      const k = keyOf(item);
      const t = goKind(k);
      if (t === 'map' || t === 'slice') {
        // Go compares it against every entry; none is of its type (all hashable), so no match.
        return -1;
      }
      return first.get(hashKey(k)) ?? -1;
    };
  }
  return (item) => {
    const k = keyOf(item);
    for (let i = 0; i < order.length; i++) if (goEqual(k, keyOf(order[i]))) return i;
    return -1;
  };
}

function normalizeElementOrder(
  patch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServerOnly = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServerOnly, sortedPatch, serverOrder, mergeKey, kind);
}

function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: GoKind): unknown[] {
  let items = toSort;
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, items, order);
    [items, toDelete] = extractToDeleteItems(items);
  }
  const index = indexer(order, mergeKey, kind);
  goSliceStable(items, (a, b) => {
    const ia = index(a);
    if (ia >= 0) {
      const ib = index(b);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return items.concat(toDelete);
}

function validateMergeKeyInLists(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isPlainObject(item)) throw errBadArgType('map[string]interface {}', item);
      if (!hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** Weaves live-only items (left) into the patch items (right) by their live positions. */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: GoKind): unknown[] {
  const index = indexer(serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const li = index(left[i]);
    const ri = index(right[j]);
    if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
    else out.push(right[j++]);
  }
  while (i < left.length) out.push(left[i++]);
  while (j < right.length) out.push(right[j++]);
  return out;
}
