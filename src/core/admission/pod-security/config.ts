// PodSecurityConfiguration (pod-security.admission.config.k8s.io/v1), the
// PodSecurity plugin's section of an AdmissionConfiguration file: defaults
// for the six labels and exemptions. kube-apiserver 1.32's built-in
// configuration is privileged:latest everywhere and no exemptions.

import type { PodSecurityConfig } from './plugin';
import { parseLevel, parseVersion, type Policy } from './policy-labels';

type Obj = Record<string, unknown>;

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/** Reads a PodSecurityConfiguration object; throws with kube's start-up error texts for bad values. */
export function podSecurityConfigFromObject(config: unknown): PodSecurityConfig {
  const c = (config && typeof config === 'object' ? config : {}) as Obj;
  const d = (c.defaults && typeof c.defaults === 'object' ? c.defaults : {}) as Obj;
  const problems: string[] = [];
  const lv = (mode: string) => {
    const levelText = typeof d[mode] === 'string' ? (d[mode] as string) : 'privileged';
    const versionText = typeof d[`${mode}-version`] === 'string' ? (d[`${mode}-version`] as string) : 'latest';
    const level = parseLevel(levelText);
    const version = parseVersion(versionText);
    if (level.error) problems.push(`defaults.${mode}: Invalid value: ${JSON.stringify(levelText)}: ${level.error}`);
    if (version.error) problems.push(`defaults.${mode}-version: Invalid value: ${JSON.stringify(versionText)}: ${version.error}`);
    return { level: level.level, version: version.version };
  };
  const defaults: Policy = { enforce: lv('enforce'), audit: lv('audit'), warn: lv('warn') };
  if (problems.length) throw new Error(problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`);
  const e = (c.exemptions && typeof c.exemptions === 'object' ? c.exemptions : {}) as Obj;
  return { defaults, exemptions: { usernames: strings(e.usernames), namespaces: strings(e.namespaces), runtimeClasses: strings(e.runtimeClasses) } };
}
