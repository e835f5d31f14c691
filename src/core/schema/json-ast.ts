// A JSON syntax tree that keeps what JSON.parse throws away: every key of an
// object in document order, duplicates included, and the literal text of
// numbers. kube-apiserver's decoder (sigs.k8s.io/json) reports duplicate
// fields and tells `1` from `1.0` when decoding into an integer, so the
// field-validation and type-check walkers read this tree, not a parsed value.

export type JsonAst =
  | { readonly kind: 'object'; readonly entries: readonly JsonEntry[] }
  | { readonly kind: 'array'; readonly items: readonly JsonAst[] }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly text: string; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'null' };

export interface JsonEntry {
  readonly key: string;
  readonly value: JsonAst;
}

/** Parses JSON text (RFC 8259) into a tree. Throws SyntaxError on malformed input. */
export function parseJsonAst(text: string): JsonAst {
  const scanner = new Scanner(text);
  scanner.skipSpace();
  const value = scanner.value(0);
  scanner.skipSpace();
  if (scanner.pos < text.length) scanner.fail('unexpected data after top-level value');
  return value;
}

/**
 * The tree of an already parsed value. `sortKeys` orders object keys as Go's
 * encoding/json writes a map: that is the order kube-apiserver decodes a YAML
 * body in, after converting it to JSON.
 */
export function astFromValue(value: unknown, sortKeys = false): JsonAst {
  if (value === null || value === undefined) return { kind: 'null' };
  switch (typeof value) {
    case 'string':
      return { kind: 'string', value };
    case 'number':
      return { kind: 'number', text: String(value), value };
    case 'bigint':
      return { kind: 'number', text: value.toString(), value: Number(value) };
    case 'boolean':
      return { kind: 'boolean', value };
    default:
      break;
  }
  if (Array.isArray(value)) return { kind: 'array', items: value.map((v) => astFromValue(v, sortKeys)) };
  const keys = Object.keys(value as object);
  if (sortKeys) keys.sort(compareGoStrings);
  return { kind: 'object', entries: keys.map((key) => ({ key, value: astFromValue((value as Record<string, unknown>)[key], sortKeys) })) };
}

/** The value JSON.parse would produce (the last of duplicate keys wins). */
export function astToValue(ast: JsonAst): unknown {
  switch (ast.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const { key, value } of ast.entries) out[key] = astToValue(value);
      return out;
    }
    case 'array':
      return ast.items.map(astToValue);
    case 'null':
      return null;
    default:
      return ast.value;
  }
}

/** Byte-wise order of UTF-8 strings, as Go's sort.Strings orders them. */
export function compareGoStrings(a: string, b: string): number {
  // UTF-16 code unit order equals UTF-8 byte order except around surrogates;
  // comparing code points fixes that.
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

const MAX_DEPTH = 10000;

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new SyntaxError(`${message} at offset ${this.pos}`);
  }

  skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else break;
    }
  }

  value(depth: number): JsonAst {
    if (depth > MAX_DEPTH) this.fail('exceeded max depth');
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case '"':
        return { kind: 'string', value: this.string() };
      case 't':
        return this.literal('true', { kind: 'boolean', value: true });
      case 'f':
        return this.literal('false', { kind: 'boolean', value: false });
      case 'n':
        return this.literal('null', { kind: 'null' });
      default:
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
        return this.fail(c === undefined ? 'unexpected end of JSON input' : `invalid character ${JSON.stringify(c)}`);
    }
  }

  private literal<T extends JsonAst>(word: string, node: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return node;
    }
    return this.fail(`invalid literal`);
  }

  private number(): JsonAst {
    const match = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    match.lastIndex = this.pos;
    const m = match.exec(this.text);
    if (!m) return this.fail('invalid number');
    this.pos += m[0].length;
    return { kind: 'number', text: m[0], value: Number(m[0]) };
  }

  private string(): string {
    const t = this.text;
    let i = this.pos + 1;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= t.length) {
        this.pos = i;
        this.fail('unexpected end of JSON input');
      }
      const c = t.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) {
        this.pos = i;
        this.fail('invalid character in string literal');
      }
      if (c === 0x5c) {
        out += t.slice(start, i);
        const e = t[i + 1];
        switch (e) {
          case '"':
          case '\\':
          case '/':
            out += e;
            i += 2;
            break;
          case 'b':
            out += '\b';
            i += 2;
            break;
          case 'f':
            out += '\f';
            i += 2;
            break;
          case 'n':
            out += '\n';
            i += 2;
            break;
          case 'r':
            out += '\r';
            i += 2;
            break;
          case 't':
            out += '\t';
            i += 2;
            break;
          case 'u': {
            const hex = t.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              this.pos = i;
              this.fail('invalid escape');
            }
            out += String.fromCharCode(parseInt(hex, 16));
            i += 6;
            break;
          }
          default:
            this.pos = i;
            this.fail('invalid escape');
        }
        start = i;
        continue;
      }
      i++;
    }
    out += t.slice(start, i);
    this.pos = i + 1;
    return out;
  }

  private object(depth: number): JsonAst {
    this.pos++;
    const entries: JsonEntry[] = [];
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { kind: 'object', entries };
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail('expected object key');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail("expected ':' after object key");
      this.pos++;
      this.skipSpace();
      entries.push({ key, value: this.value(depth + 1) });
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === '}') {
        this.pos++;
        return { kind: 'object', entries };
      }
      this.fail("expected ',' or '}' after object value");
    }
  }

  private array(depth: number): JsonAst {
    this.pos++;
    const items: JsonAst[] = [];
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { kind: 'array', items };
    }
    for (;;) {
      this.skipSpace();
      items.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === ']') {
        this.pos++;
        return { kind: 'array', items };
      }
      this.fail("expected ',' or ']' after array element");
    }
  }
}
