// When a CronJob should run (pkg/controller/cronjob utils.go): the most
// recent schedule time not yet acted on — only the latest of several missed
// ones, as kube — counting from the last schedule time (or the CronJob's
// creation), no earlier than startingDeadlineSeconds ago; whether more than
// 100 were missed; and how long until the next one (plus kube's 100 ms of
// slack for clock skew).

import type { Schedule } from './cron-schedule';

export const NEXT_SCHEDULE_DELTA_MS = 100;
export const TOO_MANY_MISSED = 100;

export type Missed = 'none' | 'few' | 'many';

export interface CronTimes {
  /** The last schedule time, or the creation time. */
  readonly lastScheduleMs: number | undefined;
  readonly creationMs: number;
  readonly startingDeadlineSeconds: number | undefined;
}

export class InvalidScheduleError extends Error {}

/** mostRecentScheduleTime. */
export function mostRecentScheduleTime(
  cj: CronTimes,
  nowMs: number,
  schedule: Schedule,
  includeStartingDeadline: boolean,
): { earliest: number; mostRecent: number | undefined; missed: Missed } {
  let earliest = cj.lastScheduleMs ?? cj.creationMs;
  if (includeStartingDeadline && cj.startingDeadlineSeconds !== undefined) {
    const deadline = nowMs - cj.startingDeadlineSeconds * 1000;
    if (deadline > earliest) earliest = deadline;
  }
  const t1 = schedule.next(earliest);
  const t2 = t1 === undefined ? undefined : schedule.next(t1);
  if (t1 !== undefined && nowMs < t1) return { earliest, mostRecent: undefined, missed: 'none' };
  if (t2 !== undefined && nowMs < t2) return { earliest, mostRecent: t1, missed: 'none' };
  // A schedule that never fires (31 February) has no two times to tell apart.
  const between = t1 === undefined || t2 === undefined ? 0 : Math.round((t2 - t1) / 1000);
  if (between < 1) throw new InvalidScheduleError('time difference between two schedules is less than 1 second');
  const elapsed = Math.trunc((nowMs - t1!) / 1000);
  const missedCount = Math.trunc(elapsed / between) + 1;
  let mostRecent: number | undefined;
  // Start a little before the estimate so an irregular schedule (30 6-16/4 * * 1-5) is still found exactly.
  const potentialEarliest = t1! + (missedCount - 2) * between * 1000;
  for (let t = schedule.next(potentialEarliest); t !== undefined && t <= nowMs; t = schedule.next(t)) mostRecent = t;
  const missed: Missed = missedCount > TOO_MANY_MISSED ? 'many' : missedCount > 0 ? 'few' : 'none';
  return { earliest, mostRecent, missed };
}

/** nextScheduleTimeDuration: how long until the Clock reaches the next run (+100 ms). */
export function nextScheduleDelayMs(cj: CronTimes, nowMs: number, schedule: Schedule): number | undefined {
  let from: number;
  try {
    const r = mostRecentScheduleTime(cj, nowMs, schedule, false);
    from = r.mostRecent ?? (r.missed === 'none' ? r.earliest : nowMs);
  } catch {
    from = nowMs;
  }
  const next = schedule.next(from);
  return next === undefined ? undefined : next + NEXT_SCHEDULE_DELTA_MS - nowMs;
}

/** nextScheduleTime: the run to start now, if any (throws InvalidScheduleError). */
export function scheduleTimeToRun(cj: CronTimes, nowMs: number, schedule: Schedule): { time: number | undefined; tooManyMissed: boolean } {
  const r = mostRecentScheduleTime(cj, nowMs, schedule, true);
  if (r.mostRecent === undefined || r.mostRecent > nowMs) return { time: undefined, tooManyMissed: false };
  return { time: r.mostRecent, tooManyMissed: r.missed === 'many' };
}
