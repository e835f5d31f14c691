// The path element of a list item: its keys in a list-map (with the schema's
// default for a missing key, e.g. protocol "TCP" for container ports), its
// value in a set. Non-associative lists have no per-item element.

import { keyElement, valueElement, type KeyField, type PathElement } from '../fieldpath/element';
import type { ListAtom } from '../schema/atom';
import { isObject } from '../value/compare';
import { goQuote } from '../../util/go/quote';

export class ListItemError extends Error {}

export function listItemElement(list: ListAtom, item: unknown): PathElement {
  if (list.keys.length > 0) return keyedItemElement(list, item);
  if (item === null) throw new ListItemError("associative list without keys has an element that's an explicit null");
  if (Array.isArray(item)) throw new ListItemError('not supported: associative list with lists as elements');
  if (typeof item === 'object') throw new ListItemError("associative list without keys has an element that's a map type");
  return valueElement(item);
}

function keyedItemElement(list: ListAtom, item: unknown): PathElement {
  if (item === null) throw new ListItemError('associative list with keys may not have a null element');
  if (!isObject(item)) throw new ListItemError('associative list with keys may not have non-map elements');
  const fields: KeyField[] = [];
  for (const name of list.keys) {
    if (Object.prototype.hasOwnProperty.call(item, name) && item[name] !== undefined) {
      fields.push({ name, value: item[name] });
      continue;
    }
    const map = list.elem().map;
    if (!map) throw new ListItemError(`couldn't find default value for ${name}: associative list may not have non-map types`);
    const def = map.field(name)?.default;
    if (def === undefined || def === null) {
      throw new ListItemError(`associative list with keys has an element that omits key field ${goQuote(name)} (and doesn't have default value)`);
    }
    fields.push({ name, value: def });
  }
  return keyElement(fields);
}
