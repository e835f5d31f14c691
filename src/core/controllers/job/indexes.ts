// The completion indexes of an Indexed Job: each pod's index (annotation
// batch.kubernetes.io/job-completion-index), and sets of indexes kept as
// ordered intervals, written as kube writes status.completedIndexes and
// status.failedIndexes ("1,3-5,7": two adjacent indexes stay a list, three
// or more become a range).

import type { KubeObject } from '../../kinds/types';
import { JOB_COMPLETION_INDEX, podAnnotations } from './job-model';

export const UNKNOWN_INDEX = -1;

export interface Interval {
  first: number;
  last: number;
}

/** A pod's completion index, or UNKNOWN_INDEX when absent, not a number or negative. */
export function completionIndex(pod: KubeObject): number {
  const v = podAnnotations(pod)[JOB_COMPLETION_INDEX];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return UNKNOWN_INDEX;
  const i = Number(v);
  return i < 0 || !Number.isSafeInteger(i) ? UNKNOWN_INDEX : i;
}

export class OrderedIntervals {
  constructor(readonly intervals: readonly Interval[] = []) {}

  /** Parses "1,3-5" keeping only indexes below `completions`; corrupt parts are skipped. */
  static parse(text: string | undefined, completions: number): OrderedIntervals {
    if (!text) return new OrderedIntervals();
    const result: Interval[] = [];
    for (const part of text.split(',')) {
      const limits = part.split('-');
      if (!/^[+-]?\d+$/.test(limits[0]!)) continue;
      const first = Number(limits[0]);
      if (first >= completions) break;
      let last = first;
      if (limits.length > 1) {
        if (!/^[+-]?\d+$/.test(limits[1]!)) continue;
        last = Math.min(Number(limits[1]), completions - 1);
      }
      const prev = result[result.length - 1];
      if (prev && prev.last === first - 1) prev.last = last;
      else result.push({ first, last });
    }
    return new OrderedIntervals(result);
  }

  /** A new set with these indexes (given in increasing order) added. */
  withIndexes(sorted: readonly number[]): OrderedIntervals {
    return this.merge(new OrderedIntervals(sorted.map((i) => ({ first: i, last: i }))));
  }

  merge(other: OrderedIntervals): OrderedIntervals {
    const result: Interval[] = [];
    const push = (iv: Interval) => {
      const last = result[result.length - 1];
      if (!last || iv.first > last.last + 1) result.push({ ...iv });
      else if (last.last < iv.last) last.last = iv.last;
    };
    const a = this.intervals;
    const b = other.intervals;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      if (a[i]!.first < b[j]!.first) push(a[i++]!);
      else push(b[j++]!);
    }
    while (i < a.length) push(a[i++]!);
    while (j < b.length) push(b[j++]!);
    return new OrderedIntervals(result);
  }

  total(): number {
    return this.intervals.reduce((n, iv) => n + iv.last - iv.first + 1, 0);
  }

  has(ix: number): boolean {
    return this.intervals.some((iv) => iv.first <= ix && ix <= iv.last);
  }

  toString(): string {
    return this.intervals
      .map((iv) => (iv.last === iv.first ? `${iv.first}` : iv.last === iv.first + 1 ? `${iv.first},${iv.last}` : `${iv.first}-${iv.last}`))
      .join(',');
  }
}

/** The set of (known) completion indexes of some pods, in increasing order. */
export function indexesOf(pods: readonly KubeObject[]): number[] {
  const set = new Set<number>();
  for (const p of pods) {
    const ix = completionIndex(p);
    if (ix !== UNKNOWN_INDEX) set.add(ix);
  }
  return [...set].sort((x, y) => x - y);
}

/** firstPendingIndexes: up to `count` indexes below `completions` not covered by `nonPending`. */
export function firstPendingIndexes(nonPending: OrderedIntervals, count: number, completions: number): number[] {
  const result: number[] = [];
  if (count <= 0) return result;
  let candidate = 0;
  for (const iv of nonPending.intervals) {
    for (; candidate < completions && result.length < count && candidate < iv.first; candidate++) result.push(candidate);
    if (candidate < iv.last + 1) candidate = iv.last + 1;
  }
  for (; candidate < completions && result.length < count; candidate++) result.push(candidate);
  return result;
}

/** podGenerateNameWithIndex: "<job>-<index>-", the job name cut so the prefix stays within 58 characters. */
export function generateNameWithIndex(jobName: string, index: number): string {
  const MAX_GENERATED_NAME_LENGTH = 58;
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > MAX_GENERATED_NAME_LENGTH ? jobName.slice(0, MAX_GENERATED_NAME_LENGTH - suffix.length) + suffix : prefix;
}
