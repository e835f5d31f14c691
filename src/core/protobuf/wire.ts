// Protobuf wire format: a reader that fails the way gogo's generated
// Unmarshal code fails (same error texts), and a growable writer.

/** gogo's generated errors (ErrIntOverflowGenerated, ErrInvalidLengthGenerated, io.ErrUnexpectedEOF…). */
export const ERR_INT_OVERFLOW = 'proto: integer overflow';
export const ERR_INVALID_LENGTH = 'proto: negative length found during unmarshaling';
export const ERR_UNEXPECTED_EOF = 'unexpected EOF';
export const ERR_UNEXPECTED_END_OF_GROUP = 'proto: unexpected end of group';

/** A decode failure; its message is the text kube-apiserver would report. */
export class ProtoDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtoDecodeError';
  }
}

const TWO_POW_32 = 2 ** 32;

export class ProtoReader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /**
   * An unsigned varint of up to 64 bits: a number when it is exact as one
   * (below 2^53), else a bigint.
   */
  varint(): number | bigint {
    const { buf, end } = this;
    let pos = this.pos;
    // Fast path: up to 4 bytes (28 bits) with plain numbers.
    let result = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (pos >= end) throw new ProtoDecodeError(ERR_UNEXPECTED_EOF);
      const b = buf[pos++]!;
      result |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.pos = pos;
        return result;
      }
    }
    let big = BigInt(result);
    for (let shift = 28n; ; shift += 7n) {
      if (shift >= 64n) throw new ProtoDecodeError(ERR_INT_OVERFLOW);
      if (pos >= end) throw new ProtoDecodeError(ERR_UNEXPECTED_EOF);
      const b = buf[pos++]!;
      big |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    this.pos = pos;
    big = BigInt.asUintN(64, big);
    return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }

  /** A length for a length-delimited value, checked against the buffer like gogo does. */
  length(): number {
    const n = this.varint();
    // gogo converts to int: a value with the top bit set is negative.
    if (typeof n === 'bigint') {
      if (BigInt.asIntN(64, n) < 0n) throw new ProtoDecodeError(ERR_INVALID_LENGTH);
      throw new ProtoDecodeError(ERR_UNEXPECTED_EOF);
    }
    if (this.pos + n > this.end) throw new ProtoDecodeError(ERR_UNEXPECTED_EOF);
    return n;
  }

  /** The bytes of a length-delimited value (a view, not a copy). */
  bytes(): Uint8Array {
    const n = this.length();
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  fixed32(): DataView {
    if (this.pos + 4 > this.end) throw new ProtoDecodeError(ERR_UNEXPECTED_EOF);
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4);
    this.pos += 4;
    return view;
  }

  fixed64(): DataView {
    if (this.pos + 8 > this.end) throw new ProtoDecodeError(ERR_UNEXPECTED_EOF);
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view;
  }

  /** Skips a field of an unknown number, as gogo's skipGenerated does. */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.fixed64();
        return;
      case 2:
        this.bytes();
        return;
      case 5:
        this.fixed32();
        return;
      case 3: {
        // A group: skip fields up to its end-group tag.
        for (;;) {
          const tag = this.varint();
          const wt = Number(BigInt(tag) & 7n);
          if (wt === 4) return;
          this.skip(wt);
        }
      }
      case 4:
        throw new ProtoDecodeError(ERR_UNEXPECTED_END_OF_GROUP);
      default:
        throw new ProtoDecodeError(`proto: illegal wireType ${wireType}`);
    }
  }
}

/** A varint as a signed 64-bit value, as a number (exact below 2^53). */
export function toInt64(v: number | bigint): number {
  if (typeof v === 'number') return v;
  return Number(BigInt.asIntN(64, v));
}

/** A varint truncated to a signed 32-bit value, as Go's int32 conversion does. */
export function toInt32(v: number | bigint): number {
  if (typeof v === 'number') return v < 2 ** 31 ? v : Number(BigInt.asIntN(32, BigInt(v)));
  return Number(BigInt.asIntN(32, v));
}

export function toUint32(v: number | bigint): number {
  if (typeof v === 'number') return v < TWO_POW_32 ? v : Number(BigInt.asUintN(32, BigInt(v)));
  return Number(BigInt.asUintN(32, v));
}

export function toUint64(v: number | bigint): number {
  return typeof v === 'number' ? v : Number(v);
}

export function zigzag64(v: number | bigint): number {
  const b = BigInt(v);
  return Number((b >> 1n) ^ -(b & 1n));
}

/** A growable byte buffer with protobuf encoders. */
export class ProtoWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  /** An unsigned varint; a negative number is written as its 64-bit two's complement (10 bytes), like Go. */
  varint(value: number | bigint): this {
    if (typeof value === 'number' && value >= 0 && value < TWO_POW_32) {
      this.ensure(5);
      let v = value;
      while (v >= 0x80) {
        this.buf[this.len++] = (v & 0x7f) | 0x80;
        v = Math.floor(v / 128);
      }
      this.buf[this.len++] = v;
      return this;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    this.ensure(10);
    while (v >= 0x80n) {
      this.buf[this.len++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.len++] = Number(v);
    return this;
  }

  tag(fieldNumber: number, wireType: number): this {
    return this.varint(fieldNumber * 8 + wireType);
  }

  raw(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return this;
  }

  /** A length-delimited value. */
  lengthDelimited(bytes: Uint8Array): this {
    return this.varint(bytes.length).raw(bytes);
  }

  fixed32(fill: (view: DataView) => void): this {
    this.ensure(4);
    fill(new DataView(this.buf.buffer, this.len, 4));
    this.len += 4;
    return this;
  }

  fixed64(fill: (view: DataView) => void): this {
    this.ensure(8);
    fill(new DataView(this.buf.buffer, this.len, 8));
    this.len += 8;
    return this;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
