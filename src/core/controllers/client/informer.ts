// list + watch of one resource into a local cache, as client-go's reflector
// and informer do: list, then watch from the list's resourceVersion (with
// bookmarks), resume from the last seen resourceVersion when a watch ends,
// and list again when the server answers 410 Gone. A relist is compared with
// the cache so that handlers see the adds, updates and deletes they missed.

import type { KubeObject } from '../../kinds/types';
import type { Activity } from '../runtime/activity';
import type { ApiClient } from './api-client';
import { errorMessage, isGone } from './api-error';
import type { GroupVersionResource } from './resource-path';
import type { WatchStream } from './watch-stream';

export interface InformerHandlers {
  onAdd?(obj: KubeObject): void;
  onUpdate?(old: KubeObject, obj: KubeObject): void;
  onDelete?(obj: KubeObject): void;
}

export interface InformerOptions {
  /** Keep only apiVersion, kind and metadata (without managedFields), like a metadata informer. */
  readonly metadataOnly?: boolean;
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly log?: (message: string) => void;
}

const RETRY_MS = [10, 50, 200, 1000, 5000];

export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name ?? ''}` : (obj.metadata?.name ?? '');
}

function slim(obj: KubeObject): KubeObject {
  const metadata = { ...(obj.metadata ?? {}) };
  delete metadata.managedFields;
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata };
}

export class Informer {
  private readonly cache = new Map<string, KubeObject>();
  private readonly handlers = new Set<InformerHandlers>();
  private stopped = false;
  private readonly aborter = new AbortController();
  private stream: WatchStream | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wake: (() => void) | undefined;
  private syncedResolve!: () => void;
  private running: Promise<void> | undefined;
  private failures = 0;
  /** Resolves after the first successful list has been delivered. */
  readonly synced: Promise<void>;
  hasSynced = false;

  constructor(
    private readonly client: ApiClient,
    readonly gvr: GroupVersionResource,
    private readonly activity: Activity,
    private readonly options: InformerOptions = {},
  ) {
    this.synced = new Promise((resolve) => (this.syncedResolve = resolve));
  }

  addHandler(handlers: InformerHandlers): () => void {
    this.handlers.add(handlers);
    // A handler added late sees the current state as adds, as with client-go's AddEventHandler.
    if (this.hasSynced) for (const obj of this.cache.values()) handlers.onAdd?.(obj);
    return () => this.handlers.delete(handlers);
  }

  get(namespace: string, name: string): KubeObject | undefined {
    return this.cache.get(namespace ? `${namespace}/${name}` : name);
  }

  list(namespace?: string): KubeObject[] {
    const all = [...this.cache.values()];
    return namespace === undefined ? all : all.filter((o) => (o.metadata?.namespace ?? '') === namespace);
  }

  start(): void {
    if (!this.running) this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.aborter.abort();
    this.stream?.cancel();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.wake?.();
    await this.running?.catch(() => undefined);
  }

  private log(message: string): void {
    this.options.log?.(`informer ${this.gvr.group || 'core'}/${this.gvr.version}/${this.gvr.resource}: ${message}`);
  }

  private pause(): Promise<void> {
    const ms = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)]!;
    this.failures++;
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }

  private shape(obj: KubeObject): KubeObject {
    return this.options.metadataOnly ? slim(obj) : obj;
  }

  private emit(fn: (h: InformerHandlers) => void): void {
    for (const h of [...this.handlers]) {
      try {
        fn(h);
      } catch (err) {
        this.log(`handler failed: ${errorMessage(err)}`);
      }
    }
  }

  private selectors(): Record<string, string | undefined> {
    return { labelSelector: this.options.labelSelector, fieldSelector: this.options.fieldSelector };
  }

  /** Lists and replaces the cache; returns the list's resourceVersion. */
  private async relist(): Promise<string> {
    const end = this.activity.begin();
    try {
      const list = await this.client.list(this.gvr, this.options.namespace, this.selectors(), this.options.metadataOnly);
      const seen = new Set<string>();
      for (const raw of list.items) {
        const obj = this.shape(raw);
        const key = objectKey(obj);
        seen.add(key);
        const old = this.cache.get(key);
        this.cache.set(key, obj);
        if (!old) this.emit((h) => h.onAdd?.(obj));
        else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) this.emit((h) => h.onUpdate?.(old, obj));
      }
      for (const [key, old] of [...this.cache]) {
        if (seen.has(key)) continue;
        this.cache.delete(key);
        this.emit((h) => h.onDelete?.(old));
      }
      if (!this.hasSynced) {
        this.hasSynced = true;
        this.syncedResolve();
      }
      return list.metadata.resourceVersion ?? '';
    } finally {
      end();
    }
  }

  private apply(type: string, raw: KubeObject): void {
    const obj = this.shape(raw);
    const key = objectKey(obj);
    const old = this.cache.get(key);
    if (type === 'DELETED') {
      this.cache.delete(key);
      this.emit((h) => h.onDelete?.(old ?? obj));
      return;
    }
    this.cache.set(key, obj);
    if (old) this.emit((h) => h.onUpdate?.(old, obj));
    else this.emit((h) => h.onAdd?.(obj));
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let rv: string;
      try {
        rv = await this.relist();
      } catch (err) {
        if (this.stopped) return;
        this.log(`list failed: ${errorMessage(err)}`);
        await this.pause();
        continue;
      }
      this.failures = 0;
      // Watch from rv until the server says the history is gone.
      let relist = false;
      while (!this.stopped && !relist) {
        let failed = false;
        try {
          this.stream = await this.client.watch(this.gvr, this.options.namespace, {
            ...this.selectors(),
            resourceVersion: rv,
            allowWatchBookmarks: true,
          }, this.aborter.signal, this.options.metadataOnly);
        } catch (err) {
          if (this.stopped) return;
          if (isGone(err)) break;
          this.log(`watch failed: ${errorMessage(err)}`);
          await this.pause();
          continue;
        }
        for (;;) {
          const event = await this.stream.next();
          if (!event || this.stopped) break;
          const end = this.activity.begin();
          try {
            if (event.type === 'ERROR') {
              const status = event.object as { code?: number; message?: string };
              if (status.code === 410) relist = true;
              else {
                failed = true;
                this.log(`watch error: ${status.message ?? JSON.stringify(status)}`);
              }
              break;
            }
            rv = event.object.metadata?.resourceVersion ?? rv;
            if (event.type !== 'BOOKMARK') this.apply(event.type, event.object);
          } finally {
            end();
          }
        }
        this.stream.cancel();
        if (failed && !this.stopped) await this.pause();
        else this.failures = 0;
      }
    }
  }
}
