// The namespace labels that choose a namespace's policy
// (pod-security.kubernetes.io/enforce|audit|warn and their -version), read as
// kube's PolicyToEvaluate reads them: unset labels fall back to the defaults
// (privileged:latest for all three modes unless configured); a bad enforce
// level evaluates as restricted, a bad audit or warn level fails open to
// privileged, a bad version evaluates as latest, and each bad label is a
// field error on metadata.labels[<key>].

import { fieldErrors, type FieldError } from '../../errors/field-errors';
import type { Level, PolicyVersion } from './check-types';
import type { LevelVersion } from './evaluator';

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
export const ENFORCE_LEVEL_LABEL = `${LABEL_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${LABEL_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${LABEL_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${LABEL_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${LABEL_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${LABEL_PREFIX}warn-version`;

export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

const LATEST: PolicyVersion = { latest: true };
const PRIVILEGED_LATEST: LevelVersion = { level: 'privileged', version: LATEST };
export const DEFAULT_POLICY: Policy = { enforce: PRIVILEGED_LATEST, audit: PRIVILEGED_LATEST, warn: PRIVILEGED_LATEST };

const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

export function parseLevel(text: string): { level: Level; error?: string } {
  if ((LEVELS as readonly string[]).includes(text)) return { level: text as Level };
  return { level: 'restricted', error: `must be one of ${LEVELS.join(', ')}` };
}

export function parseVersion(text: string): { version: PolicyVersion; error?: string } {
  if (text === 'latest') return { version: LATEST };
  const m = /^v1\.([0-9]|[1-9][0-9]*)$/.exec(text);
  if (!m) return { version: LATEST, error: 'must be "latest" or "v1.x"' };
  return { version: { latest: false, minor: Number(m[1]) } };
}

export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy = DEFAULT_POLICY): { policy: Policy; errors: FieldError[] } {
  const errs: FieldError[] = [];
  let enforce = defaults.enforce;
  let audit = defaults.audit;
  let warn = defaults.warn;
  if (!labels) return { policy: defaults, errors: errs };
  const invalid = (key: string, value: string, message: string) => errs.push(fieldErrors.invalid(`metadata.labels[${key}]`, value, message));
  const level = (key: string, current: LevelVersion, failOpen: boolean): LevelVersion => {
    const value = labels[key];
    if (value === undefined) return current;
    const parsed = parseLevel(value);
    if (parsed.error) {
      invalid(key, value, parsed.error);
      return { ...current, level: failOpen ? 'privileged' : parsed.level };
    }
    return { ...current, level: parsed.level };
  };
  const version = (key: string, current: LevelVersion): LevelVersion => {
    const value = labels[key];
    if (value === undefined) return current;
    const parsed = parseVersion(value);
    if (parsed.error) invalid(key, value, parsed.error);
    return { ...current, version: parsed.version };
  };
  enforce = version(ENFORCE_VERSION_LABEL, level(ENFORCE_LEVEL_LABEL, enforce, false));
  audit = version(AUDIT_VERSION_LABEL, level(AUDIT_LEVEL_LABEL, audit, true));
  warn = version(WARN_VERSION_LABEL, level(WARN_LEVEL_LABEL, warn, true));
  return { policy: { enforce, audit, warn }, errors: errs };
}

export function sameVersion(a: PolicyVersion, b: PolicyVersion): boolean {
  if (a.latest || b.latest) return a.latest === b.latest;
  return a.minor === b.minor;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && sameVersion(a.version, b.version);
}

/** -1 less strict, 0 same, 1 stricter (kube's CompareLevels). */
export function compareLevels(a: Level, b: Level): number {
  return LEVELS.indexOf(a) - LEVELS.indexOf(b) === 0 ? 0 : LEVELS.indexOf(a) < LEVELS.indexOf(b) ? -1 : 1;
}
