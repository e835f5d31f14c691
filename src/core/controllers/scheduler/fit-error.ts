// The text kube-scheduler 1.32 writes into the PodScheduled condition (and
// its FailedScheduling event) when no node fits (FitError.Error): "0/N nodes
// are available:", then a PreFilter's message or the sorted histogram of the
// nodes' filter reasons, then what preemption (the PostFilter) found.

import type { Diagnosis } from './framework';

export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** "count reason" strings sorted as Go sorts strings; nodes without a status of their own count under `absent`. */
export function reasonHistogram(diagnosis: Diagnosis): string[] {
  const counts = new Map<string, number>();
  for (const status of diagnosis.statuses.values()) for (const r of status.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const absentNodes = diagnosis.numAllNodes - diagnosis.statuses.size;
  if (diagnosis.absent && absentNodes > 0) for (const r of diagnosis.absent.reasons) counts.set(r, (counts.get(r) ?? 0) + absentNodes);
  return [...counts].map(([reason, count]) => `${count} ${reason}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** FitError.Error(), with the PostFilter's message (e.g. "preemption: …") when there is one. */
export function fitErrorMessage(diagnosis: Diagnosis, postFilterMsg?: string): string {
  let message = `0/${diagnosis.numAllNodes} nodes are available:`;
  if (diagnosis.preFilterMsg) message += ` ${diagnosis.preFilterMsg}.`;
  else {
    const reasons = reasonHistogram(diagnosis);
    if (reasons.length > 0) message += ` ${reasons.join(', ')}.`;
  }
  if (postFilterMsg) message += ` ${postFilterMsg}`;
  return message;
}
