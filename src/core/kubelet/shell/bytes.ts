// How the shell's text carries arbitrary bytes. Everything inside the shell
// (files, pipes, a process's stdin and stdout) is a JS string, yet a
// container's streams are bytes: `kubectl cp` sends a tar archive holding a
// binary file, and reads one back. The convention: a byte stream is the UTF-8
// encoding of its text, except that a byte which is not part of well-formed
// UTF-8 becomes one lone low surrogate, U+DC80 + (byte − 0x80) (as Python's
// "surrogateescape" does). Text stays ordinary text for every utility, and
// any bytes survive bytes → text → bytes unchanged.

const ESCAPE_BASE = 0xdc00;
/** A lone escape (not the second half of a surrogate pair). */
const LONE_ESCAPE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** How many bytes a well-formed sequence starting with `lead` has, with the allowed range of its second byte; 0 for a byte that cannot start one. */
function sequenceShape(lead: number): [length: number, low: number, high: number] | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  return undefined;
}

/** How many bytes of the well-formed sequence at `at` are present (its full length when complete), or 0 when it is not well-formed. */
function wellFormedPrefix(bytes: Uint8Array, at: number): { have: number; length: number } {
  const shape = sequenceShape(bytes[at]!);
  if (!shape) return { have: 0, length: 0 };
  const [length, low, high] = shape;
  let have = 1;
  for (; have < length && at + have < bytes.length; have++) {
    const b = bytes[at + have]!;
    const [min, max] = have === 1 ? [low, high] : [0x80, 0xbf];
    if (b < min || b > max) return { have: 0, length: 0 };
  }
  return { have, length };
}

function decodeLoosely(bytes: Uint8Array): string {
  const units: number[] = [];
  let text = '';
  const flush = () => {
    text += String.fromCharCode(...units);
    units.length = 0;
  };
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      units.push(b);
      i++;
    } else {
      const { have, length } = wellFormedPrefix(bytes, i);
      if (have > 0 && have === length) {
        let cp = b & (0xff >> (length + 1));
        for (let k = 1; k < length; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
        if (cp >= 0x10000) units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
        else units.push(cp);
        i += length;
      } else {
        units.push(ESCAPE_BASE + b);
        i++;
      }
    }
    if (units.length >= 8192) flush();
  }
  flush();
  return text;
}

/** The text for a byte stream (complete: a sequence cut at the end is escaped byte by byte). */
export function bytesToText(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return decodeLoosely(bytes);
  }
}

/** The bytes a text stands for (the inverse of bytesToText). */
export function textToBytes(text: string): Uint8Array {
  if (!LONE_ESCAPE.test(text)) return encoder.encode(text);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc80 || unit > 0xdcff) continue;
    const previous = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (previous >= 0xd800 && previous <= 0xdbff) continue;
    parts.push(encoder.encode(text.slice(start, i)), Uint8Array.of(unit - ESCAPE_BASE));
    start = i + 1;
  }
  parts.push(encoder.encode(text.slice(start)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** How many bytes a text stands for (what `wc -c` and `ls -l` count). */
export function byteLength(text: string): number {
  return textToBytes(text).length;
}

/**
 * Decodes a byte stream that arrives in chunks (an exec's stdin): a UTF-8
 * sequence split between two chunks is held until its rest comes.
 */
export class ByteStreamDecoder {
  private pending = new Uint8Array(0);

  /** The text for a chunk; `null` (the stream's end) gives what was held back. */
  decode(chunk: Uint8Array | null): string {
    if (chunk === null) {
      const rest = this.pending;
      this.pending = new Uint8Array(0);
      return bytesToText(rest);
    }
    const bytes = this.pending.length ? concat(this.pending, chunk) : chunk;
    const keep = incompleteTail(bytes);
    this.pending = bytes.slice(bytes.length - keep);
    return bytesToText(bytes.subarray(0, bytes.length - keep));
  }
}

/** How many bytes at the end begin a well-formed sequence that is not complete yet. */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const at = bytes.length - back;
    if (bytes[at]! < 0xc0) continue;
    const { have, length } = wellFormedPrefix(bytes, at);
    return have > 0 && have < length ? back : 0;
  }
  return 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
