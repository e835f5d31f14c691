// The two ways out of an apply conflict that change the manifest (the third
// is to force): drop the field so that the applier stops claiming it, or
// adopt the live value so that the applier shares ownership with the owner.
// Edits keep the rest of the document (comments, order) as written.

import { parseDocument } from 'yaml';
import { resolvePath, type PathElement } from './field-path';

/** The manifest without the conflicting fields. */
export function dropFields(manifest: string, fields: ReadonlyArray<readonly PathElement[]>): string {
  const document = parseDocument(manifest);
  const value = document.toJS() as unknown;
  // Resolve every path before deleting, so that list positions stay valid;
  // delete deepest and highest positions first.
  const paths = fields
    .map((elements) => resolvePath(value, elements))
    .filter((p): p is NonNullable<typeof p> => p !== null)
    .sort((a, b) => compareForDeletion(a, b));
  for (const path of paths) {
    document.deleteIn(path as Array<string | number>);
    pruneEmptyParents(document, path.slice(0, -1));
  }
  return document.toString({ lineWidth: 0 });
}

function compareForDeletion(a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    if (typeof a[i] === 'number' && typeof b[i] === 'number') return (b[i] as number) - (a[i] as number);
    return 0;
  }
  return b.length - a.length;
}

/** A map left empty by a deletion is removed too (an applier claiming `{}` would keep owning it). */
function pruneEmptyParents(document: ReturnType<typeof parseDocument>, path: ReadonlyArray<string | number>): void {
  for (let depth = path.length; depth > 0; depth--) {
    const parentPath = path.slice(0, depth) as Array<string | number>;
    const node = document.getIn(parentPath) as unknown;
    const js = node && typeof node === 'object' && 'toJSON' in node ? (node as { toJSON(): unknown }).toJSON() : node;
    const empty = js && typeof js === 'object' && Object.keys(js as object).length === 0;
    if (!empty) return;
    document.deleteIn(parentPath);
  }
}

/** The manifest with each conflicting field set to the live object's value. */
export function adoptLiveValues(manifest: string, live: unknown, fields: ReadonlyArray<readonly PathElement[]>): string {
  const document = parseDocument(manifest);
  const value = document.toJS() as unknown;
  for (const elements of fields) {
    const livePath = resolvePath(live, elements);
    const ownPath = resolvePath(value, elements);
    if (!livePath || !ownPath) continue;
    let liveValue: unknown = live;
    for (const step of livePath) liveValue = (liveValue as Record<string | number, unknown> | undefined)?.[step];
    if (liveValue === undefined) document.deleteIn(ownPath as Array<string | number>);
    else document.setIn(ownPath as Array<string | number>, document.createNode(liveValue));
  }
  return document.toString({ lineWidth: 0 });
}
