// Watch faults act on a watch's stream of events: the watch ends after N
// events (cleanly, as when kube-apiserver's watch timeout fires, or by
// breaking the connection), or its first N events never reach the client.
// They count events, not chunks: the stream is cut into its frames —
// newline-delimited JSON, or the 4-byte length-prefixed frames of
// application/vnd.kubernetes.protobuf;stream=watch. Bookmarks are passed and
// never counted: they are not changes a client can miss.

export interface WatchFaultEffect {
  readonly closeAfter?: { readonly events: number; readonly abrupt: boolean };
  readonly dropFirst?: number;
}

/** Splits a watch body's bytes into whole events. */
class FrameSplitter {
  private buffer = new Uint8Array(0);
  constructor(private readonly lengthPrefixed: boolean) {}

  push(chunk: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    const frames: Uint8Array[] = [];
    let at = 0;
    if (this.lengthPrefixed) {
      while (joined.length - at >= 4) {
        const size = new DataView(joined.buffer, joined.byteOffset + at, 4).getUint32(0);
        if (joined.length - at - 4 < size) break;
        frames.push(joined.subarray(at, at + 4 + size));
        at += 4 + size;
      }
    } else {
      for (let nl = joined.indexOf(10, at); nl >= 0; nl = joined.indexOf(10, at)) {
        frames.push(joined.subarray(at, nl + 1));
        at = nl + 1;
      }
    }
    this.buffer = joined.slice(at);
    return frames;
  }
}

const BOOKMARK = new TextEncoder().encode('BOOKMARK');

/** Whether a frame is a BOOKMARK event: its type is the event's first field in both encodings. */
function isBookmark(frame: Uint8Array): boolean {
  const head = frame.subarray(0, 40);
  outer: for (let i = 0; i + BOOKMARK.length <= head.length; i++) {
    for (let j = 0; j < BOOKMARK.length; j++) if (head[i + j] !== BOOKMARK[j]) continue outer;
    return true;
  }
  return false;
}

/** The watch response with its events cut as the fault says; the core's watch is released when the fault ends it. */
export function applyWatchFault(response: Response, effect: WatchFaultEffect): Response {
  const body = response.body;
  // A watch answered without a stream (an error, a 410 event) has nothing to cut.
  if (!body || response.status !== 200) return response;
  const lengthPrefixed = (response.headers.get('content-type') ?? '').includes('protobuf');
  const splitter = new FrameSplitter(lengthPrefixed);
  const reader = body.getReader();
  let toDrop = effect.dropFirst ?? 0;
  let untilClose = effect.closeAfter?.events;
  let done = false;

  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    done = true;
    // Let go of the core's watch (its store watcher and timers).
    reader.cancel().catch(() => undefined);
    if (effect.closeAfter?.abrupt) controller.error(new Error('watch connection lost (fault injected by KubeTab)'));
    else controller.close();
  };

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (untilClose === 0) finish(controller);
    },
    async pull(controller) {
      if (done) return;
      // Pull until something was sent or the stream ended: a read that yields only dropped events must not stall the consumer.
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended || !value) {
          done = true;
          controller.close();
          return;
        }
        let sent = false;
        for (const frame of splitter.push(value)) {
          if (isBookmark(frame)) {
            controller.enqueue(frame);
            sent = true;
            continue;
          }
          if (toDrop > 0) {
            toDrop--;
            continue;
          }
          controller.enqueue(frame);
          sent = true;
          if (untilClose !== undefined && --untilClose === 0) {
            finish(controller);
            return;
          }
        }
        if (sent) return;
      }
    },
    cancel(reason) {
      done = true;
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}
