// The text kube-scheduler 1.32 writes into the PodScheduled condition (and
// its FailedScheduling event) when no node fits: the FitError message, a
// histogram of the filter reasons, then what preemption found. Every reason
// the filters here give is "unresolvable" (preemption cannot help).

export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

export function fitErrorMessage(reasonsByNode: readonly string[], preemptionPolicy: string | undefined): string {
  const total = reasonsByNode.length;
  const histogram = new Map<string, number>();
  for (const r of reasonsByNode) histogram.set(r, (histogram.get(r) ?? 0) + 1);
  // Go sorts the "count reason" strings as strings.
  const reasons = [...histogram].map(([reason, count]) => `${count} ${reason}`).sort();
  let message = `0/${total} nodes are available:`;
  if (reasons.length) message += ` ${reasons.join(', ')}.`;
  const preemption =
    preemptionPolicy === 'Never'
      ? 'preemption: not eligible due to preemptionPolicy=Never.'
      : `preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.`;
  return `${message} ${preemption}`;
}
