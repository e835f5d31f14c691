// The shape of a Pod Security Standards check (k8s.io/pod-security-admission/policy):
// a check belongs to a level, has one or more revisions by policy version, and
// answers allowed or a forbidden reason with an optional detail. Pods are plain
// JSON here; the helpers read them defensively since controllers' templates may
// be partial.

export type Level = 'privileged' | 'baseline' | 'restricted';

/** A policy version: `latest` or v1.<minor>. */
export type PolicyVersion = { readonly latest: true } | { readonly latest: false; readonly minor: number };

export interface CheckResult {
  readonly allowed: boolean;
  readonly reason?: string;
  readonly detail?: string;
}

type Obj = Record<string, unknown>;
export type PodMetadata = Obj;
export type PodSpec = Obj;

export type CheckPod = (meta: PodMetadata, spec: PodSpec) => CheckResult;

export interface VersionedCheck {
  /** The first 1.x minor this revision applies to. */
  readonly minimumMinor: number;
  readonly checkPod: CheckPod;
  /** Baseline checks this restricted revision replaces (kube's OverrideCheckIDs). */
  readonly overrides?: readonly string[];
}

export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  readonly versions: readonly VersionedCheck[];
}

export const ALLOWED: CheckResult = { allowed: true };

export function forbidden(reason: string, detail: string): CheckResult {
  return { allowed: false, reason, detail };
}

export function obj(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

export function list(value: unknown): Obj[] {
  return Array.isArray(value) ? value.map((v) => obj(v) ?? {}) : [];
}

/** Init containers, containers, then ephemeral containers, as kube's visitContainers walks them. */
export function containersOf(spec: PodSpec): Obj[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
}

export function nameOf(container: Obj): string {
  return typeof container.name === 'string' ? container.name : '';
}

export function securityContext(container: Obj): Obj | undefined {
  return obj(container.securityContext);
}

export function podSecurityContext(spec: PodSpec): Obj | undefined {
  return obj(spec.securityContext);
}

/** `"a", "b"`: kube's joinQuote. */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` / `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** A sorted set of strings, as sets.NewString().List() gives them. */
export function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function isWindowsPod(spec: PodSpec): boolean {
  return obj(spec.os)?.name === 'windows';
}
