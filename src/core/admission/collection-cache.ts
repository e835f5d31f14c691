// The configuration collections admission reads on every write — policies and
// their bindings, webhook configurations, namespaces, LimitRanges,
// ResourceQuotas, the class objects — kept in memory per server from one range
// read and then the store's watch, as kube-apiserver keeps them in informer
// caches (decision 0320). Unlike an informer, the cache never lags: the store
// delivers a change to its live watchers before the write returns, so a
// request that follows a write sees it.
//
// A collection is served from memory only once its watch is live (its
// catch-up replay has run; the store runs it in the microtask queued by
// watch()); before that, and after the store drops the watch (wipe, close),
// readers fall back to reading the store, and the collection starts again.

import type { ServerContext } from '../api/context';
import type { ServedResource } from '../api/registry';
import { decode, prefixFor } from '../api/resource-store';
import type { KubeObject } from '../kinds/types';
import type { KeyValue, WatchHandle } from '../storage/types';
import type { CachedCollection } from './types';

/** The group/resources kept in memory (the collections plugins read for every write, or for every pod). */
export const CACHED_COLLECTIONS: readonly { group: string; resource: string }[] = [
  { group: '', resource: 'namespaces' },
  { group: '', resource: 'limitranges' },
  { group: '', resource: 'resourcequotas' },
  { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' },
  { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings' },
  { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations' },
  { group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
  { group: 'scheduling.k8s.io', resource: 'priorityclasses' },
  { group: 'storage.k8s.io', resource: 'storageclasses' },
  { group: 'networking.k8s.io', resource: 'ingressclasses' },
  { group: 'node.k8s.io', resource: 'runtimeclasses' },
];

interface Entry {
  readonly kv: KeyValue;
  /** Decoded on first read (through the server's decode cache, which the write has usually filled). */
  object?: KubeObject;
}

const EMPTY: readonly KubeObject[] = Object.freeze([]);

/** One collection (all namespaces of one resource), current while `live`. */
class Collection implements CachedCollection {
  private entries = new Map<string, Entry>();
  /** Sorted key lists per list prefix, dropped on any change. */
  private lists = new Map<string, readonly KubeObject[]>();
  private handle: WatchHandle | undefined;
  /** Bumps on every (re)start and reset, so that a superseded start does nothing. */
  private epoch = 0;
  private starting = false;
  live = false;

  constructor(
    private readonly ctx: ServerContext,
    readonly served: ServedResource,
  ) {}

  /** Begins loading once the store has loaded (a watch's replay waits for that; decision 0131's early reads fall back meanwhile). */
  start(): void {
    if (this.starting || this.live) return;
    this.starting = true;
    const epoch = ++this.epoch;
    const store = this.ctx.store;
    const prefix = prefixFor(this.served, '');
    void store
      .ready()
      .then(() => store.range({ prefix }))
      .then(({ kvs, revision }) => {
        if (epoch !== this.epoch) return;
        const handle = store.watch(
          { prefix, afterRevision: revision },
          {
            onEvent: (event) => {
              if (epoch !== this.epoch) return;
              if (event.type === 'delete') this.entries.delete(event.kv.key);
              else this.entries.set(event.kv.key, { kv: event.kv });
              if (this.lists.size) this.lists = new Map();
            },
            onClose: () => {
              if (epoch === this.epoch) this.reset();
            },
          },
        );
        this.handle = handle;
        this.entries = new Map(kvs.map((kv) => [kv.key, { kv }]));
        this.lists = new Map();
        // The store replays what was committed since `revision` in the microtask watch() queued;
        // this one runs after it, and from then on every change arrives before its write returns.
        queueMicrotask(() => {
          if (epoch !== this.epoch) return;
          this.starting = false;
          this.live = true;
        });
      })
      .catch(() => {
        // A store that could not load, or a compaction between the range and the watch: read the store, try again later.
        if (epoch === this.epoch) this.reset();
      });
  }

  /** Forgets everything; the next read starts again. */
  reset(): void {
    this.epoch++;
    this.handle?.cancel();
    this.handle = undefined;
    this.entries = new Map();
    this.lists = new Map();
    this.starting = false;
    this.live = false;
  }

  private objectOf(entry: Entry): KubeObject {
    return (entry.object ??= decode(this.ctx, this.served, entry.kv));
  }

  get(namespace: string, name: string): KubeObject | undefined {
    const entry = this.entries.get(prefixFor(this.served, namespace) + name);
    return entry && this.objectOf(entry);
  }

  /** The objects under one namespace ('' all), in key order as a store range returns them. Shared: callers copy before sorting. */
  list(namespace: string): readonly KubeObject[] {
    if (this.entries.size === 0) return EMPTY;
    const prefix = prefixFor(this.served, namespace);
    let list = this.lists.get(prefix);
    if (!list) {
      const keys = [...this.entries.keys()].filter((k) => k.startsWith(prefix)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      list = keys.map((k) => this.objectOf(this.entries.get(k)!));
      this.lists.set(prefix, list);
    }
    return list;
  }
}

/** The server's cached collections; `undefined` from `collection` means "read the store". */
export class AdmissionCollections {
  private readonly byResource = new Map<string, Collection | null>();

  constructor(private readonly ctx: ServerContext) {}

  /** The live collection of this resource, or undefined (not cached, not served, or not live yet — which starts it). */
  collection(group: string, resource: string): CachedCollection | undefined {
    const id = `${group}/${resource}`;
    let c = this.byResource.get(id);
    if (c === undefined) {
      const cached = CACHED_COLLECTIONS.some((gr) => gr.group === group && gr.resource === resource);
      const served = cached ? this.ctx.registry.lookupGroupResource(group, resource) : undefined;
      c = served ? new Collection(this.ctx, served) : null;
      this.byResource.set(id, c);
    }
    if (!c) return undefined;
    if (c.live) return c;
    c.start();
    return undefined;
  }

  /** Stops every watch (tests; a server that stops). */
  stop(): void {
    for (const c of this.byResource.values()) c?.reset();
    this.byResource.clear();
  }
}

// One per server: per-request contexts are copies of the server's that share its services record.
const perServer = new WeakMap<object, AdmissionCollections>();

export function admissionCollectionsOf(ctx: ServerContext): AdmissionCollections {
  let c = perServer.get(ctx.services);
  if (!c) {
    c = new AdmissionCollections(ctx);
    perServer.set(ctx.services, c);
  }
  return c;
}
