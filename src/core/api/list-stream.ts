// Streams a list body made of stored JSON texts in chunks of 64 KiB, so a
// list of 10,000 objects never becomes one 20 MB string and the first bytes
// leave before the last are encoded.
//
// Each chunk is one buffer that the texts are UTF-8-encoded straight into
// (TextEncoder.encodeInto), a text that does not fit continuing in the next
// chunk: no joined string and no second copy per chunk (docs/decisions/0132).
// The stream keeps a few chunks ready ahead of the reader, so encoding
// overlaps with the transfer instead of waiting for each read.

import type { KeyValue } from '../storage/types';

const CHUNK_BYTES = 64 * 1024;
/** Chunks encoded ahead of the reader. */
const CHUNKS_AHEAD = 4;
const COMMA = 0x2c;

/** TextEncoder.encodeInto: every host has it, src/core/env.d.ts declares only encode. */
interface EncodeInto {
  encodeInto(source: string, destination: Uint8Array): { read?: number; written?: number };
}

export function streamJsonList(head: string, items: readonly KeyValue[], tail: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder() as TextEncoder & EncodeInto;
  // The body is the sequence head, item 0, ',', item 1, …, tail; `part` walks
  // it (-1 head, 0…n-1 items, n tail), `offset` is how much of the current
  // text (UTF-16 units) is sent, `started` whether its separator is.
  let part = -1;
  let offset = 0;
  let started = false;
  const textOf = (p: number): string => (p < 0 ? head : p < items.length ? items[p]!.value : tail);
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
          const text = textOf(part);
          const rest = offset === 0 ? text : text.slice(offset);
          const { read = 0, written = 0 } = encoder.encodeInto(rest, chunk.subarray(filled));
          filled += written;
          if (read < rest.length) {
            // The chunk is full (encodeInto never splits a character): the text goes on in the next one.
            offset += read;
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
