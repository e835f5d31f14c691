// One request's allocations (kube's allocation "transaction"): each value is
// checked and reserved in one synchronous step, so concurrent requests never
// get the same one; the caller drops the request's reservations when its
// allocation or validation fails, so a failure half-way holds nothing.
// A dry run checks what kube's dry-run allocators check and hands out the
// same placeholder values they do (the range's network address; node ports
// counting up from 32769), reserving nothing.

import { RESERVATION_TTL_MS, ipValue, portValue, type AllocationBook, type Reservation, type Value } from './allocation-book';
import type { IPRange } from './ip-range';
import type { PortRange } from './port-range';
import { randomFreeOffset, type RandomInt } from './random-scan';

/** An allocator failure with kube's text (ErrAllocated, ErrNotInRange, ErrFull). */
export class AllocationError extends Error {}

export const ERR_IP_ALLOCATED = 'provided IP is already allocated';
export const ERR_PORT_ALLOCATED = 'provided port is already allocated';
export const ERR_FULL = 'range is full';

export interface AllocationScope {
  readonly book: AllocationBook;
  readonly ipRange: IPRange;
  readonly portRange: PortRange;
  readonly random: RandomInt;
  /** uid of the Service a key holds in the store now (to see that a create cannot succeed). */
  storedOwner(key: string): Promise<string | undefined>;
}

export class Allocation {
  private readonly values: Value[] = [];
  /** Node ports taken by this request (kube's operation list, which also drives dry-run placeholders). */
  private readonly ports: number[] = [];

  constructor(
    private readonly scope: AllocationScope,
    /** What a value taken by this request is reserved as. */
    private readonly reservation: Reservation,
    readonly dryRun: boolean,
  ) {}

  /** The values this request took (the shared claims of store-allocator settle them across servers). */
  get taken(): readonly Value[] {
    return this.values;
  }

  private get owner(): string {
    return this.reservation.owner;
  }

  private take(value: Value): void {
    this.values.push(value);
    this.scope.book.reserve([value], this.reservation);
  }

  /** A specific cluster IP. */
  async ip(ip: string): Promise<void> {
    const { ipRange } = this.scope;
    if (ipRange.offsetOf(ip) === undefined) {
      throw new AllocationError(`the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${ipRange.cidr}`);
    }
    // kube's dry-run IP allocator checks only the range.
    if (this.dryRun) return;
    const value = ipValue(ip);
    if (!(await this.claim(value))) throw new AllocationError(ERR_IP_ALLOCATED);
  }

  /** Any free cluster IP. */
  nextIP(): string {
    const { ipRange, random } = this.scope;
    if (this.dryRun) return ipRange.network;
    const offset = randomFreeOffset(ipRange.size, ipRange.staticBand, (o) => this.busy(ipValue(ipRange.ipAt(o))), random);
    if (offset === undefined) throw new AllocationError(ERR_FULL);
    const ip = ipRange.ipAt(offset);
    this.take(ipValue(ip));
    return ip;
  }

  /** A specific node port. */
  async port(port: number): Promise<void> {
    const value = portValue(port);
    if (this.dryRun) {
      // kube's dry-run port operation checks conflicts but not the range.
      if (this.ports.includes(port) || (await this.inUse(value))) throw new AllocationError(ERR_PORT_ALLOCATED);
      this.ports.push(port);
      return;
    }
    const { portRange } = this.scope;
    if (!portRange.contains(port)) {
      throw new AllocationError(`provided port is not in the valid range. The range of valid ports is ${portRange.text}`);
    }
    if (this.ports.includes(port) || !(await this.claim(value))) throw new AllocationError(ERR_PORT_ALLOCATED);
    this.ports.push(port);
  }

  /** Any free node port. */
  nextPort(): number {
    if (this.dryRun) {
      const next = (this.ports.length ? Math.max(...this.ports) : 32768) + 1;
      this.ports.push(next);
      return next;
    }
    const { portRange, random } = this.scope;
    const offset = randomFreeOffset(portRange.size, portRange.staticBand, (o) => this.busy(portValue(portRange.base + o)), random);
    if (offset === undefined) throw new AllocationError(ERR_FULL);
    const port = portRange.base + offset;
    this.ports.push(port);
    this.take(portValue(port));
    return port;
  }

  private busy(value: Value): boolean {
    return this.values.includes(value) || this.scope.book.busy(value, this.owner);
  }

  /**
   * Takes a value if it is free. The last check and the reservation run with
   * no await between them, so no other request can take it meanwhile.
   */
  private async claim(value: Value): Promise<boolean> {
    if (this.values.includes(value) || (await this.inUse(value))) return false;
    if (this.busy(value)) return false;
    this.take(value);
    return true;
  }

  /**
   * Held by another Service, or reserved by another request that may still
   * succeed. A reservation whose request is over (too old, or a create
   * whose name another object holds) is dropped.
   */
  private async inUse(value: Value): Promise<boolean> {
    const { book } = this.scope;
    if (book.heldByOthers(value, this.owner)) return true;
    const r = book.reservationOf(value, this.owner);
    if (!r) return false;
    let stale = this.reservation.at - r.at >= RESERVATION_TTL_MS;
    if (!stale && r.creating) {
      const holder = await this.scope.storedOwner(r.key);
      stale = holder !== undefined && holder !== r.owner;
    }
    if (!stale) return true;
    if (book.reservationOf(value, this.owner) === r) book.forget(value);
    return false;
  }
}
