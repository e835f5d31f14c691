// What a test may ask the fault injector for, and the check of such a request.
//
// A fault names the requests it applies to (verb, resource, namespace, name,
// user: each absent means "any") and what happens to them: a Status of a code
// kube-apiserver sends, a delay, or a watch that ends, loses its connection or
// loses events. The check runs when the fault is added, against what the
// server serves, so that a spec that is malformed or can never match is an
// error naming what to fix, never a fault that silently does nothing.

import type { RouteVerb } from '../route';

/** The codes a fault answers with, each as kube-apiserver sends it (fault-responses.ts). */
export const FAULT_STATUS_CODES = [403, 404, 409, 410, 429, 500, 503] as const;
export type FaultStatusCode = (typeof FAULT_STATUS_CODES)[number];

export const FAULT_VERBS: readonly RouteVerb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

/** How a watch ends early: after `events` events (0: before the first), cleanly or by losing its connection. */
export interface CloseWatchSpec {
  readonly events?: number;
  /** true: the connection breaks (the client sees the body fail), as when a load balancer drops it; default: the server ends the watch cleanly. */
  readonly abrupt?: boolean;
}

/** The fault as a test writes it (plain data: the worker receives it as a message, too). */
export interface FaultSpec {
  readonly verb?: RouteVerb | readonly RouteVerb[];
  /** A resource's plural, optionally with its group and a subresource: "pods", "deployments.apps", "pods/log", "deployments.apps/scale". */
  readonly resource?: string;
  readonly namespace?: string;
  readonly name?: string;
  /** The user as authenticated (after impersonation): its username. */
  readonly user?: string;
  /** How many matching requests the fault answers before it retires (default: every one until removed). */
  readonly times?: number;
  /** Answer with the Status of this code. */
  readonly status?: FaultStatusCode;
  /** For `status`: the Status message instead of kube's default text for the request. */
  readonly message?: string;
  /** For status 429 (default 1) and 503 (default none): the Retry-After header, in seconds. */
  readonly retryAfterSeconds?: number;
  /** Wait this long (on the cluster's clock) before answering, or before the fault's other effect. */
  readonly delayMs?: number;
  /** Watches only: the watch ends after this many events (a number), or as an object says. */
  readonly closeWatchAfter?: number | CloseWatchSpec;
  /** Watches only: the first N events of the watch (bookmarks aside) never reach the client; the watch stays open. */
  readonly dropEvents?: number;
}

/** A spec after its check: every field in one shape. */
export interface CheckedFault {
  readonly verbs: ReadonlySet<RouteVerb> | undefined;
  readonly group: string | undefined;
  readonly resource: string | undefined;
  readonly subresource: string | undefined;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly user: string | undefined;
  readonly times: number;
  readonly status: FaultStatusCode | undefined;
  readonly message: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly delayMs: number;
  readonly closeWatch: { readonly events: number; readonly abrupt: boolean } | undefined;
  readonly dropEvents: number;
}

/** What the check needs to know of the server: the resources it serves now. */
export interface ServedResourceInfo {
  readonly group: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly subresources: readonly string[];
}

export class FaultSpecError extends Error {
  constructor(message: string) {
    super(`invalid fault: ${message}`);
    this.name = 'FaultSpecError';
  }
}

const KNOWN_FIELDS = new Set(['verb', 'resource', 'namespace', 'name', 'user', 'times', 'status', 'message', 'retryAfterSeconds', 'delayMs', 'closeWatchAfter', 'dropEvents']);
const WATCH_ONLY = ['closeWatchAfter', 'dropEvents'] as const;

function optionalString(spec: Record<string, unknown>, field: string): string | undefined {
  const value = spec[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new FaultSpecError(`${field} must be a non-empty string, not ${JSON.stringify(value)}`);
  return value;
}

function count(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new FaultSpecError(`${field} must be an integer >= ${min}, not ${JSON.stringify(value)}`);
  return value;
}

/** "deployments.apps/scale" → plural, group (undefined: any group), subresource. */
export function parseResourceField(text: string): { plural: string; group: string | undefined; subresource: string | undefined } {
  const slash = text.indexOf('/');
  const qualified = slash >= 0 ? text.slice(0, slash) : text;
  const subresource = slash >= 0 ? text.slice(slash + 1) : undefined;
  if (subresource !== undefined && (subresource === '' || subresource.includes('/'))) throw new FaultSpecError(`resource ${JSON.stringify(text)}: write a subresource as "pods/log"`);
  const dot = qualified.indexOf('.');
  const plural = dot >= 0 ? qualified.slice(0, dot) : qualified;
  const group = dot >= 0 ? qualified.slice(dot + 1) : undefined;
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(plural)) {
    throw new FaultSpecError(`resource ${JSON.stringify(text)}: a resource is named by its lower-case plural, e.g. "pods" or "deployments.apps"`);
  }
  return { plural, group, subresource };
}

/**
 * Checks a spec and brings it into one shape. `served` lists the resources
 * the server serves; a resource, subresource or namespace that none of them
 * can have is an error ("matches nothing").
 */
export function checkFaultSpec(input: unknown, served: readonly ServedResourceInfo[]): CheckedFault {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new FaultSpecError('a fault is an object such as { verb: "get", resource: "pods", status: 500 }');
  const spec = input as Record<string, unknown>;
  const unknown = Object.keys(spec).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length) throw new FaultSpecError(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${[...KNOWN_FIELDS].join(', ')})`);

  let verbs: Set<RouteVerb> | undefined;
  if (spec.verb !== undefined) {
    const list = Array.isArray(spec.verb) ? (spec.verb as unknown[]) : [spec.verb];
    if (list.length === 0) throw new FaultSpecError('verb: an empty list matches nothing (leave verb out to match every verb)');
    for (const v of list) {
      if (typeof v !== 'string' || !FAULT_VERBS.includes(v as RouteVerb)) throw new FaultSpecError(`verb ${JSON.stringify(v)} is not one of ${FAULT_VERBS.join(', ')}`);
    }
    verbs = new Set(list as RouteVerb[]);
  }

  const resourceText = optionalString(spec, 'resource');
  const namespace = optionalString(spec, 'namespace');
  const name = optionalString(spec, 'name');
  const user = optionalString(spec, 'user');
  const message = optionalString(spec, 'message');
  let plural: string | undefined;
  let group: string | undefined;
  let subresource: string | undefined;
  if (resourceText !== undefined) {
    ({ plural, group, subresource } = parseResourceField(resourceText));
    const candidates = served.filter((r) => r.plural === plural && (group === undefined || r.group === group));
    if (candidates.length === 0) throw new FaultSpecError(`resource ${JSON.stringify(resourceText)} matches nothing: the server serves no such resource${group === undefined ? '' : ` in group ${JSON.stringify(group)}`}`);
    if (subresource !== undefined && !candidates.some((r) => r.subresources.includes(subresource!))) {
      const known = [...new Set(candidates.flatMap((r) => r.subresources))];
      throw new FaultSpecError(`resource ${JSON.stringify(resourceText)} matches nothing: ${plural} has no subresource ${JSON.stringify(subresource)}${known.length ? ` (it has ${known.join(', ')})` : ''}`);
    }
    if (namespace !== undefined && !candidates.some((r) => r.namespaced || (r.group === '' && r.plural === 'namespaces'))) {
      throw new FaultSpecError(`namespace ${JSON.stringify(namespace)} with resource ${JSON.stringify(resourceText)} matches nothing: ${plural} is cluster-scoped`);
    }
  }

  const times = spec.times === undefined ? Number.POSITIVE_INFINITY : count(spec.times, 'times', 1);
  let status: FaultStatusCode | undefined;
  if (spec.status !== undefined) {
    if (!FAULT_STATUS_CODES.includes(spec.status as FaultStatusCode)) throw new FaultSpecError(`status ${JSON.stringify(spec.status)} is not one of ${FAULT_STATUS_CODES.join(', ')}`);
    status = spec.status as FaultStatusCode;
  }
  const retryAfterSeconds = spec.retryAfterSeconds === undefined ? undefined : count(spec.retryAfterSeconds, 'retryAfterSeconds', 0);
  if (retryAfterSeconds !== undefined && status !== 429 && status !== 503) throw new FaultSpecError('retryAfterSeconds goes with status 429 or 503');
  if (message !== undefined && status === undefined) throw new FaultSpecError('message goes with status');
  if (status === 429 && message !== undefined) throw new FaultSpecError("status 429 is kube-apiserver's plain-text throttling answer, whose text is fixed: leave message out");
  const delayMs = spec.delayMs === undefined ? 0 : count(spec.delayMs, 'delayMs', 0);

  let closeWatch: CheckedFault['closeWatch'];
  if (spec.closeWatchAfter !== undefined) {
    const value = spec.closeWatchAfter;
    if (typeof value === 'number') closeWatch = { events: count(value, 'closeWatchAfter', 0), abrupt: false };
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const close = value as Record<string, unknown>;
      const extra = Object.keys(close).filter((k) => k !== 'events' && k !== 'abrupt');
      if (extra.length) throw new FaultSpecError(`closeWatchAfter: unknown field ${JSON.stringify(extra[0])} (known: events, abrupt)`);
      if (close.abrupt !== undefined && typeof close.abrupt !== 'boolean') throw new FaultSpecError('closeWatchAfter.abrupt must be true or false');
      closeWatch = { events: close.events === undefined ? 0 : count(close.events, 'closeWatchAfter.events', 0), abrupt: close.abrupt === true };
    } else throw new FaultSpecError('closeWatchAfter is a number of events or { events, abrupt }');
  }
  const dropEvents = spec.dropEvents === undefined ? 0 : count(spec.dropEvents, 'dropEvents', 1);

  const watchEffect = closeWatch !== undefined || dropEvents > 0;
  if (status === undefined && spec.delayMs === undefined && !watchEffect) {
    throw new FaultSpecError('say what the fault does: status, delayMs, closeWatchAfter or dropEvents');
  }
  if (status !== undefined && watchEffect) throw new FaultSpecError(`status cannot be combined with ${closeWatch ? 'closeWatchAfter' : 'dropEvents'}: a request answered with a Status has no watch stream`);
  if (watchEffect) {
    const used = WATCH_ONLY.filter((f) => spec[f] !== undefined);
    if (verbs && !verbs.has('watch')) throw new FaultSpecError(`${used.join(' and ')} act${used.length > 1 ? '' : 's'} on watches: the verb must include "watch" (or be left out)`);
    // Only watches have events to end or drop: such a fault matches watches alone.
    verbs = new Set<RouteVerb>(['watch']);
    if (subresource !== undefined) throw new FaultSpecError(`${used.join(' and ')} act${used.length > 1 ? '' : 's'} on watches, and a subresource (${subresource}) is never watched`);
  }

  return {
    verbs,
    group,
    resource: plural,
    subresource,
    namespace,
    name,
    user,
    times,
    status,
    message,
    retryAfterSeconds,
    delayMs,
    closeWatch,
    dropEvents,
  };
}
