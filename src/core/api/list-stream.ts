// Streams a list body made of stored JSON texts in chunks of 64 KiB, so a
// list of 10,000 objects never becomes one 20 MB string and the first bytes
// leave before the last are ready.
//
// Each stored value's UTF-8 bytes are kept beside it once it has been listed
// (a WeakMap on the store's KeyValue, so they go when the value is replaced):
// kube-apiserver's watch cache keeps serialized objects the same way. A list
// is then copies of ready bytes into each chunk, not 20 MB of encoding per
// list; the first list of a value pays its encoding once (docs/decisions/
// 0132, 0173). A value's bytes may be split across two chunks: the body is a
// byte stream, and readers decode it as one. The stream keeps a few chunks
// ready ahead of the reader, so copying overlaps with the transfer.

import type { KeyValue } from '../storage/types';

const CHUNK_BYTES = 64 * 1024;
/** Chunks made ahead of the reader. */
const CHUNKS_AHEAD = 4;
const COMMA = 0x2c;

/** UTF-8 of each stored value that has been listed; collected with the value. */
const encoded = new WeakMap<KeyValue, Uint8Array>();

export function streamJsonList(head: string, items: readonly KeyValue[], tail: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const bytesOf = (kv: KeyValue): Uint8Array => {
    let bytes = encoded.get(kv);
    if (!bytes) {
      bytes = encoder.encode(kv.value);
      encoded.set(kv, bytes);
    }
    return bytes;
  };
  // The body is the sequence head, item 0, ',', item 1, …, tail; `part` walks
  // it (-1 head, 0…n-1 items, n tail), `offset` is how many of the current
  // part's bytes are sent, `started` whether its separator is.
  let part = -1;
  let offset = 0;
  let started = false;
  let headBytes: Uint8Array | undefined;
  let tailBytes: Uint8Array | undefined;
  const partBytes = (p: number): Uint8Array =>
    p < 0 ? (headBytes ??= encoder.encode(head)) : p < items.length ? bytesOf(items[p]!) : (tailBytes ??= encoder.encode(tail));
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = new Uint8Array(CHUNK_BYTES);
        let filled = 0;
        while (part <= items.length && filled < CHUNK_BYTES) {
          if (!started) {
            // The separator before every item but the first.
            if (part > 0 && part < items.length) chunk[filled++] = COMMA;
            started = true;
            if (filled === CHUNK_BYTES) break;
          }
          const bytes = partBytes(part);
          const n = Math.min(bytes.byteLength - offset, CHUNK_BYTES - filled);
          chunk.set(offset === 0 && n === bytes.byteLength ? bytes : bytes.subarray(offset, offset + n), filled);
          filled += n;
          if (offset + n < bytes.byteLength) {
            // The chunk is full: the part goes on in the next one.
            offset += n;
            break;
          }
          part++;
          offset = 0;
          started = false;
        }
        if (filled > 0) controller.enqueue(filled === CHUNK_BYTES ? chunk : chunk.subarray(0, filled));
        if (part > items.length) controller.close();
      },
    },
    { highWaterMark: CHUNKS_AHEAD },
  );
}

/**
 * A body made of ready byte parts (a protobuf list: envelope head, each
 * item's field header and bytes, tail), sent in the same 64 KiB chunks with
 * the same read-ahead as streamJsonList.
 */
export function streamByteParts(parts: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let part = 0;
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = new Uint8Array(CHUNK_BYTES);
        let filled = 0;
        while (part < parts.length && filled < CHUNK_BYTES) {
          const bytes = parts[part]!;
          const n = Math.min(bytes.byteLength - offset, CHUNK_BYTES - filled);
          chunk.set(bytes.subarray(offset, offset + n), filled);
          filled += n;
          offset += n;
          if (offset < bytes.byteLength) break;
          part++;
          offset = 0;
        }
        if (filled > 0) controller.enqueue(filled === CHUNK_BYTES ? chunk : chunk.subarray(0, filled));
        if (part >= parts.length) controller.close();
      },
    },
    { highWaterMark: CHUNKS_AHEAD },
  );
}
