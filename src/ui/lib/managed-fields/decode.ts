// fieldsV1 → the set of paths a manager owns. A key whose subtree is empty,
// or holds '.', is a member of the set itself; other keys only lead to
// members below them.

import { parseFieldsV1Key, type PathElement } from './field-path';

export interface OwnedPath {
  readonly elements: readonly PathElement[];
  /** True when the path's children are listed too (it is a map or list item node). */
  readonly hasChildren: boolean;
}

export function decodeFieldsV1(tree: unknown): OwnedPath[] {
  const out: OwnedPath[] = [];
  walk(tree, [], out);
  return out;
}

function walk(tree: unknown, prefix: PathElement[], out: OwnedPath[]): void {
  if (!tree || typeof tree !== 'object') return;
  for (const [key, child] of Object.entries(tree as Record<string, unknown>)) {
    if (key === '.') continue;
    const element = parseFieldsV1Key(key);
    if (!element) continue;
    const path = [...prefix, element];
    const children = child && typeof child === 'object' ? Object.keys(child as object) : [];
    const member = children.length === 0 || children.includes('.');
    if (member) out.push({ elements: path, hasChildren: children.some((k) => k !== '.') });
    walk(child, path, out);
  }
}
