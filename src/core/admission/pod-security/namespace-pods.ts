// What kube tells whoever tightens a namespace's enforce level: the existing
// pods that would violate it, grouped by their forbidden reasons, one warning
// per distinct set of reasons naming the lexically first pod and how many
// others share it. Pods of the same controller are looked at after one pod of
// each controller (kube's prioritizePods), and at most 3000 pods are checked.

import type { KubeObject } from '../../kinds/types';
import { obj } from './check-types';
import { aggregate, evaluatePod, forbiddenReason, levelVersionString, type LevelVersion } from './evaluator';

const MAX_PODS_TO_CHECK = 3000;

function controllerUid(pod: KubeObject): string | undefined {
  const refs = pod.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  const ref = refs.find((r) => (r as { controller?: boolean }).controller === true) as { uid?: string } | undefined;
  return ref?.uid;
}

function prioritize(pods: readonly KubeObject[], exemptRuntimeClass: (name: unknown) => boolean): KubeObject[] {
  const first: KubeObject[] = [];
  const duplicates: KubeObject[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    if (exemptRuntimeClass(obj((pod as Record<string, unknown>).spec)?.runtimeClassName)) continue;
    const uid = controllerUid(pod);
    if (uid === undefined) first.push(pod);
    else if (seen.has(uid)) duplicates.push(pod);
    else {
      seen.add(uid);
      first.push(pod);
    }
  }
  return [...first, ...duplicates];
}

export function podsInNamespaceWarnings(
  namespace: string,
  enforce: LevelVersion,
  pods: readonly KubeObject[],
  exemptRuntimeClass: (name: unknown) => boolean = () => false,
): string[] {
  const ordered = prioritize(pods, exemptRuntimeClass);
  const total = ordered.length;
  const checked = ordered.slice(0, MAX_PODS_TO_CHECK);
  const byReason = new Map<string, { name: string; count: number }>();
  const reasons: string[] = [];
  for (const pod of checked) {
    const p = pod as Record<string, unknown>;
    const result = aggregate(evaluatePod(enforce, obj(p.metadata) ?? {}, obj(p.spec) ?? {}));
    if (result.allowed) continue;
    const reason = forbiddenReason(result);
    const name = pod.metadata?.name ?? '';
    const entry = byReason.get(reason);
    if (!entry) {
      byReason.set(reason, { name, count: 1 });
      reasons.push(reason);
    } else {
      entry.count++;
      if (name < entry.name) entry.name = name;
    }
  }
  const warnings: string[] = [];
  if (checked.length < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${total} existing pods`);
  if (reasons.length) warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`);
  const decorated = reasons.map((reason) => {
    const { name, count } = byReason.get(reason)!;
    if (count === 1) return `${name}: ${reason}`;
    if (count === 2) return `${name} (and 1 other pod): ${reason}`;
    return `${name} (and ${count - 1} other pods): ${reason}`;
  });
  decorated.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...warnings, ...decorated];
}
