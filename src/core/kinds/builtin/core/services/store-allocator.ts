// The server's ServiceAllocator: cluster IPs from --service-cluster-ip-range
// (10.96.0.0/12) and node ports from --service-node-port-range (30000-32767),
// with the stored Services as the record of what is taken. On first use it
// reads every Service from the store and then follows the store's watch, so
// it sees creates, updates and deletes from every path (POST, PUT, apply,
// patch, namespace deletion, garbage collection) and starts again from the
// store after a restart. Requests in flight hold reservations (see
// allocation-book.ts), and claims in the store (shared-claims.ts) settle the
// values in flight between several servers on one store.

import type { MvccStore, KeyValue, WatchHandle } from '../../../../storage/types';
import type { KubeObject, StrategyContext } from '../../../types';
import { SERVICE_ALLOCATOR, type ServiceAllocator } from './allocator';
import { AllocationBook, holdingsOf, type Value } from './allocation-book';
import { Allocation, type AllocationScope } from './allocation';
import { parseIPRange } from './ip-range';
import { parsePortRange } from './port-range';
import { mathRandomInt, type RandomInt } from './random-scan';
import { allocateForCreate, allocateForUpdate } from './service-allocation';
import { SharedClaims } from './shared-claims';

/** Where the API layer keeps core/v1 Services (src/core/api/storage-keys.ts: /registry/<group|core>/<resource>/). */
export { SERVICE_ALLOCATOR };

export const SERVICES_STORAGE_PREFIX = '/registry/core/services/';

export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.96.0.0/12';
export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';

export interface StoreServiceAllocatorOptions {
  /** Random source for dynamic picks (tests pass a fixed one). */
  readonly random?: RandomInt;
  readonly prefix?: string;
}

export interface StoreServiceAllocator extends ServiceAllocator {
  /** Stops following the store. */
  close(): void;
}

function decode(kv: KeyValue): KubeObject | undefined {
  try {
    const obj = JSON.parse(kv.value) as unknown;
    return obj && typeof obj === 'object' && !Array.isArray(obj) ? (obj as KubeObject) : undefined;
  } catch {
    return undefined;
  }
}

function storeKey(prefix: string, svc: KubeObject): string {
  return `${prefix}${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`;
}

/**
 * The allocator for a server. `flags` are kube-apiserver's
 * (service-cluster-ip-range, service-node-port-range).
 */
export function createServiceAllocator(
  store: MvccStore,
  flags: Readonly<Record<string, string>> = {},
  options: StoreServiceAllocatorOptions = {},
): StoreServiceAllocator {
  const prefix = options.prefix ?? SERVICES_STORAGE_PREFIX;
  const book = new AllocationBook();
  const scope: AllocationScope = {
    book,
    ipRange: parseIPRange(flags['service-cluster-ip-range']?.split(',')[0] || DEFAULT_SERVICE_CLUSTER_IP_RANGE),
    portRange: parsePortRange(flags['service-node-port-range'] || DEFAULT_SERVICE_NODE_PORT_RANGE),
    random: options.random ?? mathRandomInt,
    async storedOwner(key) {
      const kv = await store.get(key);
      return kv ? decode(kv)?.metadata?.uid : undefined;
    },
  };
  // Only a store other servers write too (etcd) needs claims; alone on its store a server's reservations suffice.
  const claims = flags['etcd-servers'] ? new SharedClaims(store) : undefined;
  /** The claims each request in flight made, dropped if it fails. */
  const claimed = new WeakMap<object, { owner: string; values: readonly Value[] }>();
  let started: Promise<void> | undefined;
  let watch: WatchHandle | undefined;
  let closed = false;

  function apply(kv: KeyValue): void {
    const svc = decode(kv);
    const uid = svc?.metadata?.uid;
    if (!svc || !uid) return;
    book.stored(kv.key, uid, holdingsOf(svc));
  }

  /** Reads every stored Service, then follows the changes after that read. */
  function start(): Promise<void> {
    started ??= (async () => {
      await store.ready();
      const all = await store.range({ prefix });
      book.clear();
      for (const kv of all.kvs) apply(kv);
      watch = store.watch(
        { prefix, afterRevision: all.revision },
        {
          onEvent(event) {
            if (event.type === 'put') apply(event.kv);
            else book.deleted(event.kv.key);
          },
          onClose() {
            // The store was reset or closed: read it again on the next use.
            watch = undefined;
            started = undefined;
          },
        },
      );
    })().catch((err: unknown) => {
      started = undefined;
      throw err;
    });
    return started;
  }

  async function run(svc: KubeObject, ctx: StrategyContext, creating: boolean, fill: (op: Allocation) => Promise<void>): Promise<void> {
    if (closed) return;
    await start();
    // A retried request (an update after a conflict) starts over.
    book.abandon(ctx);
    releaseClaims(ctx);
    const owner = svc.metadata?.uid ?? '';
    // Filling writes the values into the spec; a retry starts from the spec as it came.
    const asRequested = claims && !ctx.dryRun ? structuredClone(svc.spec) : undefined;
    // Values another server holds a claim on are out of this request's reach: picked again without them.
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) svc.spec = structuredClone(asRequested);
      const reservation = { owner, key: storeKey(prefix, svc), creating, at: ctx.clock.now(), request: ctx };
      const op = new Allocation(scope, reservation, ctx.dryRun);
      try {
        await fill(op);
        if (!claims || ctx.dryRun || op.taken.length === 0) return;
        claimed.set(ctx, { owner, values: [...op.taken] });
        const refused = await claims.claim(op.taken, owner, reservation.at);
        if (refused.length === 0) return;
        book.abandon(ctx);
        releaseClaims(ctx);
        if (attempt >= 5) throw new Error(`cluster IP and node port allocation did not settle with the other API servers: ${refused.join(', ')}`);
        // Held elsewhere for now: reserved for no request of this server until the claim's age runs out.
        book.reserve(refused, { owner: `claimed-elsewhere:${owner}`, key: '', creating: false, at: reservation.at, request: {} });
      } catch (err) {
        book.abandon(ctx);
        releaseClaims(ctx);
        throw err;
      }
    }
  }

  function releaseClaims(ctx: object): void {
    const mine = claimed.get(ctx);
    if (!mine || !claims) return;
    claimed.delete(ctx);
    void claims.release(mine.values, mine.owner).catch(() => undefined);
  }

  return {
    allocate: (svc, ctx) => run(svc, ctx, true, (op) => allocateForCreate(svc, op)),
    allocateOnUpdate: (svc, old, ctx) => run(svc, ctx, false, (op) => allocateForUpdate(svc, old, op)),
    async release(svc) {
      const uid = svc.metadata?.uid;
      if (uid) book.release(uid);
    },
    abandon(ctx) {
      book.abandon(ctx);
      releaseClaims(ctx);
    },
    close() {
      closed = true;
      watch?.cancel();
      watch = undefined;
    },
  };
}
