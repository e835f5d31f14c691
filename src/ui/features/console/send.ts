// Sends the console's request through the API client and reads the answer:
// a whole body, or, for a watch, each event as it arrives.

import { absoluteApiUrl, apiFetch, basePath, requestHeaders } from '../../lib/api/client';
import type { Identity } from '../../lib/api/identity';
import { useAppStore } from '../../lib/store';
import { readWatchEvents } from '../../lib/api/watch-stream';
import type { CommandRequest } from '../../lib/commands/copy-as';
import type { ConsoleRequest } from '../../lib/store/console-slice';
import { hasBody } from './query-fields';
import { effectiveQuery, isWatch, splitPath, wireHeaders } from './wire-request';

export interface ConsoleResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly durationMs: number;
  readonly body: string;
  /** Parsed JSON body, when it is JSON. */
  readonly json: unknown;
}

export interface ConsoleWatchEvent {
  readonly seq: number;
  readonly type: string;
  readonly resourceVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly object: unknown;
}

/** The query parameters sent: typed into the path or set in the fields (see wire-request.ts). */
export function activeQuery(request: ConsoleRequest): Record<string, string> {
  return effectiveQuery(request);
}

export function headerPairs(request: ConsoleRequest): Array<[string, string]> {
  return wireHeaders(request);
}

export { isWatch };

/** The identity chosen for this request, or undefined for the current one. */
export function requestIdentity(request: ConsoleRequest): Identity | undefined {
  if (!request.identityId) return undefined;
  return useAppStore.getState().identities.find((i) => i.id === request.identityId);
}

/** The request as it goes on the wire (identity headers included), for copy-as. */
export function commandRequest(request: ConsoleRequest): CommandRequest {
  const headers = requestHeaders({ headers: headerPairs(request), identity: requestIdentity(request) });
  const pairs: Array<[string, string]> = [];
  headers.forEach((value, name) => pairs.push([canonicalHeaderName(name), value]));
  return { method: request.method, url: absoluteApiUrl(splitPath(request.path).pathname, activeQuery(request)), headers: pairs, body: hasBody(request.method) ? request.body : '' };
}

export { basePath };

function canonicalHeaderName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

export async function sendRequest(request: ConsoleRequest, signal: AbortSignal): Promise<{ response: Response; started: number }> {
  const started = performance.now();
  const response = await apiFetch(splitPath(request.path).pathname, {
    method: request.method,
    query: activeQuery(request),
    headers: headerPairs(request),
    body: hasBody(request.method) && request.body ? request.body : undefined,
    signal,
    identity: requestIdentity(request),
  });
  return { response, started };
}

export async function readWhole(response: Response, started: number): Promise<ConsoleResponse> {
  const body = await response.text();
  let json: unknown;
  let pretty = body;
  try {
    json = JSON.parse(body);
    pretty = JSON.stringify(json, null, 2);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers.entries()],
    durationMs: Math.round(performance.now() - started),
    body: pretty,
    json,
  };
}

/** Streams a watch's events to onEvents (batched per animation frame). */
export async function streamWatch(response: Response, onEvents: (events: ConsoleWatchEvent[]) => void): Promise<void> {
  let seq = 0;
  let pending: ConsoleWatchEvent[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length) onEvents(batch);
  };
  try {
    for await (const event of readWatchEvents<{ kind?: string; metadata?: { name?: string; namespace?: string; resourceVersion?: string } }>(response)) {
      const meta = event.object?.metadata ?? {};
      pending.push({
        seq: ++seq,
        type: event.type,
        resourceVersion: meta.resourceVersion ?? '',
        kind: event.object?.kind ?? '',
        name: meta.name ?? '',
        namespace: meta.namespace ?? '',
        object: event.object,
      });
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(flush);
      }
    }
  } finally {
    flush();
  }
}
