// Decoding a JSON request body with the error texts of Go's encoding/json,
// which is what kube-apiserver prints in its 400s ("invalid character 'x'
// looking for beginning of value", "unexpected end of JSON input"). The
// bytes are checked by a small scanner that follows Go's (same states, same
// messages, the same quirk of reporting an unfinished number or literal at
// the end as "invalid character ' ' …"); the value itself comes from
// JSON.parse. The scanner also records duplicate keys with the paths
// sigs.k8s.io/json prints in strict mode (`spec.containers[0].name`).

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    /** Byte offset Go reports (SyntaxError.Offset). */
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export interface DecodedJson {
  readonly value: unknown;
  /** Field paths that occur more than once in an object, in document order. */
  readonly duplicateFields: readonly string[];
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Go's quoteChar: the offending byte as Go prints it (a byte, shown as the rune U+00XX). */
export function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const named: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\' };
  if (named[c]) return `'${named[c]}'`;
  // strconv.Quote of U+0000..U+00FF: controls and the non-printing Latin-1 runes are escaped.
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

/**
 * How deep objects and arrays may nest. Go's scanner stops at 10,000 ("exceeded
 * max depth"); KubeTab stops at 1,000 with the same message, because everything
 * after decoding (pruning, defaulting, validation, field management) walks the
 * value recursively and must not run out of stack on a client's input. No
 * Kubernetes object nests anywhere near this deep.
 */
export const MAX_NESTING_DEPTH = 1000;

class Scanner {
  private i = 0;
  private depth = 0;
  /** Path segments for duplicate-key reports. */
  private readonly path: string[] = [];
  readonly duplicates: string[] = [];

  constructor(private readonly b: Uint8Array) {}

  private fail(c: number, context: string): never {
    throw new JsonSyntaxError(`invalid character ${quoteChar(c)} ${context}`, this.i + 1);
  }

  /**
   * At the end of the input Go feeds one space to the current state: an
   * unfinished number, literal or escape then fails on ' ', anything else is
   * "unexpected end of JSON input".
   */
  private endOfInput(context?: string): never {
    if (context) throw new JsonSyntaxError(`invalid character ' ' ${context}`, this.b.length);
    throw new JsonSyntaxError('unexpected end of JSON input', this.b.length);
  }

  private peek(): number | undefined {
    return this.i < this.b.length ? this.b[this.i] : undefined;
  }

  private skipSpace(): number | undefined {
    while (this.i < this.b.length && isSpace(this.b[this.i]!)) this.i++;
    return this.peek();
  }

  scanTop(): void {
    this.value();
    const c = this.skipSpace();
    if (c !== undefined) this.fail(c, 'after top-level value');
  }

  private value(): void {
    const c = this.skipSpace();
    if (c === undefined) this.endOfInput();
    switch (c) {
      case 0x7b:
        return this.object();
      case 0x5b:
        return this.array();
      case 0x22:
        this.string();
        return;
      case 0x74:
        return this.literal('true');
      case 0x66:
        return this.literal('false');
      case 0x6e:
        return this.literal('null');
    }
    if (c === 0x2d || isDigit(c)) return this.number();
    this.fail(c, 'looking for beginning of value');
  }

  private nest(c: number): void {
    if (++this.depth > MAX_NESTING_DEPTH) this.fail(c, 'exceeded max depth');
  }

  private object(): void {
    this.nest(0x7b);
    try {
      this.objectBody();
    } finally {
      this.depth--;
    }
  }

  private objectBody(): void {
    this.i++; // {
    let c = this.skipSpace();
    if (c === undefined) this.endOfInput();
    if (c === 0x7d) {
      this.i++;
      return;
    }
    const seen = new Set<string>();
    for (;;) {
      if (c !== 0x22) this.fail(c, 'looking for beginning of object key string');
      const key = this.string();
      if (seen.has(key)) this.duplicates.push(this.path.length ? `${this.path.join('')}.${key}` : key);
      seen.add(key);
      c = this.skipSpace();
      if (c === undefined) this.endOfInput();
      if (c !== 0x3a) this.fail(c, 'after object key');
      this.i++;
      this.path.push(this.path.length ? `.${key}` : key);
      this.value();
      this.path.pop();
      c = this.skipSpace();
      if (c === undefined) this.endOfInput();
      if (c === 0x7d) {
        this.i++;
        return;
      }
      if (c !== 0x2c) this.fail(c, 'after object key:value pair');
      this.i++;
      c = this.skipSpace();
      if (c === undefined) this.endOfInput();
    }
  }

  private array(): void {
    this.nest(0x5b);
    try {
      this.arrayBody();
    } finally {
      this.depth--;
    }
  }

  private arrayBody(): void {
    this.i++; // [
    let c = this.skipSpace();
    if (c === undefined) this.endOfInput();
    if (c === 0x5d) {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.path.push(`[${index}]`);
      this.value();
      this.path.pop();
      c = this.skipSpace();
      if (c === undefined) this.endOfInput();
      if (c === 0x5d) {
        this.i++;
        return;
      }
      if (c !== 0x2c) this.fail(c, 'after array element');
      this.i++;
    }
  }

  /** Scans a string literal and returns its decoded text (used for keys). */
  private string(): string {
    const start = this.i;
    this.i++; // "
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.endOfInput();
      if (c === 0x22) {
        this.i++;
        break;
      }
      if (c === 0x5c) {
        this.i++;
        const e = this.peek();
        if (e === undefined) this.endOfInput('in string escape code');
        if (e === 0x75) {
          this.i++;
          for (let k = 0; k < 4; k++) {
            const h = this.peek();
            if (h === undefined) this.endOfInput('in \\u hexadecimal character escape');
            if (!isHex(h)) this.fail(h, 'in \\u hexadecimal character escape');
            this.i++;
          }
          continue;
        }
        if (![0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74].includes(e)) this.fail(e, 'in string escape code');
        this.i++;
        continue;
      }
      if (c < 0x20) this.fail(c, 'in string literal');
      this.i++;
    }
    return JSON.parse(new TextDecoder().decode(this.b.subarray(start, this.i))) as string;
  }

  private literal(word: 'true' | 'false' | 'null'): void {
    this.i++;
    for (let k = 1; k < word.length; k++) {
      const expected = word.charCodeAt(k);
      const context = `in literal ${word} (expecting '${word[k]}')`;
      const c = this.peek();
      if (c === undefined) this.endOfInput(context);
      if (c !== expected) this.fail(c, context);
      this.i++;
    }
  }

  private number(): void {
    let c = this.peek()!;
    if (c === 0x2d) {
      this.i++;
      const d = this.peek();
      if (d === undefined) this.endOfInput('in numeric literal');
      if (!isDigit(d)) this.fail(d, 'in numeric literal');
      c = d;
    }
    this.i++;
    if (c !== 0x30) while (this.peek() !== undefined && isDigit(this.peek()!)) this.i++;
    if (this.peek() === 0x2e) {
      this.i++;
      const d = this.peek();
      if (d === undefined) this.endOfInput('after decimal point in numeric literal');
      if (!isDigit(d)) this.fail(d, 'after decimal point in numeric literal');
      while (this.peek() !== undefined && isDigit(this.peek()!)) this.i++;
    }
    const e = this.peek();
    if (e === 0x65 || e === 0x45) {
      this.i++;
      let d = this.peek();
      if (d === 0x2b || d === 0x2d) {
        this.i++;
        d = this.peek();
      }
      if (d === undefined) this.endOfInput('in exponent of numeric literal');
      if (!isDigit(d)) this.fail(d, 'in exponent of numeric literal');
      while (this.peek() !== undefined && isDigit(this.peek()!)) this.i++;
    }
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Go decodes an unpaired \ud800-style escape as U+FFFD; JSON.parse keeps the lone surrogate. */
function replaceLoneSurrogates(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\ufffd');
  if (Array.isArray(value)) return value.map(replaceLoneSurrogates);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k.replace(LONE_SURROGATE, '\ufffd')] = replaceLoneSurrogates(v);
    return out;
  }
  return value;
}

/** Checks `bytes` as Go's json.Unmarshal would, then decodes it. Throws JsonSyntaxError with Go's message. */
export function decodeJson(bytes: Uint8Array | string): DecodedJson {
  const b = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const scanner = new Scanner(b);
  scanner.scanTop();
  // Invalid UTF-8 becomes U+FFFD, as Go's decoder does inside strings.
  const text = new TextDecoder().decode(b);
  let value = JSON.parse(text) as unknown;
  if (/\\u[dD][89a-fA-F]/.test(text)) value = replaceLoneSurrogates(value);
  return { value, duplicateFields: scanner.duplicates };
}
