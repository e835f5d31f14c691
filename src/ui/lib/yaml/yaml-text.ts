// YAML for people: objects shown as kubectl prints them (no line folding), and
// the documents of a buffer with their positions, for markers and edits.

import { isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, parseDocument, stringify, type Document, type Node, type ParsedNode } from 'yaml';

export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

export interface BufferDocument {
  /** 0-based position among the buffer's non-empty documents. */
  readonly index: number;
  /** Offsets of the document's text in the buffer ('---' included). */
  readonly start: number;
  readonly end: number;
  /** Where its content (after '---' and leading comments) starts. */
  readonly bodyStart: number;
  readonly document: Document.Parsed;
  /** The document as a JS value (null when empty). */
  readonly value: unknown;
  readonly errors: readonly string[];
}

/** Splits a buffer into its non-empty documents. */
export function parseBuffer(text: string): BufferDocument[] {
  const docs = parseAllDocuments(text, { uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [];
  const out: BufferDocument[] = [];
  for (const document of list) {
    if (document.contents === null || (isScalar(document.contents) && document.contents.value === null)) continue;
    const [start, , end] = document.range;
    out.push({
      index: out.length,
      start,
      end,
      bodyStart: (document.contents as ParsedNode).range[0],
      document,
      value: document.errors.length ? null : document.toJS({ maxAliasCount: 100 }),
      errors: document.errors.map((e) => e.message),
    });
  }
  return out;
}

/** Where a path is written in a document: the pair (key and value) or the list item. */
export interface PathRange {
  readonly start: number;
  readonly end: number;
  /** True when the whole path was found; false: the deepest ancestor found. */
  readonly exact: boolean;
}

export function rangeOfPath(document: Document.Parsed, path: ReadonlyArray<string | number>): PathRange | null {
  let node: ParsedNode | null = document.contents;
  let range: [number, number] | null = node?.range ? [node.range[0], node.range[1]] : null;
  for (let depth = 0; depth < path.length; depth++) {
    const step = path[depth]!;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
      if (!pair) return range && { start: range[0], end: range[1], exact: false };
      const key = pair.key as ParsedNode;
      const value = pair.value as ParsedNode | null;
      range = [key.range[0], value?.range ? value.range[1] : key.range[1]];
      node = value;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step] as ParsedNode | undefined;
      if (!item) return range && { start: range[0], end: range[1], exact: false };
      range = [item.range[0], item.range[1]];
      node = item;
    } else {
      return range && { start: range[0], end: range[1], exact: false };
    }
  }
  return range && { start: range[0], end: range[1], exact: true };
}

/**
 * Each path that starts on a line (1-based line → paths), for YAML produced
 * by toYaml(). A map entry starts at its key; a list item at its dash.
 */
export function pathsByLine(text: string): Map<number, Array<ReadonlyArray<string | number>>> {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const byLine = new Map<number, Array<ReadonlyArray<string | number>>>();
  const add = (offset: number, path: ReadonlyArray<string | number>) => {
    const line = lineCounter.linePos(offset).line;
    const list = byLine.get(line) ?? [];
    list.push(path);
    byLine.set(line, list);
  };
  const walk = (node: unknown, path: Array<string | number>) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const childPath = [...path, String(pair.key.value)];
        const key = pair.key as Node & { range?: [number, number, number] };
        if (key.range) add(key.range[0], childPath);
        walk(pair.value, childPath);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const childPath = [...path, i];
        const itemNode = item as Node & { range?: [number, number, number] };
        if (itemNode.range) add(itemNode.range[0], childPath);
        walk(item, childPath);
      });
    }
  };
  walk(document.contents, []);
  return byLine;
}

/**
 * A field path of a validation error (`spec.containers[0].image`,
 * `metadata.labels[app]`, `data[key]`) as a concrete path.
 */
export function parseErrorField(field: string): Array<string | number> {
  const path: Array<string | number> = [];
  const pattern = /([^.[\]]+)|\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(field))) {
    if (match[1] !== undefined) path.push(match[1]);
    else if (/^\d+$/.test(match[2]!)) path.push(Number(match[2]));
    else path.push(match[2]!);
  }
  return path;
}
