// Fault injection for tests of a client's error paths: the faults a test has
// added, matched against each request from outside the server once it is
// authenticated and authorized (so that `user` names who asks, after
// impersonation), and applied in place of or around the request's handler.
//
// Only requests that reach the server from outside (`ApiServer.handle`: HTTP,
// the service worker's fetch) are matched. The server's own clients — its
// controllers and kubelets — and the hosts' test helpers go through
// `handleAs` and are never faulted: a fault on "create pods" aimed at an app
// under test must not stall the ReplicaSet controller behind it.
//
// The first added fault that matches wins; a fault with `times` retires once
// it has answered that many requests. Host-independent: the Node package and
// the browser worker expose the same add/list/remove/clear.

import type { Clock } from '../../clock';
import { ClockTimers } from '../../util/clock-timers';
import type { StatusError } from '../../errors/status';
import type { OutputFormat } from '../media';
import { checkFaultSpec, type CheckedFault, type FaultSpec, type ServedResourceInfo } from './fault-spec';
import { faultAnswer, type FaultRequest } from './fault-responses';
import { applyWatchFault } from './watch-faults';

/** A fault as listed: what it was added with, and what it has done. */
export interface InjectedFault {
  readonly id: string;
  readonly spec: FaultSpec;
  /** Requests it has answered so far. */
  readonly hits: number;
  /** Requests it will still answer (null: until removed). */
  readonly remaining: number | null;
}

/** The faults of a server, as hosts expose them. */
export interface FaultInjection {
  /** Adds a fault; throws FaultSpecError (its message says what to fix) for a malformed spec or one that matches nothing. */
  add(spec: FaultSpec): InjectedFault;
  /** The faults still active, in the order they were added. */
  list(): InjectedFault[];
  /** Removes one fault; false when no active fault has that id. */
  remove(id: string): boolean;
  /** Removes every fault. */
  clear(): void;
}

interface ActiveFault {
  readonly id: string;
  readonly spec: FaultSpec;
  readonly checked: CheckedFault;
  hits: number;
}

function matches(fault: CheckedFault, req: FaultRequest): boolean {
  if (fault.verbs && !fault.verbs.has(req.verb)) return false;
  if (fault.resource !== undefined && fault.resource !== req.resource) return false;
  if (fault.group !== undefined && fault.group !== req.group) return false;
  if (fault.subresource !== undefined) {
    if (fault.subresource !== req.subresource) return false;
  } else if (fault.resource !== undefined && req.subresource !== '') {
    // A fault naming a resource without a subresource is about the resource itself (pods, not pods/log).
    return false;
  }
  if (fault.namespace !== undefined && fault.namespace !== req.namespace) return false;
  if (fault.name !== undefined && fault.name !== req.name) return false;
  if (fault.user !== undefined && fault.user !== req.user?.username) return false;
  return true;
}

export class FaultInjector implements FaultInjection {
  private readonly faults: ActiveFault[] = [];
  private nextId = 1;
  private readonly timers: ClockTimers;

  constructor(
    clock: Clock,
    private readonly served: () => readonly ServedResourceInfo[],
    private readonly currentRevision: () => number,
  ) {
    this.timers = new ClockTimers(clock);
  }

  /** Whether any fault is active: the request path skips all fault work when none is. */
  get active(): boolean {
    return this.faults.length > 0;
  }

  add(spec: FaultSpec): InjectedFault {
    const checked = checkFaultSpec(spec, this.served());
    // The spec is kept as given, copied: a caller changing its object later changes nothing.
    const fault: ActiveFault = { id: `fault-${this.nextId++}`, spec: structuredClone(spec), checked, hits: 0 };
    this.faults.push(fault);
    return this.describe(fault);
  }

  list(): InjectedFault[] {
    return this.faults.map((f) => this.describe(f));
  }

  remove(id: string): boolean {
    const at = this.faults.findIndex((f) => f.id === id);
    if (at < 0) return false;
    this.faults.splice(at, 1);
    return true;
  }

  clear(): void {
    this.faults.length = 0;
  }

  stop(): void {
    this.clear();
    this.timers.stop();
  }

  /**
   * Serves a request through the first matching fault, or with `next` alone
   * when none matches. What a fault answers is a Response, or a StatusError
   * thrown for the server's error path (encoded as the request negotiated).
   */
  async serve(req: FaultRequest, output: OutputFormat, next: () => Promise<Response>): Promise<Response> {
    const fault = this.take(req);
    if (!fault) return next();
    const checked = fault.checked;
    if (checked.delayMs > 0) await this.timers.until(this.timers.clock.now() + checked.delayMs);
    if (checked.status !== undefined) {
      const answer: Response | StatusError = await faultAnswer(checked, req, output, this.currentRevision());
      if (answer instanceof Response) return answer;
      throw answer;
    }
    const response = await next();
    if (!checked.closeWatch && checked.dropEvents === 0) return response;
    return applyWatchFault(response, {
      ...(checked.closeWatch ? { closeAfter: checked.closeWatch } : {}),
      ...(checked.dropEvents > 0 ? { dropFirst: checked.dropEvents } : {}),
    });
  }

  /** The first matching fault, counted as used (and retired when it has no uses left). */
  private take(req: FaultRequest): ActiveFault | undefined {
    const at = this.faults.findIndex((f) => matches(f.checked, req));
    if (at < 0) return undefined;
    const fault = this.faults[at]!;
    fault.hits++;
    if (fault.hits >= fault.checked.times) this.faults.splice(at, 1);
    return fault;
  }

  private describe(fault: ActiveFault): InjectedFault {
    const times = fault.checked.times;
    return { id: fault.id, spec: structuredClone(fault.spec), hits: fault.hits, remaining: Number.isFinite(times) ? times - fault.hits : null };
  }
}
