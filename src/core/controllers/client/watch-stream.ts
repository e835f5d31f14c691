// Reads a watch response (newline-delimited JSON events) one event at a time.

import type { KubeObject } from '../../kinds/types';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: KubeObject;
}

export interface WatchStream {
  /** The next event, or undefined when the server ended the stream. */
  next(): Promise<WatchEvent | undefined>;
  /** Ends the watch (the server sees the request aborted). */
  cancel(): void;
}

export function openWatch(res: Response, controller: AbortController): WatchStream {
  const body = res.body;
  const reader = body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = !reader;
  const queue: WatchEvent[] = [];

  const takeLines = () => {
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) queue.push(JSON.parse(line) as WatchEvent);
    }
  };

  return {
    async next() {
      while (queue.length === 0 && !ended) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader!.read();
        } catch {
          chunk = { done: true, value: undefined };
        }
        if (chunk.done) {
          ended = true;
          buffer += decoder.decode();
          buffer += '\n';
          takeLines();
          break;
        }
        buffer += decoder.decode(chunk.value, { stream: true });
        takeLines();
      }
      return queue.shift();
    },
    cancel() {
      if (ended) return;
      ended = true;
      controller.abort();
      void reader?.cancel().catch(() => undefined);
    },
  };
}
