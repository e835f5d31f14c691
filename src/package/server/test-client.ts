// The helpers a test uses to arrange and inspect the cluster: apply (server-
// side apply as the test's field manager), get, list, delete and waitFor.
// They reach the server in-process as the cluster administrator
// (kubernetes-admin in system:masters), through `handleAs`: no HTTP, no TLS,
// and never a fault a test added for the app under test.

import { parseAllDocuments } from 'yaml';
import type { ApiServer } from '../../core/server';
import type { UserInfo } from '../../core/auth/types';
import { ResourceIndex, resourcePath, type ResourceInfo } from './resource-index';

/** kubeadm's administrator, as the helpers act. */
const ADMIN: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; namespace?: string; resourceVersion?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** Names a kind: apiVersion is optional (the preferred version of the first group with that kind). */
export interface KindRef {
  readonly apiVersion?: string;
  readonly kind: string;
}

export interface ObjectRef extends KindRef {
  readonly name: string;
  /** Namespaced kinds: default "default". */
  readonly namespace?: string;
}

export interface ListQuery extends KindRef {
  /** Namespaced kinds: absent lists every namespace. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WaitOptions {
  /** Real milliseconds before waitFor gives up (default 10 000). */
  readonly timeoutMs?: number;
}

export interface ApplyOptions {
  /** The field manager (default "kubetab-test"). */
  readonly fieldManager?: string;
  /** Take fields other managers own (default true, as a test arranging state means it). */
  readonly force?: boolean;
}

/** A request the server answered with an error: its code and Status. */
export class KubeTabRequestError extends Error {
  constructor(
    readonly code: number,
    readonly status: { reason?: string; message?: string } | undefined,
    what: string,
  ) {
    super(`${what}: ${code}${status?.reason ? ` ${status.reason}` : ''}${status?.message ? `: ${status.message}` : ''}`);
    this.name = 'KubeTabRequestError';
  }
}

export class TestClient {
  private readonly index: ResourceIndex;

  constructor(
    private readonly server: () => Promise<ApiServer>,
    private readonly baseUrl: string,
  ) {
    this.index = new ResourceIndex(async (path) => {
      const response = await this.send('GET', path);
      if (response.status === 404) {
        await response.body?.cancel();
        return undefined;
      }
      return this.json(response, `GET ${path}`);
    });
  }

  /** Forgets discovery (after a restore or reset). */
  invalidate(): void {
    this.index.invalidate();
  }

  async send(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Response> {
    const init: RequestInit = { method, headers: { accept: 'application/json', 'user-agent': 'kubetab-test-helpers' } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = contentType;
    }
    const server = await this.server();
    return server.handleAs(new Request(new URL(path, this.baseUrl), init), ADMIN);
  }

  private async json(response: Response, what: string): Promise<unknown> {
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.status >= 400) throw new KubeTabRequestError(response.status, parsed as { reason?: string; message?: string } | undefined, what);
    return parsed;
  }

  /** Server-side apply of every object in YAML (several documents, `kind: List`) or in the given objects. */
  async apply(input: string | KubeObject | readonly KubeObject[], options: ApplyOptions = {}): Promise<KubeObject[]> {
    const objects = typeof input === 'string' ? objectsOfYaml(input) : Array.isArray(input) ? [...(input as KubeObject[])] : [input as KubeObject];
    const applied: KubeObject[] = [];
    const query = new URLSearchParams({ fieldManager: options.fieldManager ?? 'kubetab-test' });
    if (options.force ?? true) query.set('force', 'true');
    for (const object of objects.flatMap(listItems)) {
      if (!object || typeof object !== 'object' || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
        throw new Error(`apply: every object needs apiVersion and kind (got ${JSON.stringify(object).slice(0, 120)})`);
      }
      const name = object.metadata?.name;
      if (typeof name !== 'string' || name === '') throw new Error(`apply: ${object.kind} needs metadata.name (server-side apply names the object it applies)`);
      const info = await this.index.resolve(object);
      const path = `${resourcePath(info, info.namespaced ? (object.metadata.namespace ?? 'default') : undefined, name)}?${query}`;
      const response = await this.send('PATCH', path, object, 'application/apply-patch+yaml');
      applied.push((await this.json(response, `apply ${object.kind} ${JSON.stringify(name)}`)) as KubeObject);
    }
    return applied;
  }

  /** The object, or undefined when it does not exist. */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const info = await this.index.resolve(ref);
    const response = await this.send('GET', resourcePath(info, ref.namespace, ref.name));
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    return (await this.json(response, `get ${ref.kind} ${JSON.stringify(ref.name)}`)) as KubeObject;
  }

  async list(query: ListQuery): Promise<KubeObject[]> {
    return (await this.listWithVersion(query)).items;
  }

  /** Deletes an object (propagation Background, as kubectl); false when it did not exist. */
  async delete(ref: ObjectRef & { readonly propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' }): Promise<boolean> {
    const info = await this.index.resolve(ref);
    const response = await this.send('DELETE', resourcePath(info, ref.namespace, ref.name), { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: ref.propagationPolicy ?? 'Background' });
    if (response.status === 404) {
      await response.body?.cancel();
      return false;
    }
    await this.json(response, `delete ${ref.kind} ${JSON.stringify(ref.name)}`);
    return true;
  }

  /**
   * Resolves with the first object of the query for which `predicate` holds:
   * among those listed now (as ADDED), then as a watch reports changes.
   * A watch that ends (the server's timeout, a restore) is resumed with a
   * new list. Rejects after `timeoutMs` naming what it waited for.
   */
  async waitFor(query: ListQuery, predicate: (object: KubeObject, type: WatchEventType) => boolean, options: WaitOptions = {}): Promise<KubeObject> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new Error(`waitFor: no ${query.kind}${query.namespace ? ` in namespace ${query.namespace}` : ''}${query.labelSelector ? ` with labels ${query.labelSelector}` : ''} matched within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.watchUntil(query, predicate, abort.signal), timeout]);
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }

  private async listWithVersion(query: ListQuery): Promise<{ items: KubeObject[]; resourceVersion: string; info: ResourceInfo }> {
    const info = await this.index.resolve(query);
    const params = new URLSearchParams();
    if (query.labelSelector) params.set('labelSelector', query.labelSelector);
    if (query.fieldSelector) params.set('fieldSelector', query.fieldSelector);
    const path = `${resourcePath(info, query.namespace ?? null)}${params.size ? `?${params}` : ''}`;
    const list = (await this.json(await this.send('GET', path), `list ${query.kind}`)) as { items: KubeObject[]; metadata: { resourceVersion: string } };
    // A list's items have no apiVersion and kind of their own: give them the list's.
    const items = list.items.map((item) => ({ ...item, apiVersion: info.apiVersion, kind: info.kind }));
    return { items, resourceVersion: list.metadata.resourceVersion, info };
  }

  private async watchUntil(query: ListQuery, predicate: (object: KubeObject, type: WatchEventType) => boolean, signal: AbortSignal): Promise<KubeObject> {
    while (!signal.aborted) {
      const { items, resourceVersion, info } = await this.listWithVersion(query);
      for (const item of items) if (predicate(item, 'ADDED')) return item;
      const params = new URLSearchParams({ watch: '1', resourceVersion, allowWatchBookmarks: 'true' });
      if (query.labelSelector) params.set('labelSelector', query.labelSelector);
      if (query.fieldSelector) params.set('fieldSelector', query.fieldSelector);
      const response = await this.send('GET', `${resourcePath(info, query.namespace ?? null)}?${params}`);
      if (response.status !== 200 || !response.body) {
        await this.json(response, `watch ${query.kind}`);
        continue;
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
      let pending = '';
      try {
        reading: for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          pending += value;
          for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
            const line = pending.slice(0, nl);
            pending = pending.slice(nl + 1);
            if (!line.trim()) continue;
            const event = JSON.parse(line) as { type: string; object: KubeObject };
            // ERROR (410 Expired): list again.
            if (event.type === 'ERROR') {
              await reader.cancel().catch(() => undefined);
              break reading;
            }
            if (event.type === 'BOOKMARK') continue;
            if (predicate(event.object, event.type as WatchEventType)) {
              await reader.cancel().catch(() => undefined);
              return event.object;
            }
          }
        }
      } catch (error) {
        if (signal.aborted) break;
        throw error;
      }
    }
    throw new Error('waitFor: stopped');
  }
}

/** The objects of a YAML text (documents, `null` ones skipped), its syntax errors named. */
export function objectsOfYaml(text: string): KubeObject[] {
  const objects: KubeObject[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    if (doc.errors.length) throw new Error(`apply: YAML document ${i + 1}: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) return;
    objects.push(value as KubeObject);
  });
  return objects;
}

/** A `kind: List` (kubectl's) stands for its items. */
function listItems(object: KubeObject): KubeObject[] {
  if (object && object.kind === 'List' && Array.isArray(object.items)) return (object.items as KubeObject[]).flatMap(listItems);
  return [object];
}
