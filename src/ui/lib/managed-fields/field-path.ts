// Field paths as structured-merge-diff writes them, decoded on the client.
// Two spellings reach the UI:
// - keys of a fieldsV1 tree: `f:name`, `k:{"name":"nginx"}`, `v:"a"`, `i:3`;
// - path strings in conflict causes: `.spec.containers[name="nginx"].image`,
//   `[=value]` for a set member, `[3]` for a position.
// resolvePath() turns either into the concrete JS path into an object
// (property names and array indices).

export type PathElement =
  | { readonly field: string }
  | { readonly key: Readonly<Record<string, unknown>> }
  | { readonly value: unknown }
  | { readonly index: number };

export type ConcretePath = ReadonlyArray<string | number>;

/** Decodes one fieldsV1 key (not '.'). Returns null for a key it does not know. */
export function parseFieldsV1Key(key: string): PathElement | null {
  const kind = key.slice(0, 2);
  const rest = key.slice(2);
  try {
    switch (kind) {
      case 'f:':
        return { field: rest };
      case 'k:':
        return { key: JSON.parse(rest) as Record<string, unknown> };
      case 'v:':
        return { value: JSON.parse(rest) as unknown };
      case 'i:':
        return { index: Number(rest) };
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/**
 * Parses a path string of a conflict cause. Field names run to the next '.'
 * or '['; bracket contents are JSON values, so quoted strings may hold ']'.
 */
export function parsePathString(text: string): PathElement[] {
  const elements: PathElement[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (char === '.') {
      let end = at + 1;
      while (end < text.length && text[end] !== '.' && text[end] !== '[') end++;
      elements.push({ field: text.slice(at + 1, end) });
      at = end;
    } else if (char === '[') {
      const end = closingBracket(text, at);
      const inner = text.slice(at + 1, end);
      elements.push(parseBracket(inner));
      at = end + 1;
    } else {
      throw new Error(`unexpected "${char}" at ${at} in field path ${text}`);
    }
  }
  return elements;
}

function closingBracket(text: string, open: number): number {
  let inString = false;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ']') return i;
  }
  throw new Error(`unclosed "[" in field path ${text}`);
}

function parseBracket(inner: string): PathElement {
  if (inner.startsWith('=')) return { value: JSON.parse(inner.slice(1)) as unknown };
  if (/^\d+$/.test(inner)) return { index: Number(inner) };
  // name="nginx",protocol="TCP": split on commas outside strings.
  const key: Record<string, unknown> = {};
  let start = 0;
  let inString = false;
  for (let i = 0; i <= inner.length; i++) {
    const c = inner[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === ',' || i === inner.length) {
      const part = inner.slice(start, i);
      const eq = part.indexOf('=');
      if (eq < 0) throw new Error(`bad key "${part}" in field path`);
      key[part.slice(0, eq)] = JSON.parse(part.slice(eq + 1)) as unknown;
      start = i + 1;
    }
  }
  return { key };
}

/** Renders elements back in the path-string spelling (for display). */
export function formatPath(elements: readonly PathElement[]): string {
  return elements
    .map((e) => {
      if ('field' in e) return `.${e.field}`;
      if ('index' in e) return `[${e.index}]`;
      if ('value' in e) return `[=${JSON.stringify(e.value)}]`;
      return `[${Object.entries(e.key)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    })
    .join('');
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  return ak.length === bk.length && ak.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The concrete path of `elements` in `root`, or null where the object has no
 * such element (a list item that is not there). Fields are taken as written
 * even when absent, so the caller can still point at the parent.
 */
export function resolvePath(root: unknown, elements: readonly PathElement[]): ConcretePath | null {
  const path: Array<string | number> = [];
  let node: unknown = root;
  for (const element of elements) {
    if ('field' in element) {
      path.push(element.field);
      node = node && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)[element.field] : undefined;
      continue;
    }
    if (!Array.isArray(node)) return null;
    let index: number;
    if ('index' in element) index = element.index;
    else if ('value' in element) index = node.findIndex((item) => deepEqual(item, element.value));
    else
      index = node.findIndex(
        (item) => item && typeof item === 'object' && Object.entries(element.key).every(([k, v]) => deepEqual((item as Record<string, unknown>)[k], v)),
      );
    if (index < 0 || index >= node.length) return null;
    path.push(index);
    node = node[index];
  }
  return path;
}

export function pathKey(path: ConcretePath): string {
  return JSON.stringify(path);
}
