// DefaultTolerationSeconds: a pod that does not tolerate the not-ready and
// unreachable NoExecute taints gets tolerations for them, 300 s each
// (--default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds),
// so it is evicted from a failed node after five minutes.

import type { AdmissionAttributes, AdmissionPlugin } from '../types';
import { objs, podOf } from './pod-helpers';

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

function seconds(text: string | undefined): number {
  const n = text === undefined || text === '' ? NaN : Number(text);
  return Number.isInteger(n) ? n : 300;
}

export function defaultTolerationSeconds(flags: Readonly<Record<string, string | undefined>> = {}): AdmissionPlugin {
  const notReadySeconds = seconds(flags['default-not-ready-toleration-seconds']);
  const unreachableSeconds = seconds(flags['default-unreachable-toleration-seconds']);
  const admit = (attrs: AdmissionAttributes) => {
    const pod = podOf(attrs);
    if (!pod) return;
    const tolerations = objs(pod.spec['tolerations']);
    // An empty key tolerates every taint, an empty effect every effect.
    const tolerates = (key: string) =>
      tolerations.some((t) => (t['key'] === key || !t['key']) && (t['effect'] === 'NoExecute' || !t['effect']));
    const added = [];
    if (!tolerates(NOT_READY)) added.push({ key: NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReadySeconds });
    if (!tolerates(UNREACHABLE)) added.push({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: unreachableSeconds });
    if (added.length) pod.spec['tolerations'] = [...tolerations, ...added];
  };
  return { name: 'DefaultTolerationSeconds', handles: (op) => op === 'CREATE' || op === 'UPDATE', admit };
}
