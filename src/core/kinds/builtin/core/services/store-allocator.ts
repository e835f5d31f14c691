// The server's ServiceAllocator: cluster IPs from --service-cluster-ip-range
// (10.96.0.0/12) and node ports from --service-node-port-range (30000-32767),
// with the stored Services as the record of what is taken. On first use it
// reads every Service from the store and then follows the store's watch, so
// it sees creates, updates and deletes from every path (POST, PUT, apply,
// patch, namespace deletion, garbage collection) and starts again from the
// store after a restart. Requests in flight hold reservations (see
// allocation-book.ts).

import type { MvccStore, KeyValue, WatchHandle } from '../../../../storage/types';
import type { KubeObject, StrategyContext } from '../../../types';
import { SERVICE_ALLOCATOR, type ServiceAllocator } from './allocator';
import { AllocationBook, holdingsOf } from './allocation-book';
import { Allocation, type AllocationScope } from './allocation';
import { parseIPRange } from './ip-range';
import { parsePortRange } from './port-range';
import { mathRandomInt, type RandomInt } from './random-scan';
import { allocateForCreate, allocateForUpdate } from './service-allocation';

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
    const reservation = { owner: svc.metadata?.uid ?? '', key: storeKey(prefix, svc), creating, at: ctx.clock.now(), request: ctx };
    try {
      await fill(new Allocation(scope, reservation, ctx.dryRun));
    } catch (err) {
      book.abandon(ctx);
      throw err;
    }
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
    },
    close() {
      closed = true;
      watch?.cancel();
      watch = undefined;
    },
  };
}
