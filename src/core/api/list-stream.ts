// Streams a list body made of stored JSON texts in chunks of about 64 KiB, so
// a list of 10,000 objects never becomes one 20 MB string and the first bytes
// leave before the last are encoded.

import type { KeyValue } from '../storage/types';

const CHUNK_BYTES = 64 * 1024;

export function streamJsonList(head: string, items: readonly KeyValue[], tail: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  let headSent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const parts: string[] = [];
      let size = 0;
      if (!headSent) {
        parts.push(head);
        size += head.length;
        headSent = true;
      }
      while (index < items.length && size < CHUNK_BYTES) {
        const value = items[index]!.value;
        parts.push(index === 0 ? value : `,${value}`);
        size += value.length + 1;
        index++;
      }
      if (index >= items.length) {
        parts.push(tail);
        controller.enqueue(encoder.encode(parts.join('')));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(parts.join('')));
    },
  });
}
