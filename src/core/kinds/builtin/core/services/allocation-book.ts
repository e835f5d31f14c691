// Who holds which cluster IP and node port. The stored Services are the
// source of truth (kube keeps a bitmap in etcd and a repair loop that rebuilds
// it from the Services; KubeTab rebuilds the same picture from the Services
// directly and keeps it current from the store's watch, so it survives
// restarts and sees every write path). On top of that, requests in flight
// hold *reservations*: values handed out by a create or update that has not
// been stored yet, so that two concurrent requests never get the same value.
//
// A reservation ends when the store shows the owner's write (its values are
// then held for real, or not at all), when its request fails validation
// (`abandon`), when the same request retries, when its create can no longer
// succeed (another object already has the name), or after RESERVATION_TTL_MS
// on the server clock (the way kube's repair loop frees leaked values).

import type { KubeObject } from '../../../types';
import { arr, rec } from '../../common/table';

/** Values live in two spaces: 'ip:10.96.0.1' and 'port:30080'. */
export type Value = `ip:${string}` | `port:${number}`;

export const ipValue = (ip: string): Value => `ip:${ip}`;
export const portValue = (port: number): Value => `port:${port}`;

/** A reservation outlives a lost request at most this long. */
export const RESERVATION_TTL_MS = 60_000;

export interface Reservation {
  /** uid of the Service the values are for. */
  readonly owner: string;
  /** Store key of that Service. */
  readonly key: string;
  /** True for a create: if another object holds the key, the create cannot succeed. */
  readonly creating: boolean;
  /** Server clock when reserved. */
  readonly at: number;
  /** The request (its StrategyContext) that made it. */
  readonly request: object;
}

/** The cluster IPs and node ports a stored Service holds. */
export function holdingsOf(svc: KubeObject): Value[] {
  const spec = rec(svc.spec);
  const out: Value[] = [];
  if (spec.type !== 'ExternalName') {
    const ips = arr(spec.clusterIPs).length ? arr(spec.clusterIPs) : [spec.clusterIP];
    for (const ip of ips) if (typeof ip === 'string' && ip && ip !== 'None') out.push(ipValue(ip));
  }
  for (const p of arr(spec.ports).map(rec)) if (typeof p.nodePort === 'number' && p.nodePort !== 0) out.push(portValue(p.nodePort));
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort !== 0) out.push(portValue(spec.healthCheckNodePort));
  return [...new Set(out)];
}

export class AllocationBook {
  /** value → uids of stored Services holding it (normally one). */
  private readonly held = new Map<Value, Set<string>>();
  /** uid → values it holds in the store. */
  private readonly byOwner = new Map<string, Set<Value>>();
  /** store key → uid, to know whose values a delete frees. */
  private readonly ownerOfKey = new Map<string, string>();
  private readonly reserved = new Map<Value, Reservation>();

  clear(): void {
    this.held.clear();
    this.byOwner.clear();
    this.ownerOfKey.clear();
    this.reserved.clear();
  }

  /** A Service as stored now: it holds exactly `values`; its own reservations are settled. */
  stored(key: string, uid: string, values: readonly Value[]): void {
    const previous = this.ownerOfKey.get(key);
    if (previous !== undefined && previous !== uid) this.removeOwner(previous);
    this.ownerOfKey.set(key, uid);
    this.removeOwner(uid);
    const mine = new Set(values);
    this.byOwner.set(uid, mine);
    for (const v of mine) {
      let owners = this.held.get(v);
      if (!owners) this.held.set(v, (owners = new Set()));
      owners.add(uid);
    }
    this.dropReservations((r) => r.owner === uid);
  }

  /** A Service left the store: everything it held is free. */
  deleted(key: string): void {
    const uid = this.ownerOfKey.get(key);
    this.ownerOfKey.delete(key);
    if (uid !== undefined) this.release(uid);
  }

  /** Frees what a Service holds or has reserved. */
  release(uid: string): void {
    this.removeOwner(uid);
    this.dropReservations((r) => r.owner === uid);
  }

  /** Drops the reservations a request made (it failed, or is being retried). */
  abandon(request: object): void {
    this.dropReservations((r) => r.request === request);
  }

  reserve(values: readonly Value[], reservation: Reservation): void {
    for (const v of values) this.reserved.set(v, reservation);
  }

  /** Stored holders of a value other than `owner`. */
  heldByOthers(value: Value, owner: string): boolean {
    const owners = this.held.get(value);
    if (!owners) return false;
    for (const o of owners) if (o !== owner) return true;
    return false;
  }

  /** Another request's reservation of a value, if any. */
  reservationOf(value: Value, owner: string): Reservation | undefined {
    const r = this.reserved.get(value);
    return r && r.owner !== owner ? r : undefined;
  }

  forget(value: Value): void {
    this.reserved.delete(value);
  }

  /** For random picks: taken by anyone else, stored or reserved (stale reservations count; the range is large). */
  busy(value: Value, owner: string): boolean {
    return this.heldByOthers(value, owner) || this.reservationOf(value, owner) !== undefined;
  }

  private removeOwner(uid: string): void {
    const mine = this.byOwner.get(uid);
    if (!mine) return;
    this.byOwner.delete(uid);
    for (const v of mine) {
      const owners = this.held.get(v);
      owners?.delete(uid);
      if (owners && owners.size === 0) this.held.delete(v);
    }
  }

  private dropReservations(match: (r: Reservation) => boolean): void {
    for (const [v, r] of this.reserved) if (match(r)) this.reserved.delete(v);
  }
}
