// A JSON reader that fails the way Go's encoding/json does.
//
// kube-apiserver decodes patch bodies with encoding/json (gopkg.in/evanphx/json-patch.v4)
// or its fork sigs.k8s.io/json, and returns their error text to the client
// ("invalid character 'x' looking for beginning of value", "unexpected end of
// JSON input", "json: cannot unmarshal array into Go value of type …"). JSON.parse
// has different wording and accepts a lone BOM, so patches are read here instead.
//
// Reading happens in two steps, like Go: the whole text is checked for syntax
// first (so a syntax error anywhere wins over a type error), then callers walk
// the tree to report type mismatches and "strict" problems (duplicate and unknown
// fields) in document order (see go-json-decode.ts).

import { goQuoteRune } from '../util/go/quote';
import { setOwn } from '../util/set-own';

/** A syntax error with encoding/json's message. */
export class GoJsonSyntaxError extends Error {
  override readonly name = 'GoJsonSyntaxError';
}

/**
 * A scalar kept with its source text. evanphx/json-patch compares scalars by
 * their compacted bytes (so `1.0` ≠ `1` and `"\u0061"` ≠ `"a"` in a `test`), and
 * Go reports an out-of-range number with its literal ("number 1e999").
 */
export class RawScalar {
  constructor(
    readonly raw: string,
    readonly value: string | number | boolean,
  ) {}
}

export interface GoJsonParseOptions {
  /** Wrap every string, number and boolean in a RawScalar. */
  keepRaw?: boolean;
}

/**
 * The limit on nesting. Go's encoding/json stops at 10,000; KubeTab at 1,000
 * (with Go's message), as for request bodies (negotiation/json-decode.ts): the
 * patch algorithms walk the tree recursively and must not run out of stack.
 */
const MAX_DEPTH = 1000;

/** Objects that had a repeated key: every [key, value] in document order (the object itself holds the last value). */
const repeatedEntries = new WeakMap<object, [string, unknown][]>();

/** The members of a parsed object as Go's decoder sees them: in document order, repeats included. */
export function objectEntries(obj: Record<string, unknown>): [string, unknown][] {
  return repeatedEntries.get(obj) ?? Object.entries(obj);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawScalar);
}

/** Parses JSON text; throws GoJsonSyntaxError with encoding/json's message. */
export function parseGoJson(text: string, options: GoJsonParseOptions = {}): unknown {
  return new Parser(text, options.keepRaw === true).parseDocument();
}

/** The first UTF-8 byte of the character at i: Go's scanner reports bytes, not characters. */
function byteAt(text: string, i: number): number {
  const cp = text.codePointAt(i)!;
  if (cp < 0x80) return cp;
  if (cp < 0x800) return 0xc0 | (cp >> 6);
  if (cp < 0x10000) return 0xe0 | (cp >> 12);
  return 0xf0 | (cp >> 18);
}

/** Go's quoteChar: a byte as a quoted character, e.g. 'x', '\n', '\'', 'Ã'. */
export function goQuoteChar(b: number): string {
  if (b === 0x27) return `'\\''`;
  if (b === 0x22) return `'"'`;
  return `'${goQuoteRune(b)}'`;
}

type Frame = { obj: Record<string, unknown>; key: string; entries: [string, unknown][] | undefined } | { arr: unknown[] };

class Parser {
  private i = 0;
  private depth = 0;

  constructor(
    private readonly s: string,
    private readonly keepRaw: boolean,
  ) {}

  /**
   * Reads the document with an explicit stack (Go accepts 10000 levels, more
   * than a JS call stack may hold).
   */
  parseDocument(): unknown {
    const s = this.s;
    const stack: Frame[] = [];
    let value: unknown;
    for (;;) {
      // A value starts here.
      this.skipSpace();
      const c = s.charCodeAt(this.i);
      if (c === 0x7b /* { */) {
        this.enter();
        this.i++;
        this.skipSpace();
        if (s.charCodeAt(this.i) === 0x7d /* } */) {
          this.i++;
          this.depth--;
          value = {};
        } else {
          stack.push({ obj: {}, key: this.readKey(), entries: undefined });
          continue;
        }
      } else if (c === 0x5b /* [ */) {
        this.enter();
        this.i++;
        this.skipSpace();
        if (s.charCodeAt(this.i) === 0x5d /* ] */) {
          this.i++;
          this.depth--;
          value = [];
        } else {
          stack.push({ arr: [] });
          continue;
        }
      } else {
        value = this.parseScalar(c);
      }
      // A value ended: hand it to its container, closing containers that end too.
      for (;;) {
        const top = stack[stack.length - 1];
        if (!top) {
          this.skipSpace();
          if (this.i < s.length) this.fail('after top-level value');
          return value;
        }
        this.skipSpace();
        const d = s.charCodeAt(this.i);
        if ('arr' in top) {
          top.arr.push(value);
          if (d === 0x2c /* , */) {
            this.i++;
            break;
          }
          if (d !== 0x5d /* ] */) this.fail('after array element');
          value = top.arr;
        } else {
          const { obj, key } = top;
          if (top.entries) top.entries.push([key, value]);
          else if (Object.prototype.hasOwnProperty.call(obj, key)) {
            // Only objects with a repeated key remember every member (Go reports them).
            top.entries = Object.entries(obj);
            top.entries.push([key, value]);
          }
          setOwn(obj, key, value);
          if (d === 0x2c) {
            this.i++;
            top.key = this.readKey();
            break;
          }
          if (d !== 0x7d) this.fail('after object key:value pair');
          if (top.entries) repeatedEntries.set(obj, top.entries);
          value = obj;
        }
        this.i++;
        this.depth--;
        stack.pop();
      }
    }
  }

  private fail(context: string): never {
    if (this.i >= this.s.length) throw new GoJsonSyntaxError('unexpected end of JSON input');
    throw new GoJsonSyntaxError(`invalid character ${goQuoteChar(byteAt(this.s, this.i))} ${context}`);
  }

  private skipSpace(): void {
    const s = this.s;
    let i = this.i;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail('exceeded max depth');
  }

  /** An object key and its colon. */
  private readKey(): string {
    this.skipSpace();
    if (this.s.charCodeAt(this.i) !== 0x22) this.fail('looking for beginning of object key string');
    const key = this.parseString();
    this.skipSpace();
    if (this.s.charCodeAt(this.i) !== 0x3a /* : */) this.fail('after object key');
    this.i++;
    return key;
  }

  private parseScalar(c: number): unknown {
    switch (c) {
      case 0x22 /* " */: {
        const start = this.i;
        const str = this.parseString();
        return this.keepRaw ? new RawScalar(this.s.slice(start, this.i), str) : str;
      }
      case 0x74 /* t */:
        this.literal('true');
        return this.keepRaw ? new RawScalar('true', true) : true;
      case 0x66 /* f */:
        this.literal('false');
        return this.keepRaw ? new RawScalar('false', false) : false;
      case 0x6e /* n */:
        this.literal('null');
        return null;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        return this.fail('looking for beginning of value');
    }
  }

  private literal(word: string): void {
    // The first letter is already known to match.
    for (let k = 1; k < word.length; k++) {
      this.i++;
      if (this.s[this.i] !== word[k]) this.fail(`in literal ${word} (expecting '${word[k]}')`);
    }
    this.i++;
  }

  private isDigit(i: number): boolean {
    const c = this.s.charCodeAt(i);
    return c >= 0x30 && c <= 0x39;
  }

  private parseNumber(): unknown {
    const s = this.s;
    const start = this.i;
    if (s.charCodeAt(this.i) === 0x2d) {
      this.i++;
      if (!this.isDigit(this.i)) this.fail('in numeric literal');
    }
    if (s.charCodeAt(this.i) === 0x30) this.i++;
    else while (this.isDigit(this.i)) this.i++;
    if (s.charCodeAt(this.i) === 0x2e /* . */) {
      this.i++;
      if (!this.isDigit(this.i)) this.fail('after decimal point in numeric literal');
      while (this.isDigit(this.i)) this.i++;
    }
    const e = s.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = s.charCodeAt(this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      if (!this.isDigit(this.i)) this.fail('in exponent of numeric literal');
      while (this.isDigit(this.i)) this.i++;
    }
    const raw = s.slice(start, this.i);
    const value = Number(raw);
    // Go cannot hold it either: keep the literal for "cannot unmarshal number <raw>".
    if (this.keepRaw || !Number.isFinite(value)) return new RawScalar(raw, value);
    return value;
  }

  /** Reads a string at this.i (on the opening quote); decodes escapes as Go does. */
  private parseString(): string {
    const s = this.s;
    this.i++;
    let out = '';
    let runStart = this.i;
    for (;;) {
      if (this.i >= s.length) this.fail('in string literal');
      const c = s.charCodeAt(this.i);
      if (c === 0x22) {
        out += s.slice(runStart, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail('in string literal');
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += s.slice(runStart, this.i);
      this.i++;
      if (this.i >= s.length) this.fail('in string escape code');
      const e = s[this.i];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const r = this.readHex4();
          if (r >= 0xd800 && r <= 0xdfff) {
            // A surrogate needs its partner right after; otherwise Go writes U+FFFD.
            const low = s.startsWith('\\u', this.i + 1) ? this.peekHex4(this.i + 3) : -1;
            if (r < 0xdc00 && low >= 0xdc00 && low <= 0xdfff) {
              out += String.fromCharCode(r, low);
              this.i += 6;
            } else out += '\ufffd';
          } else out += String.fromCharCode(r);
          break;
        }
        default:
          this.fail('in string escape code');
      }
      this.i++;
      runStart = this.i;
    }
  }

  /** At the 'u' of \uXXXX: reads four hex digits, leaving this.i on the last one. */
  private readHex4(): number {
    let r = 0;
    for (let k = 0; k < 4; k++) {
      this.i++;
      if (this.i >= this.s.length) this.fail('in \\u hexadecimal character escape');
      const d = hexValue(this.s.charCodeAt(this.i));
      if (d < 0) this.fail('in \\u hexadecimal character escape');
      r = r * 16 + d;
    }
    return r;
  }

  private peekHex4(at: number): number {
    let r = 0;
    for (let k = 0; k < 4; k++) {
      const d = hexValue(this.s.charCodeAt(at + k));
      if (d < 0) return -1;
      r = r * 16 + d;
    }
    return r;
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Replaces RawScalars by their values (in place where possible); returns the plain JSON value. */
export function unwrapRaw(value: unknown): unknown {
  if (value instanceof RawScalar) return value.value;
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) value[k] = unwrapRaw(value[k]);
    return value;
  }
  if (isPlainObject(value)) {
    for (const key of Object.keys(value)) value[key] = unwrapRaw(value[key]);
    return value;
  }
  return value;
}
