// The JSONPath of additionalPrinterColumns, evaluated as client-go's jsonpath
// package does for a CRD's table convertor (the column's path wrapped in
// `{…}`, missing keys allowed): fields (`.a.b`, `['a.b']`), indices and
// slices (`[0]`, `[-1]`, `[1:3]`), wildcards (`[*]`, `.*`), recursive
// descent (`..name`) and filters (`[?(@.type=="Ready")]`). A CRD's printer
// columns use a small part of that language; the rest is refused as a parse
// error, which makes the column fall back as kube does.

export type Segment =
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'recursive'; name: string | '*' }
  | { kind: 'index'; index: number }
  | { kind: 'slice'; start?: number; end?: number; step?: number }
  | { kind: 'filter'; left: Operand; op?: string; right?: Operand };

type Operand = { path: Segment[] } | { literal: unknown };

export class JsonPathError extends Error {}

const FIELD_CHAR = /[A-Za-z0-9_\-/$]/;

/** Parses a column path (without the surrounding braces). */
export function parseJsonPath(text: string): Segment[] {
  const src = text.trim();
  let i = 0;
  const segments: Segment[] = [];
  const fail = (why: string): never => {
    throw new JsonPathError(`unrecognized column definition ${JSON.stringify(text)}: ${why}`);
  };
  const readName = (): string => {
    let name = '';
    while (i < src.length && (FIELD_CHAR.test(src[i]!) || src.charCodeAt(i) > 127)) name += src[i++];
    return name;
  };
  if (src.startsWith('$')) i = 1;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '.') {
      if (src[i + 1] === '.') {
        i += 2;
        if (src[i] === '*') {
          i++;
          segments.push({ kind: 'recursive', name: '*' });
        } else {
          const name = readName();
          if (!name) fail('empty recursive descent');
          segments.push({ kind: 'recursive', name });
        }
        continue;
      }
      i++;
      if (src[i] === '*') {
        i++;
        segments.push({ kind: 'wildcard' });
        continue;
      }
      const name = readName();
      // A bare "." (the whole object) is allowed.
      if (name) segments.push({ kind: 'field', name });
      continue;
    }
    if (c === '[') {
      const close = matchingBracket(src, i);
      if (close === -1) fail('unclosed [');
      segments.push(parseBracket(src.slice(i + 1, close), fail));
      i = close + 1;
      continue;
    }
    fail(`unexpected ${JSON.stringify(c)}`);
  }
  return segments;
}

function matchingBracket(src: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let j = open; j < src.length; j++) {
    const c = src[j]!;
    if (quote) {
      if (c === '\\') j++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return j;
  }
  return -1;
}

function unquote(s: string): string | undefined {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === "'" || t[0] === '"') && t[t.length - 1] === t[0]) return t.slice(1, -1).replace(/\\(.)/g, '$1');
  return undefined;
}

function parseBracket(inner: string, fail: (why: string) => never): Segment {
  const body = inner.trim();
  if (body === '*') return { kind: 'wildcard' };
  const quoted = unquote(body);
  if (quoted !== undefined) return { kind: 'field', name: quoted };
  if (body.startsWith('?(') && body.endsWith(')')) return parseFilter(body.slice(2, -1), fail);
  if (/^-?\d+$/.test(body)) return { kind: 'index', index: Number(body) };
  const slice = /^(-?\d*):(-?\d*)(?::(-?\d*))?$/.exec(body);
  if (slice) {
    const n = (x: string | undefined) => (x === undefined || x === '' ? undefined : Number(x));
    return { kind: 'slice', start: n(slice[1]), end: n(slice[2]), step: n(slice[3]) };
  }
  return fail(`unsupported subscript [${inner}]`);
}

function parseOperand(text: string, fail: (why: string) => never): Operand {
  const t = text.trim();
  if (t.startsWith('@')) return { path: t === '@' ? [] : parseJsonPath(t.slice(1)) };
  const quoted = unquote(t);
  if (quoted !== undefined) return { literal: quoted };
  if (t === 'true' || t === 'false') return { literal: t === 'true' };
  if (t === 'nil' || t === 'null') return { literal: null };
  if (/^-?\d+(\.\d+)?$/.test(t)) return { literal: Number(t) };
  return fail(`unrecognized filter operand ${JSON.stringify(t)}`);
}

function parseFilter(expr: string, fail: (why: string) => never): Segment {
  const m = /^(.*?)\s*(==|!=|<=|>=|<|>|=~)\s*(.*)$/.exec(expr.trim());
  if (!m) return { kind: 'filter', left: parseOperand(expr, fail) };
  if (m[2] === '=~') fail('regular expression filters are not supported');
  return { kind: 'filter', left: parseOperand(m[1]!, fail), op: m[2]!, right: parseOperand(m[3]!, fail) };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function children(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return Object.keys(value).sort().map((k) => value[k]);
  return [];
}

function recurse(value: unknown, out: unknown[]): void {
  out.push(value);
  for (const child of children(value)) recurse(child, out);
}

function operandValues(op: Operand, item: unknown): unknown[] {
  if ('literal' in op) return [op.literal];
  return evaluate(op.path, item);
}

function compare(a: unknown, op: string, b: unknown): boolean {
  if (op === '==') return a === b || (typeof a === 'number' && typeof b === 'number' && a === b);
  if (op === '!=') return a !== b;
  if (typeof a !== 'number' || typeof b !== 'number') return false;
  return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
}

/** All values a path selects, in document order (maps by sorted key, as Go's reflection walks them). */
export function evaluate(segments: readonly Segment[], data: unknown): unknown[] {
  let current: unknown[] = [data];
  for (const seg of segments) {
    const next: unknown[] = [];
    for (const value of current) {
      switch (seg.kind) {
        case 'field':
          if (isObject(value) && Object.hasOwn(value, seg.name)) next.push(value[seg.name]);
          break;
        case 'wildcard':
          next.push(...children(value));
          break;
        case 'recursive': {
          const all: unknown[] = [];
          recurse(value, all);
          for (const v of all) {
            if (seg.name === '*') next.push(...children(v));
            else if (isObject(v) && Object.hasOwn(v, seg.name)) next.push(v[seg.name]);
          }
          break;
        }
        case 'index':
          if (Array.isArray(value)) {
            const i = seg.index < 0 ? value.length + seg.index : seg.index;
            if (i >= 0 && i < value.length) next.push(value[i]);
          }
          break;
        case 'slice':
          if (Array.isArray(value)) {
            const len = value.length;
            const clamp = (n: number) => Math.max(0, Math.min(len, n < 0 ? len + n : n));
            const start = clamp(seg.start ?? 0);
            const end = clamp(seg.end ?? len);
            const step = seg.step && seg.step > 0 ? seg.step : 1;
            for (let i = start; i < end; i += step) next.push(value[i]);
          }
          break;
        case 'filter':
          for (const item of children(value)) {
            const left = operandValues(seg.left, item);
            if (!seg.op) {
              if (left.length) next.push(item);
              continue;
            }
            const right = operandValues(seg.right!, item);
            if (left.length && right.length && compare(left[0], seg.op, right[0])) next.push(item);
          }
          break;
      }
    }
    current = next;
  }
  return current;
}

/** The first value a column path selects, or undefined when it selects nothing. */
export function firstResult(segments: readonly Segment[], data: unknown): unknown {
  const values = evaluate(segments, data);
  return values.length ? values[0] : undefined;
}
