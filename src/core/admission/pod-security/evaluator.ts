// Evaluates a pod against a level and version (kube's checkRegistry): the
// baseline checks first, then the restricted ones, each group ordered by
// check ID so messages are stable; a restricted revision may replace baseline
// checks (restrictedVolumes → hostPathVolumes …). Versions newer than the
// newest revision, and `latest`, evaluate as that newest one.

import { BASELINE_CHECKS } from './baseline-checks';
import { RESTRICTED_CHECKS } from './restricted-checks';
import type { Check, CheckResult, Level, PodMetadata, PodSpec, PolicyVersion, VersionedCheck } from './check-types';

const ALL_CHECKS: readonly Check[] = [...BASELINE_CHECKS, ...RESTRICTED_CHECKS];

const byId = (a: Check, b: Check) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const ORDERED: readonly Check[] = [...BASELINE_CHECKS].sort(byId).concat([...RESTRICTED_CHECKS].sort(byId));

/** The newest policy minor any check has a revision for (kube's maxVersion). */
export const MAX_POLICY_MINOR = Math.max(...ALL_CHECKS.flatMap((c) => c.versions.map((v) => v.minimumMinor)));

function revisionFor(check: Check, minor: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const v of check.versions) if (v.minimumMinor <= minor) found = v;
  return found;
}

export interface LevelVersion {
  readonly level: Level;
  readonly version: PolicyVersion;
}

export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${lv.version.latest ? 'latest' : `v1.${lv.version.minor}`}`;
}

/** The check results of every check that applies to the level and version, in kube's order. */
export function evaluatePod(lv: LevelVersion, meta: PodMetadata, spec: PodSpec): CheckResult[] {
  if (lv.level === 'privileged') return [];
  const minor = lv.version.latest ? MAX_POLICY_MINOR : Math.min(lv.version.minor, MAX_POLICY_MINOR);
  const active = new Map<string, VersionedCheck>();
  for (const check of ORDERED) {
    if (check.level === 'restricted' && lv.level !== 'restricted') continue;
    const revision = revisionFor(check, minor);
    if (revision) active.set(check.id, revision);
  }
  if (lv.level === 'restricted') {
    for (const check of RESTRICTED_CHECKS) for (const id of active.get(check.id)?.overrides ?? []) active.delete(id);
  }
  return ORDERED.filter((c) => active.has(c.id)).map((c) => active.get(c.id)!.checkPod(meta, spec));
}

export interface AggregateResult {
  readonly allowed: boolean;
  readonly reasons: readonly string[];
  readonly details: readonly string[];
}

export function aggregate(results: readonly CheckResult[]): AggregateResult {
  const reasons: string[] = [];
  const details: string[] = [];
  for (const r of results) {
    if (r.allowed) continue;
    reasons.push(r.reason || 'unknown forbidden reason');
    details.push(r.detail ?? '');
  }
  return { allowed: reasons.length === 0, reasons, details };
}

/** "host ports, privileged": the reasons alone (namespace warnings). */
export function forbiddenReason(result: AggregateResult): string {
  return result.reasons.join(', ');
}

/** "hostPort (container "c" uses hostPort 80), privileged (...)": reasons with their details. */
export function forbiddenDetail(result: AggregateResult): string {
  return result.reasons.map((r, i) => (result.details[i] ? `${r} (${result.details[i]})` : r)).join(', ');
}
