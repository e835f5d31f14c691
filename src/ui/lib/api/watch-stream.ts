// A watch response is newline-delimited JSON, one event per line. This reads
// the body as it arrives and hands out each event; it ends when the server
// ends the stream (timeout) or the caller aborts.

import type { WatchEvent } from './types';

export async function* readWatchEvents<T = unknown>(response: Response): AsyncGenerator<WatchEvent<T>> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield JSON.parse(line) as WatchEvent<T>;
      }
    }
    const rest = (buffer + decoder.decode()).trim();
    if (rest) yield JSON.parse(rest) as WatchEvent<T>;
  } finally {
    reader.releaseLock();
  }
}
