// Claims on cluster IPs and node ports in the store, so that several API
// servers on one store (etcd) never hand out the same value. kube-apiserver
// serialises its allocations through a compare-and-swap on the range's
// bitmap in etcd (/registry/ranges/serviceips, …/servicenodeports); KubeTab's
// allocator knows what is taken from the stored Services (allocation-book.ts)
// and only needs to settle the values in flight, which one server's
// reservations cannot do for another's. Each value a request takes is
// claimed with a create of `<CLAIMS_PREFIX><value>`: the store lets exactly
// one server create it. A claim outlives its request at most
// RESERVATION_TTL_MS (by then the Service is stored and holds the value, or
// the request failed); an older claim is taken over with a compare-and-swap.
// A server deletes its own claims once its request has ended.

import { KeyExistsError, NotFoundError, ConflictError, type KeyValue, type MvccStore } from '../../../../storage/types';
import { RESERVATION_TTL_MS, type Value } from './allocation-book';

/** Not an API object: the etcd layout keeps such records in KubeTab's own area. */
export const CLAIMS_PREFIX = '/kubetab/service-allocations/';

interface Claim {
  /** uid of the Service the value was taken for. */
  readonly owner: string;
  /** Server clock when claimed. */
  readonly at: number;
}

function parseClaim(kv: KeyValue): Claim | undefined {
  try {
    const claim = JSON.parse(kv.value) as Partial<Claim>;
    return typeof claim.owner === 'string' && typeof claim.at === 'number' ? (claim as Claim) : undefined;
  } catch {
    return undefined;
  }
}

export class SharedClaims {
  constructor(private readonly store: MvccStore) {}

  /**
   * Claims every value for `owner`; returns those another owner holds a live claim on (none: all
   * are this owner's now). Values claimed before a refusal stay claimed: release() drops them.
   */
  async claim(values: readonly Value[], owner: string, now: number): Promise<Value[]> {
    const refused: Value[] = [];
    const text = JSON.stringify({ owner, at: now } satisfies Claim);
    for (const value of values) {
      const key = CLAIMS_PREFIX + value;
      for (let attempt = 0; ; attempt++) {
        try {
          await this.store.create(key, () => text);
          break;
        } catch (err) {
          if (!(err instanceof KeyExistsError)) throw err;
        }
        const current = await this.store.get(key);
        if (!current) continue; // deleted meanwhile: create again
        const claim = parseClaim(current);
        if (claim && claim.owner === owner) break;
        if (claim && now - claim.at < RESERVATION_TTL_MS) {
          refused.push(value);
          break;
        }
        // A claim whose request is long over: take it, unless another server took it first.
        try {
          await this.store.update(key, current.modRevision, () => text);
          break;
        } catch (err) {
          if (!(err instanceof ConflictError || err instanceof NotFoundError) || attempt > 3) throw err;
        }
      }
    }
    return refused;
  }

  /** Drops this owner's claims on `values` (its request ended: stored, or failed). */
  async release(values: readonly Value[], owner: string): Promise<void> {
    for (const value of values) {
      const key = CLAIMS_PREFIX + value;
      const current = await this.store.get(key);
      if (!current || parseClaim(current)?.owner !== owner) continue;
      try {
        await this.store.delete(key, current.modRevision);
      } catch (err) {
        if (!(err instanceof ConflictError || err instanceof NotFoundError)) throw err;
      }
    }
  }
}
