// What the cluster benchmark observes, as a client would: a collection listed
// then watched (newline-delimited JSON events, resumed from the last
// resourceVersion when the server ends the stream, listed again after a 410),
// and the conditions it waits for — every pod of a set Running, a Deployment
// with all its replicas available.

import http from 'node:http';

export interface KubeObjectLike {
  readonly metadata?: { readonly name?: string; readonly resourceVersion?: string; readonly creationTimestamp?: string; readonly generation?: number };
  readonly status?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** Splits a byte stream into complete lines, keeping a partial last line for the next chunk. */
export class LineSplitter {
  private rest = '';

  push(chunk: string): string[] {
    const text = this.rest + chunk;
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    return lines.filter((line) => line.trim() !== '');
  }
}

/** The pods of a set that are Running (phase), by name. */
export class RunningPods {
  private readonly running = new Set<string>();

  observe(type: WatchEventType, pod: KubeObjectLike): void {
    const name = pod.metadata?.name ?? '';
    if (type !== 'DELETED' && pod.status?.['phase'] === 'Running') this.running.add(name);
    else this.running.delete(name);
  }

  get count(): number {
    return this.running.size;
  }
}

/** Whether a Deployment's controller has seen its latest spec and all `replicas` are updated and available. */
export function deploymentAvailable(deployment: KubeObjectLike, replicas: number): boolean {
  const status = deployment.status ?? {};
  const observed = Number(status['observedGeneration'] ?? 0);
  return observed >= (deployment.metadata?.generation ?? 1) && Number(status['updatedReplicas'] ?? 0) >= replicas && Number(status['availableReplicas'] ?? 0) >= replicas;
}

/** Seconds between two of the cluster's timestamps (RFC 3339, to the second). */
export function clusterSeconds(from: string, to: string): number {
  return (Date.parse(to) - Date.parse(from)) / 1000;
}

export interface CollectionWatch {
  /** Resolves once the first list has been handed to the callback. */
  readonly listed: Promise<void>;
  stop(): void;
}

/**
 * Lists `path` (a collection URL path, with its query) and watches it from the
 * list's resourceVersion, handing every object to `onObject`; a stream the
 * server ends is resumed, a 410 (or a failed request) lists again.
 */
export function watchCollection(baseUrl: string, path: string, onObject: (type: WatchEventType, object: KubeObjectLike) => void, onError: (error: Error) => void = () => {}): CollectionWatch {
  let stopped = false;
  let current: http.ClientRequest | undefined;
  const separator = path.includes('?') ? '&' : '?';

  const get = (url: string) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      current = http.get(url, { headers: { accept: 'application/json' } }, resolve);
      current.on('error', reject);
    });

  const list = async (): Promise<string> => {
    const response = await get(`${baseUrl}${path}`);
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items?: KubeObjectLike[]; metadata?: { resourceVersion?: string } };
    if (response.statusCode !== 200) throw new Error(`list ${path}: HTTP ${response.statusCode}`);
    for (const item of body.items ?? []) onObject('ADDED', item);
    return body.metadata?.resourceVersion ?? '0';
  };

  /** Watches from `rv` until the stream ends; resolves with the last resourceVersion seen, or undefined after a 410. */
  const watch = async (rv: string): Promise<string | undefined> => {
    const response = await get(`${baseUrl}${path}${separator}watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`);
    if (response.statusCode !== 200) {
      response.resume();
      return undefined;
    }
    const lines = new LineSplitter();
    let last: string | undefined = rv;
    response.setEncoding('utf8');
    for await (const chunk of response) {
      for (const line of lines.push(chunk as string)) {
        const event = JSON.parse(line) as { type: string; object: KubeObjectLike };
        if (event.type === 'ERROR') return undefined;
        last = event.object.metadata?.resourceVersion ?? last;
        if (event.type === 'BOOKMARK') continue;
        onObject(event.type as WatchEventType, event.object);
      }
    }
    return last;
  };

  const listed = (async () => list())();
  void (async () => {
    let rv: string | undefined = await listed.catch(() => undefined);
    while (!stopped) {
      try {
        rv = rv === undefined ? await list() : await watch(rv);
      } catch (error) {
        if (stopped) return;
        onError(error as Error);
        rv = undefined;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  })();
  return {
    listed: listed.then(() => undefined),
    stop() {
      stopped = true;
      current?.destroy();
    },
  };
}
