// SPDY/3.1 framing, the part of it kube's port-forward uses (client-go and
// the kubelet speak it through moby/spdystream): control frames SYN_STREAM,
// SYN_REPLY, RST_STREAM, SETTINGS, PING, GOAWAY, HEADERS, WINDOW_UPDATE, and
// data frames. Header blocks are zlib streams, one per direction for the
// whole connection, primed with the protocol's dictionary. Node's zlib reads
// the client's (with the dictionary); ours are written as stored deflate
// blocks, which every inflater reads and which need no dictionary.

import { inflateSync, constants as zlibConstants } from 'node:zlib';

export const SPDY_VERSION = 3;
export const SYN_STREAM = 1;
export const SYN_REPLY = 2;
export const RST_STREAM = 3;
export const SETTINGS = 4;
export const PING = 6;
export const GOAWAY = 7;
export const HEADERS = 8;
export const WINDOW_UPDATE = 9;
export const FLAG_FIN = 0x01;

/** RST_STREAM status codes. */
export const RST_PROTOCOL_ERROR = 1;
export const RST_CANCEL = 5;

const MAX_FRAME_LENGTH = 0xffffff;

/** The SPDY/3 header-compression dictionary: length-prefixed header words, then a run of common text. */
const DICTIONARY: Buffer = (() => {
  const words = [
    'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset', 'accept-encoding', 'accept-language',
    'accept-ranges', 'age', 'allow', 'authorization', 'cache-control', 'connection', 'content-base', 'content-encoding',
    'content-language', 'content-length', 'content-location', 'content-md5', 'content-range', 'content-type', 'date', 'etag',
    'expect', 'expires', 'from', 'host', 'if-match', 'if-modified-since', 'if-none-match', 'if-range', 'if-unmodified-since',
    'last-modified', 'location', 'max-forwards', 'pragma', 'proxy-authenticate', 'proxy-authorization', 'range', 'referer',
    'retry-after', 'server', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via', 'warning',
    'www-authenticate', 'method', 'get', 'status', '200 OK', 'version', 'HTTP/1.1', 'url', 'public', 'set-cookie', 'keep-alive',
    'origin',
  ];
  const tail =
    '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505' +
    '203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request401 Unauthorized' +
    '403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented503 Service Unavailable' +
    'Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT' +
    'chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,' +
    'text/javascript,publicprivatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.';
  const parts: Buffer[] = [];
  for (const word of words) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(word.length);
    parts.push(length, Buffer.from(word, 'latin1'));
  }
  parts.push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
})();

export type SpdyHeaders = Map<string, string[]>;

export type SpdyFrame =
  | { readonly kind: 'data'; readonly streamId: number; readonly flags: number; readonly data: Buffer }
  | { readonly kind: 'control'; readonly type: number; readonly flags: number; readonly data: Buffer };

/** Splits a byte stream into frames; keeps a partial frame until its rest arrives. */
export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);

  push(bytes: Uint8Array): SpdyFrame[] {
    this.buffer = this.buffer.byteLength ? Buffer.concat([this.buffer, bytes]) : Buffer.from(bytes);
    const frames: SpdyFrame[] = [];
    while (this.buffer.byteLength >= 8) {
      const length = this.buffer.readUIntBE(5, 3);
      if (this.buffer.byteLength < 8 + length) break;
      const flags = this.buffer[4]!;
      const data = this.buffer.subarray(8, 8 + length);
      if (this.buffer[0]! & 0x80) frames.push({ kind: 'control', type: this.buffer.readUInt16BE(2), flags, data });
      else frames.push({ kind: 'data', streamId: this.buffer.readUInt32BE(0) & 0x7fffffff, flags, data });
      this.buffer = this.buffer.subarray(8 + length);
    }
    return frames;
  }
}

/**
 * The client's header blocks: one zlib stream across the connection. Each
 * block is inflated with everything before it (zlib keeps no state across
 * Node's one-shot calls); a port-forward connection's blocks are few and small.
 */
export class HeaderDecoder {
  private input: Buffer = Buffer.alloc(0);
  private produced = 0;

  decode(block: Buffer): SpdyHeaders {
    this.input = Buffer.concat([this.input, block]);
    const all = inflateSync(this.input, { dictionary: DICTIONARY, finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const plain = all.subarray(this.produced);
    this.produced = all.byteLength;
    return parseHeaderBlock(plain);
  }
}

function parseHeaderBlock(plain: Buffer): SpdyHeaders {
  const headers: SpdyHeaders = new Map();
  if (plain.byteLength < 4) return headers;
  const count = plain.readUInt32BE(0);
  let at = 4;
  for (let i = 0; i < count && at + 4 <= plain.byteLength; i++) {
    const nameLength = plain.readUInt32BE(at);
    const name = plain.subarray(at + 4, at + 4 + nameLength).toString('latin1').toLowerCase();
    at += 4 + nameLength;
    const valueLength = plain.readUInt32BE(at);
    const value = plain.subarray(at + 4, at + 4 + valueLength).toString('latin1');
    at += 4 + valueLength;
    headers.set(name, value.split('\0'));
  }
  return headers;
}

/** Our header blocks: a zlib stream of stored (uncompressed) deflate blocks, the zlib header before the first. */
export class HeaderEncoder {
  private started = false;

  encode(headers: SpdyHeaders): Buffer {
    const fields: Buffer[] = [];
    const count = Buffer.alloc(4);
    count.writeUInt32BE(headers.size);
    fields.push(count);
    for (const [name, values] of headers) {
      for (const text of [name.toLowerCase(), values.join('\0')]) {
        const length = Buffer.alloc(4);
        length.writeUInt32BE(Buffer.byteLength(text, 'latin1'));
        fields.push(length, Buffer.from(text, 'latin1'));
      }
    }
    const plain = Buffer.concat(fields);
    const out: Buffer[] = [];
    if (!this.started) {
      // CMF/FLG: deflate with a 32 KiB window, no preset dictionary, check bits making it a multiple of 31.
      out.push(Buffer.from([0x78, 0x01]));
      this.started = true;
    }
    // The block is never empty (it starts with its count): stored blocks of at most 64 KiB - 1 each.
    for (let at = 0; at < plain.byteLength; at += 0xffff) {
      const piece = plain.subarray(at, Math.min(at + 0xffff, plain.byteLength));
      const head = Buffer.alloc(5);
      head[0] = 0x00; // not final, stored; stored blocks keep the stream byte-aligned
      head.writeUInt16LE(piece.byteLength, 1);
      head.writeUInt16LE(~piece.byteLength & 0xffff, 3);
      out.push(head, piece);
    }
    // A sync flush's empty stored block: an inflater hands over a stored block's bytes only when it
    // reaches the next block, and must find it within this frame (Go's keeps a read past it as an error).
    out.push(Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]));
    return Buffer.concat(out);
  }
}

export function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head[4] = flags;
  head.writeUIntBE(payload.byteLength, 5, 3);
  return Buffer.concat([head, payload]);
}

/** Data frames for `data` (split at the frame size limit); FIN on the last when asked. */
export function dataFrames(streamId: number, data: Uint8Array, fin: boolean): Buffer[] {
  const frames: Buffer[] = [];
  let at = 0;
  do {
    const piece = data.subarray(at, Math.min(at + MAX_FRAME_LENGTH, data.byteLength));
    at += piece.byteLength;
    const head = Buffer.alloc(8);
    head.writeUInt32BE(streamId & 0x7fffffff, 0);
    head[4] = fin && at >= data.byteLength ? FLAG_FIN : 0;
    head.writeUIntBE(piece.byteLength, 5, 3);
    frames.push(Buffer.concat([head, piece]));
  } while (at < data.byteLength);
  return frames;
}

export function synReply(streamId: number, encoder: HeaderEncoder, headers: SpdyHeaders = new Map()): Buffer {
  const id = Buffer.alloc(4);
  id.writeUInt32BE(streamId & 0x7fffffff);
  return controlFrame(SYN_REPLY, 0, Buffer.concat([id, encoder.encode(headers)]));
}

export function rstStream(streamId: number, status: number): Buffer {
  const payload = Buffer.alloc(8);
  payload.writeUInt32BE(streamId & 0x7fffffff, 0);
  payload.writeUInt32BE(status, 4);
  return controlFrame(RST_STREAM, 0, payload);
}

export function goAway(lastStreamId: number): Buffer {
  const payload = Buffer.alloc(8);
  payload.writeUInt32BE(lastStreamId & 0x7fffffff, 0);
  return controlFrame(GOAWAY, 0, payload);
}

/** SYN_STREAM's stream id and header block. */
export function parseSynStream(data: Buffer): { streamId: number; block: Buffer } {
  return { streamId: data.readUInt32BE(0) & 0x7fffffff, block: data.subarray(10) };
}

/** The stream id a RST_STREAM is about. */
export function parseRstStream(data: Buffer): number {
  return data.readUInt32BE(0) & 0x7fffffff;
}
