// The RBAC objects as the authorizer reads them: kept in memory from the
// store (one range read at start, then the store's watch), as kube-apiserver
// keeps them in informer caches. The store delivers a change to watchers
// before the write returns, so a request that follows a write sees it.
//
// Lists are rebuilt lazily and only for what changed: the same array instance
// is returned while nothing changed, which lets RBAC reuse its subject index.
// Corrupt records are skipped (they cannot grant anything).

import type { ClusterRole, ClusterRoleBinding, RbacSource, Role, RoleBinding } from '../../auth';
import type { KeyValue, MvccStore, StoreEvent, WatchHandle } from '../../storage/types';

const ROOT = '/registry/rbac.authorization.k8s.io/';
const RESOURCES = ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'] as const;
type RbacResource = (typeof RESOURCES)[number];

export interface StoreRbacSource extends RbacSource {
  /** Resolves when the objects stored at start are loaded; the first ask starts the load. */
  readonly ready: Promise<void>;
  getClusterRoleBinding(name: string): ClusterRoleBinding | undefined;
  getRoleBinding(namespace: string, name: string): RoleBinding | undefined;
  listClusterRoles(): readonly ClusterRole[];
  /** Bumps on every change (for caches layered on top). */
  readonly generation: number;
  stop(): void;
}

const EMPTY: readonly never[] = Object.freeze([]);

/** Parses a stored object (through the server's decode cache, which a write has usually filled already). */
function parser(decode?: (kv: KeyValue) => unknown): (kv: KeyValue) => Record<string, unknown> | undefined {
  return (kv) => {
    try {
      const o = decode ? decode(kv) : (JSON.parse(kv.value) as unknown);
      return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
}

/** Splits /registry/rbac.authorization.k8s.io/<resource>/[<ns>/]<name>. */
function locate(key: string): { resource: RbacResource; namespace: string; name: string } | undefined {
  if (!key.startsWith(ROOT)) return undefined;
  const parts = key.slice(ROOT.length).split('/');
  const resource = parts[0] as RbacResource;
  if (!RESOURCES.includes(resource)) return undefined;
  const namespaced = resource === 'roles' || resource === 'rolebindings';
  if (namespaced && parts.length === 3) return { resource, namespace: parts[1]!, name: parts[2]! };
  if (!namespaced && parts.length === 2) return { resource, namespace: '', name: parts[1]! };
  return undefined;
}

/** Objects of one resource, by namespace then name, with a cached list per namespace. */
class Table<T> {
  private readonly byNs = new Map<string, Map<string, T>>();
  private readonly lists = new Map<string, readonly T[]>();
  private all: readonly T[] | undefined;

  get(ns: string, name: string): T | undefined {
    return this.byNs.get(ns)?.get(name);
  }

  set(ns: string, name: string, value: T | undefined): void {
    let m = this.byNs.get(ns);
    if (value === undefined) {
      if (!m?.delete(name)) return;
      if (m.size === 0) this.byNs.delete(ns);
    } else {
      if (!m) this.byNs.set(ns, (m = new Map()));
      m.set(name, value);
    }
    this.lists.delete(ns);
    this.all = undefined;
  }

  list(ns: string): readonly T[] {
    let l = this.lists.get(ns);
    if (!l) {
      const m = this.byNs.get(ns);
      l = m ? [...m.values()] : (EMPTY as readonly T[]);
      this.lists.set(ns, l);
    }
    return l;
  }

  listAll(): readonly T[] {
    this.all ??= [...this.byNs.values()].flatMap((m) => [...m.values()]);
    return this.all;
  }
}

/** `decode` shares parsed objects with the server (they are never mutated here). */
export function createStoreRbacSource(store: MvccStore, decode?: (kv: KeyValue) => unknown): StoreRbacSource {
  const parse = parser(decode);
  const tables = {
    clusterroles: new Table<ClusterRole>(),
    clusterrolebindings: new Table<ClusterRoleBinding>(),
    roles: new Table<Role>(),
    rolebindings: new Table<RoleBinding>(),
  };
  let generation = 0;
  let handle: WatchHandle | undefined;
  let stopped = false;

  function apply(kv: KeyValue, deleted: boolean): void {
    const at = locate(kv.key);
    if (!at) return;
    const table = tables[at.resource] as Table<unknown>;
    table.set(at.namespace, at.name, deleted ? undefined : parse(kv));
    generation++;
  }

  // Started when first asked for (`ready`): a start whose requests are all
  // system:masters' never reads these. No wait for the store's full load: a
  // range at the current revision is answered from the persistence before it
  // (docs/decisions/0131), and it is the complete current state then (nothing
  // is written before the load ends), so the first request is authorized
  // against every stored RBAC object without waiting for every other object.
  const load = async () => {
    const { kvs, revision } = await store.range({ prefix: ROOT });
    for (const kv of kvs) apply(kv, false);
    if (stopped) return;
    handle = store.watch(
      { prefix: ROOT, afterRevision: revision },
      {
        onEvent: (e: StoreEvent) => apply(e.kv, e.type === 'delete'),
        // A store that drops the watch (closed, wiped) leaves the last known state; reload it.
        onClose: () => {
          handle = undefined;
        },
      },
    );
  };
  let loading: Promise<void> | undefined;

  return {
    get ready() {
      return (loading ??= load());
    },
    get generation() {
      return generation;
    },
    listClusterRoleBindings: () => tables.clusterrolebindings.list(''),
    listRoleBindings: (namespace) => tables.rolebindings.list(namespace),
    getClusterRole: (name) => tables.clusterroles.get('', name),
    getRole: (namespace, name) => tables.roles.get(namespace, name),
    getClusterRoleBinding: (name) => tables.clusterrolebindings.get('', name),
    getRoleBinding: (namespace, name) => tables.rolebindings.get(namespace, name),
    listClusterRoles: () => tables.clusterroles.list(''),
    stop() {
      stopped = true;
      handle?.cancel();
      handle = undefined;
    },
  };
}
