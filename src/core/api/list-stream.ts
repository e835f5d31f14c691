// Streams a list body made of stored JSON texts in chunks of 64 KiB, so a
// list of 10,000 objects never becomes one 20 MB string and the first bytes
// leave while the reader parses.
//
// Each stored value's UTF-8 bytes are kept beside it once it has been listed
// (a WeakMap on the store's KeyValue, so they go when the value is replaced):
// kube-apiserver's watch cache keeps serialized objects the same way. The
// items of a list — texts joined by commas — are kept too, under the list's
// cache key (its prefix and selection), for as long as the same KeyValues
// make it up: the next list of an unchanged collection sends views of those
// bytes, copying nothing (docs/decisions/0132, 0173, 0174, 0330). Indented
// lists (?pretty, and browsers, which kube answers indented) are made the same
// way from each text indented at the items' depth (0333). A list
// whose items changed joins them again from the kept texts, encoding only the
// new ones. The stream keeps a few chunks ready ahead of the reader, so
// preparing them overlaps with the transfer.

import type { KeyValue } from '../storage/types';
import { indentJson } from './negotiation/json-indent';

const CHUNK_BYTES = 64 * 1024;
/** Chunks made ahead of the reader. */
const CHUNKS_AHEAD = 4;
const COMMA = 0x2c;
/** At most this many bytes of joined items are kept, over all lists (the least recently listed go first). */
const MAX_JOINED_BYTES = 64 * 1024 * 1024;
/** …and at most this many lists. */
const MAX_JOINED_LISTS = 64;

/** UTF-8 of each stored value that has been listed, compact and indented; collected with the value. */
const encoded = new WeakMap<KeyValue, Uint8Array>();
const encodedIndented = new WeakMap<KeyValue, Uint8Array>();
/** An item's place in an indented list: two levels down (`{ "items": [ … ] }`). */
const ITEM_PREFIX = '    ';

interface JoinedItems {
  readonly items: readonly KeyValue[];
  readonly bytes: Uint8Array;
}

/** Joined items per list cache key, in least-recently-listed-first order. */
const joined = new Map<string, JoinedItems>();
let joinedBytes = 0;

const encoder = new TextEncoder();

/** A stored value's bytes in a list, made once per value and kept (`kept` is one of the two maps above). */
function keptBytes(kept: WeakMap<KeyValue, Uint8Array>, kv: KeyValue, text: (value: string) => string): Uint8Array {
  let bytes = kept.get(kv);
  if (!bytes) {
    bytes = encoder.encode(text(kv.value));
    kept.set(kv, bytes);
  }
  return bytes;
}

const bytesOf = (kv: KeyValue): Uint8Array => keptBytes(encoded, kv, (value) => value);
const indentedBytesOf = (kv: KeyValue): Uint8Array => keptBytes(encodedIndented, kv, (value) => ITEM_PREFIX + indentJson(value, ITEM_PREFIX));

const COMPACT_SEPARATOR = Uint8Array.of(COMMA);
const INDENTED_SEPARATOR = Uint8Array.of(COMMA, 0x0a);

function sameItems(a: readonly KeyValue[], b: readonly KeyValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function join(items: readonly KeyValue[], indented: boolean): Uint8Array {
  const parts = items.map(indented ? indentedBytesOf : bytesOf);
  const separator = indented ? INDENTED_SEPARATOR : COMPACT_SEPARATOR;
  let total = Math.max(0, parts.length - 1) * separator.byteLength;
  for (const part of parts) total += part.byteLength;
  const bytes = new Uint8Array(total);
  let at = 0;
  parts.forEach((part, i) => {
    if (i > 0) {
      bytes.set(separator, at);
      at += separator.byteLength;
    }
    bytes.set(part, at);
    at += part.byteLength;
  });
  return bytes;
}

/** The items' texts joined by commas: kept ones when the list holds the same values, else joined (and kept) now. */
function joinedItems(items: readonly KeyValue[], cacheKey: string | undefined, indented: boolean): Uint8Array {
  if (cacheKey === undefined) return join(items, indented);
  if (indented) cacheKey += '\u0000indented';
  const kept = joined.get(cacheKey);
  if (kept) {
    joined.delete(cacheKey);
    if (sameItems(kept.items, items)) {
      joined.set(cacheKey, kept);
      return kept.bytes;
    }
    joinedBytes -= kept.bytes.byteLength;
  }
  const bytes = join(items, indented);
  if (bytes.byteLength <= MAX_JOINED_BYTES) {
    joined.set(cacheKey, { items: items.slice(), bytes });
    joinedBytes += bytes.byteLength;
    for (const [key, entry] of joined) {
      if (joinedBytes <= MAX_JOINED_BYTES && joined.size <= MAX_JOINED_LISTS) break;
      joined.delete(key);
      joinedBytes -= entry.bytes.byteLength;
    }
  }
  return bytes;
}

/**
 * The JSON list `head` + items joined by commas + `tail`. `cacheKey` names
 * the list (same key, same prefix and selection): with it the joined items
 * are kept for the next list of the same values. `indented`: each item is
 * laid out as the pretty encoder lays out a list's items (two levels deep,
 * one per line after ",\n"); the head must end with "[\n" and the tail start
 * with "\n" at the items' closing bracket.
 */
export function streamJsonList(head: string, items: readonly KeyValue[], tail: string, cacheKey?: string, indented = false): ReadableStream<Uint8Array> {
  return streamByteParts([encoder.encode(head), joinedItems(items, cacheKey, indented), encoder.encode(tail)]);
}

/**
 * A body made of ready byte parts (a JSON list: head, joined items, tail; a
 * protobuf list: envelope head, each item's field header and bytes, tail),
 * sent in 64 KiB chunks with a few chunks of read-ahead. A chunk that lies
 * within one part is a view of it (the parts are never written after this
 * call); one that spans parts is a copy.
 */
export function streamByteParts(parts: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let part = 0;
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        while (part < parts.length && offset >= parts[part]!.byteLength) {
          part++;
          offset = 0;
        }
        if (part >= parts.length) {
          controller.close();
          return;
        }
        const current = parts[part]!;
        if (current.byteLength - offset >= CHUNK_BYTES || part === parts.length - 1) {
          // The whole chunk (or the body's end) lies within this part: a view, no copy.
          const end = Math.min(current.byteLength, offset + CHUNK_BYTES);
          controller.enqueue(current.subarray(offset, end));
          offset = end;
        } else {
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
          controller.enqueue(filled === CHUNK_BYTES ? chunk : chunk.subarray(0, filled));
        }
        if (part >= parts.length || (part === parts.length - 1 && offset >= parts[part]!.byteLength)) controller.close();
      },
    },
    { highWaterMark: CHUNKS_AHEAD },
  );
}
