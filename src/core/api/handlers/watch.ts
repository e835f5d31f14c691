// watch: a streamed response of events — newline-delimited JSON, or in
// application/vnd.kubernetes.protobuf;stream=watch length-prefixed frames of
// metav1.WatchEvent whose object is the enveloped protobuf object (kube's
// protobuf stream serializer); custom resources fall back to JSON.
//
// Start semantics (the specification's watch table): resourceVersion unset or
// "0" → synthetic ADDED events for the current state, then every change;
// a value → every change after it (410 as an ERROR event when compacted);
// sendInitialEvents=true → the initial ADDED events, then (with
// allowWatchBookmarks) a BOOKMARK annotated k8s.io/initial-events-end.
// Events never get lost, duplicated or reordered: the store watch is
// registered at revision R before the state at R is read, and changes after
// R are buffered until the initial events are out.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { CompactedError, type KeyValue, type StoreEvent, type WatchHandle } from '../../storage/types';
import type { RequestScope, ServerContext } from '../context';
import { withResourceVersion } from '../object-codec';
import { buildPredicate, type Predicate } from '../predicate';
import { parseListOptions, parseResourceVersion, validateListOptions } from '../read-options';
import { decode, keyFor, prefixFor, toRequestVersion } from '../resource-store';
import { bytesResponse, errorResponse, toStatusError } from '../respond';
import { objectToTable, partialObjectMetadata } from '../table';
import { encodeProtobufWatchEvent } from '../../protobuf';
import { encodeJson } from '../negotiation/json-encode';
import { resourceOutput } from './read';
import { waitForRevision } from '../wait-for-revision';
import { afterCurrentTask } from '../../util/after-current-task';

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** A slow reader that lets this many events pile up is disconnected (kube closes watchers it cannot keep up with). */
const MAX_BUFFERED_EVENTS = 100_000;
const BOOKMARK_INTERVAL_MS = 60_000;
/** The cacher sends a watch's last bookmark this long before its deadline. */
const BOOKMARK_BEFORE_DEADLINE_MS = 2_000;

function randomTimeoutSeconds(ctx: ServerContext): number {
  // kube-apiserver: --min-request-timeout (1800 s) times a random factor in [1, 2).
  const base = 1800;
  return Math.min(ctx.maxWatchSeconds, Math.floor(base * (1 + Math.random())));
}

export async function handleWatch(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { served, route, query, request } = scope;
  // Negotiated before anything else, as kube's handler does: 406 for protobuf alone on a custom resource.
  const output = resourceOutput(scope);
  const protobuf = output.encoding === 'protobuf';
  const options = parseListOptions(query, true);
  validateListOptions(options, ctx.featureGates.enabled('WatchList'));
  const predicate: Predicate = buildPredicate(scope);
  // A watch on one object (GET .../pods/foo?watch=1) is a collection watch with a name selector.
  const prefix = route.name ? keyFor(served, route.namespace, route.name) : prefixFor(served, route.namespace);
  const exactKey = route.name ? prefix : undefined;

  const rv = options.resourceVersion;
  const requested = rv !== undefined && rv !== '0' ? parseResourceVersion(rv) : undefined;
  const sendInitial = options.sendInitialEvents ?? (requested === undefined);
  if (requested !== undefined && sendInitial) {
    // NotOlderThan with initial events: wait until the store has reached the version.
    await waitForRevision(ctx.store, requested, 3000);
    if (ctx.store.currentRevision() < requested) {
      throw errors.tooLargeResourceVersion(requested, ctx.store.currentRevision(), 1);
    }
  }
  const startRevision = sendInitial ? ctx.store.currentRevision() : (requested ?? ctx.store.currentRevision());

  const requestedTimeout = options.timeoutSeconds;
  // A negative timeout is a deadline already passed: kube's watch server ends at once (200, no events).
  const timeoutSeconds =
    requestedTimeout === undefined || requestedTimeout === 0 ? randomTimeoutSeconds(ctx) : requestedTimeout < 0 ? 0 : Math.min(requestedTimeout, ctx.maxWatchSeconds);
  const endedByServerLimit = requestedTimeout === undefined || requestedTimeout === 0 || requestedTimeout > ctx.maxWatchSeconds;
  const deadline = Date.now() + timeoutSeconds * 1000;

  const encoder = new TextEncoder();
  let firstTableEvent = true;
  const shape = (obj: KubeObject): KubeObject => {
    const shown = toRequestVersion(served, obj);
    if (output.as === 'Table') {
      const table = objectToTable(served, shown, query, ctx.clock.now(), firstTableEvent);
      firstTableEvent = false;
      return table;
    }
    // kube's watch turns each event's object into the PartialObjectMetadata asked for.
    if (output.as === 'PartialObjectMetadata') return partialObjectMetadata(shown, output.asVersion ?? 'v1');
    return shown;
  };
  const frame = (type: EventType, object: unknown): Uint8Array =>
    // JSON events as Go's json.Encoder writes them: compact, one a line, with Go's escapes and map order.
    protobuf ? encodeProtobufWatchEvent(type, object as Record<string, unknown>) : encoder.encode(encodeJson({ type, object }, { pretty: false }));
  const bookmarkObject = (revision: number, annotations?: Record<string, string>): KubeObject => {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (annotations) metadata['annotations'] = annotations;
    const bookmark: KubeObject = { kind: served.definition.kind, apiVersion: served.apiVersion, metadata };
    return output.as === 'PartialObjectMetadata' ? partialObjectMetadata(bookmark, output.asVersion ?? 'v1') : bookmark;
  };

  let handle: WatchHandle | undefined;
  const timers: ReturnType<typeof setTimeout>[] = [];
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  let live = false;
  const pending: StoreEvent[] = [];

  const close = () => {
    if (closed) return;
    closed = true;
    handle?.cancel();
    for (const t of timers) clearTimeout(t);
    try {
      controllerRef?.close();
    } catch {
      // already closed by the reader
    }
  };

  const matches = (kv: KeyValue): boolean => {
    if (exactKey !== undefined && kv.key !== exactKey) return false;
    return predicate.matches(decode(ctx, served, kv));
  };

  const emitChange = (event: StoreEvent) => {
    if (closed || !controllerRef) return;
    if (exactKey !== undefined && event.kv.key !== exactKey) return;
    let type: EventType | undefined;
    let object: KubeObject | undefined;
    if (event.type === 'delete') {
      const prev = event.prevKv;
      if (prev && matches(prev)) {
        type = 'DELETED';
        object = withResourceVersion(decode(ctx, served, prev), event.revision);
      }
    } else {
      const curPasses = matches(event.kv);
      const prevPasses = event.prevKv ? matches(event.prevKv) : false;
      if (curPasses && prevPasses) {
        type = 'MODIFIED';
        object = decode(ctx, served, event.kv);
      } else if (curPasses) {
        type = 'ADDED';
        object = decode(ctx, served, event.kv);
      } else if (prevPasses) {
        // The object stopped matching the selector: to this watcher it is gone.
        type = 'DELETED';
        object = withResourceVersion(decode(ctx, served, event.prevKv!), event.revision);
      }
    }
    if (type && object) controllerRef.enqueue(frame(type, shape(object)));
  };

  // Live changes are turned into events after the write that made them has
  // been answered (after-current-task.ts): matching, encoding and framing for
  // every watcher would otherwise stand between each write and its response.
  // Order is kept: they wait in one queue, and whatever this watch sends
  // itself (a bookmark, the end) sends them first.
  const waiting: StoreEvent[] = [];
  const emitWaiting = () => {
    for (const event of waiting.splice(0)) {
      if (closed) return;
      try {
        emitChange(event);
      } catch (err) {
        controllerRef?.enqueue(frame('ERROR', toStatusError(err).status));
        close();
      }
    }
  };

  const sendBookmark = (annotations?: Record<string, string>) => {
    emitWaiting();
    if (closed || !controllerRef) return;
    controllerRef.enqueue(frame('BOOKMARK', bookmarkObject(ctx.store.currentRevision(), annotations)));
  };

  // Register first so that nothing after startRevision can slip between the initial read and the live stream.
  try {
    handle = ctx.store.watch(
      { prefix, afterRevision: startRevision },
      {
        onEvent: (event) => {
          if (closed) return;
          if (!live) {
            pending.push(event);
            if (pending.length > MAX_BUFFERED_EVENTS) close();
            return;
          }
          waiting.push(event);
          if (waiting.length === 1) afterCurrentTask(emitWaiting);
        },
        onClose: () => close(),
      },
    );
  } catch (err) {
    if (err instanceof CompactedError) {
      // kube answers 200 and sends the 410 as the stream's only event.
      const status = errors.expired(`too old resource version: ${requested ?? startRevision} (${err.compacted})`).status;
      return bytesResponse(frame('ERROR', status), 200, protobuf ? output.contentType : 'application/json');
    }
    return errorResponse(err, output);
  }

  const stream = new ReadableStream<Uint8Array>({
    start: async (controller) => {
      controllerRef = controller;
      if (timeoutSeconds === 0) {
        close();
        return;
      }
      try {
        if (sendInitial) {
          const range = await ctx.store.range({ prefix: exactKey ?? prefix, revision: startRevision });
          for (const kv of range.kvs) {
            if (closed) return;
            if (!matches(kv)) continue;
            controller.enqueue(frame('ADDED', shape(decode(ctx, served, kv))));
          }
          if (options.sendInitialEvents && options.allowWatchBookmarks) {
            controller.enqueue(frame('BOOKMARK', bookmarkObject(startRevision, { 'k8s.io/initial-events-end': 'true' })));
          }
        }
        live = true;
        for (const event of pending.splice(0)) emitChange(event);
      } catch (err) {
        controller.enqueue(frame('ERROR', toStatusError(err).status));
        close();
        return;
      }
      if (options.allowWatchBookmarks) {
        // The cacher's schedule: a bookmark a minute, and one 2 s before the watch's deadline so that
        // the client can resume from it (none once that moment has passed).
        const schedule = () => {
          const now = Date.now();
          const next = Math.min(now + BOOKMARK_INTERVAL_MS, deadline - BOOKMARK_BEFORE_DEADLINE_MS);
          if (next < now) return;
          timers.push(
            setTimeout(() => {
              if (closed) return;
              sendBookmark();
              schedule();
            }, next - now),
          );
        };
        schedule();
      }
      timers.push(
        setTimeout(() => {
          // Ending on the server's own limit (the service worker's ~5-minute cap): leave a bookmark to resume from.
          if (options.allowWatchBookmarks && endedByServerLimit) sendBookmark();
          else emitWaiting();
          close();
        }, timeoutSeconds * 1000),
      );
    },
    cancel: () => close(),
  });
  request.signal?.addEventListener('abort', () => close(), { once: true });

  const contentType = protobuf
    ? output.contentType
    : output.as === 'Table'
      ? `application/json;as=Table;v=${output.asVersion ?? 'v1'};g=meta.k8s.io`
      : 'application/json';
  return bytesResponse(stream, 200, contentType);
}
