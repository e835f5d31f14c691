// List-then-watch, as client-go's reflector does it: list (in pages), then
// watch from the list's resourceVersion; when a watch ends, resume from the
// last resourceVersion seen (bookmarks included); on 410 Gone, list again.
// No polling. Events are applied to a keyed map at once but published to
// React at most once per frame, so 100 events a second cost a few renders.

import { apiFetch, errorFrom, type Query } from './client';
import { TABLE_ACCEPT, type KubeList, type KubeObject, type Status, type Table, type TableColumnDefinition, type WatchEvent } from './types';
import { readWatchEvents } from './watch-stream';

export type ListWatchMode = 'table' | 'object';

export interface ListWatchOptions {
  /** Collection path, e.g. /api/v1/namespaces/default/configmaps. */
  readonly path: string;
  readonly mode: ListWatchMode;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Page size of the initial list (limit/continue). */
  readonly pageSize?: number;
}

export interface ListWatchEntry {
  readonly key: string;
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly resourceVersion: string;
  /** Table cells (table mode). */
  readonly cells: readonly unknown[] | null;
  /** The object (object mode) or its PartialObjectMetadata (table mode). */
  readonly object: KubeObject;
}

export type ListWatchPhase = 'listing' | 'watching' | 'relisting' | 'error' | 'stopped';

export interface ListWatchSnapshot {
  readonly phase: ListWatchPhase;
  readonly error: string | null;
  readonly resourceVersion: string;
  readonly columns: readonly TableColumnDefinition[];
  /** The objects in display order (namespace, then name), as of this snapshot. */
  readonly items: readonly ListWatchEntry[];
  /** Watch events received since the start. */
  readonly events: number;
  /** How many times the list was (re)loaded. */
  readonly lists: number;
}

const EMPTY: ListWatchSnapshot = {
  phase: 'listing',
  error: null,
  resourceVersion: '',
  columns: [],
  items: [],
  events: 0,
  lists: 0,
};

function sortKey(namespace: string, name: string): string {
  return `${namespace}\u0000${name}`;
}

export class ListWatch {
  private snapshot: ListWatchSnapshot = EMPTY;
  private readonly listeners = new Set<() => void>();
  private abort = new AbortController();
  private entries = new Map<string, ListWatchEntry>();
  /** Sorted [sortKey, key] pairs: binary insertion keeps order without re-sorting. */
  private order: Array<[string, string]> = [];
  private columns: TableColumnDefinition[] = [];
  private resourceVersion = '';
  private phase: ListWatchPhase = 'listing';
  private error: string | null = null;
  private events = 0;
  private lists = 0;
  private scheduled = false;
  /** Events applied since the last publish of items. */
  private dirty = false;
  private started = false;

  constructor(private readonly options: ListWatchOptions) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ListWatchSnapshot => this.snapshot;

  /** Starts (or, after stop(), restarts and resumes) the list-watch loop. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.abort = new AbortController();
    void this.run(this.abort.signal);
  }

  stop(): void {
    this.started = false;
    this.abort.abort();
  }

  private get accept(): string {
    return this.options.mode === 'table' ? TABLE_ACCEPT : 'application/json';
  }

  private baseQuery(): Query {
    return { labelSelector: this.options.labelSelector, fieldSelector: this.options.fieldSelector };
  }

  private async run(signal: AbortSignal): Promise<void> {
    let backoff = 500;
    while (!signal.aborted) {
      try {
        if (!this.resourceVersion) await this.list(signal);
        await this.watch(signal);
        backoff = 500;
      } catch (error) {
        if (signal.aborted) return;
        this.phase = 'error';
        this.error = error instanceof Error ? error.message : String(error);
        this.publish();
        await new Promise((resolve) => setTimeout(resolve, backoff));
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  private async list(signal: AbortSignal): Promise<void> {
    this.phase = this.lists === 0 ? 'listing' : 'relisting';
    this.publish();
    const next = new Map<string, ListWatchEntry>();
    let columns: TableColumnDefinition[] = this.columns;
    let continueToken = '';
    let resourceVersion = '';
    do {
      const response = await apiFetch(this.options.path, {
        query: { ...this.baseQuery(), limit: this.options.pageSize ?? 500, continue: continueToken },
        headers: { accept: this.accept },
        signal,
      });
      if (!response.ok) throw await errorFrom(response);
      const body = (await response.json()) as Table | KubeList;
      if (body.kind === 'Table') {
        const table = body as Table;
        if (table.columnDefinitions) columns = table.columnDefinitions;
        for (const row of table.rows ?? []) {
          const entry = this.entryFrom(row.object ?? {}, row.cells);
          next.set(entry.key, entry);
        }
      } else {
        const list = body as KubeList;
        // Items of a built-in list carry no apiVersion/kind: take them from the list.
        const kind = list.kind?.replace(/List$/, '');
        for (const item of list.items ?? []) {
          const object = item.kind ? item : { apiVersion: list.apiVersion, kind, ...item };
          const entry = this.entryFrom(object, null);
          next.set(entry.key, entry);
        }
      }
      continueToken = body.metadata?.continue ?? '';
      resourceVersion = body.metadata?.resourceVersion ?? resourceVersion;
    } while (continueToken);
    this.entries = next;
    this.order = [...next.values()].map((e): [string, string] => [sortKey(e.namespace, e.name), e.key]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.columns = columns;
    this.resourceVersion = resourceVersion;
    this.lists += 1;
    this.error = null;
    this.publish(true);
  }

  private async watch(signal: AbortSignal): Promise<void> {
    const response = await apiFetch(this.options.path, {
      query: { ...this.baseQuery(), watch: 'true', resourceVersion: this.resourceVersion, allowWatchBookmarks: 'true' },
      headers: { accept: this.accept },
      signal,
    });
    if (response.status === 410) {
      // Too old to resume from: list again.
      this.resourceVersion = '';
      await response.body?.cancel();
      return;
    }
    if (!response.ok) throw await errorFrom(response);
    this.phase = 'watching';
    this.error = null;
    this.publish();
    for await (const event of readWatchEvents<KubeObject | Table | Status>(response)) {
      if (signal.aborted) return;
      if (this.handle(event) === 'relist') {
        this.resourceVersion = '';
        return;
      }
    }
    // The server ended the watch (its timeout): the loop resumes from resourceVersion.
  }

  private handle(event: WatchEvent<KubeObject | Table | Status>): 'relist' | void {
    if (event.type === 'ERROR') {
      const status = event.object as Status;
      if (status.code === 410) return 'relist';
      throw new Error(status.message ?? 'watch error');
    }
    const rv = (event.object as KubeObject).metadata?.resourceVersion;
    if (event.type === 'BOOKMARK') {
      if (rv) this.resourceVersion = rv;
      return;
    }
    this.events += 1;
    let object: KubeObject;
    let cells: unknown[] | null = null;
    if ((event.object as Table).kind === 'Table') {
      const row = (event.object as Table).rows?.[0];
      if (!row) return;
      object = row.object ?? {};
      cells = row.cells;
      if (rv) this.resourceVersion = rv;
    } else {
      object = event.object as KubeObject;
      if (rv) this.resourceVersion = rv;
    }
    const entry = this.entryFrom(object, cells);
    if (event.type === 'DELETED') this.remove(entry);
    else this.upsert(entry);
    this.dirty = true;
    this.schedule();
  }

  private upsert(entry: ListWatchEntry): void {
    const existed = this.entries.has(entry.key);
    this.entries.set(entry.key, entry);
    if (existed) return;
    const sk = sortKey(entry.namespace, entry.name);
    this.order.splice(this.position(sk), 0, [sk, entry.key]);
  }

  private remove(entry: ListWatchEntry): void {
    if (!this.entries.delete(entry.key)) return;
    const sk = sortKey(entry.namespace, entry.name);
    let at = this.position(sk);
    while (at < this.order.length && this.order[at]![1] !== entry.key && this.order[at]![0] === sk) at++;
    if (this.order[at]?.[1] === entry.key) this.order.splice(at, 1);
    else this.order = this.order.filter(([, key]) => key !== entry.key);
  }

  /** First index whose sort key is >= sk. */
  private position(sk: string): number {
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.order[mid]![0] < sk) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private entryFrom(object: KubeObject, cells: readonly unknown[] | null): ListWatchEntry {
    const meta = object.metadata ?? {};
    const name = meta.name ?? '';
    const namespace = meta.namespace ?? '';
    return {
      key: meta.uid || `${namespace}/${name}`,
      name,
      namespace,
      uid: meta.uid ?? '',
      resourceVersion: meta.resourceVersion ?? '',
      cells,
      object,
    };
  }

  /** Coalesces updates: one publish per animation frame (or 50 ms when hidden). */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const flush = () => {
      this.scheduled = false;
      this.publish(true);
    };
    if (typeof document !== 'undefined' && document.visibilityState === 'visible' && typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
    else setTimeout(flush, 50);
  }

  private publish(contentChanged = false): void {
    if (this.abort.signal.aborted) return;
    const previous = this.snapshot;
    // A phase change publishes pending events too: counts and items agree.
    contentChanged ||= this.dirty;
    this.dirty = false;
    this.snapshot = {
      phase: this.phase,
      error: this.error,
      resourceVersion: this.resourceVersion,
      columns: this.columns,
      // An ordered array per publish (cheaper than copying a Map of 10,000 each
      // frame); entries are replaced, never mutated, so a row's identity still
      // tells whether it changed.
      items: contentChanged ? this.order.map(([, key]) => this.entries.get(key)!) : previous.items,
      events: this.events,
      lists: this.lists,
    };
    for (const listener of this.listeners) listener();
  }
}
