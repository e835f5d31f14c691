// The cron parser and next-time search against what robfig/cron (and so
// kube-controller-manager) computes: fields, names, steps, descriptors,
// @every, time zones and daylight saving transitions.

import { describe, expect, it } from 'vitest';
import { parseSchedule, ScheduleError } from './cron-schedule';
import { loadZone } from './zoned-time';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z'));
const next = (spec: string, from: string) => iso(parseSchedule(spec).next(at(from)));
const nexts = (spec: string, from: string, n: number) => {
  const s = parseSchedule(spec);
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < n; i++) {
    t = s.next(t)!;
    out.push(iso(t)!);
  }
  return out;
};

describe('cron schedule', () => {
  it('finds the next minute, step, range and list', () => {
    expect(next('* * * * *', '2024-12-11T12:00:00Z')).toBe('2024-12-11T12:01:00Z');
    expect(next('* * * * *', '2024-12-11T12:00:30.500Z')).toBe('2024-12-11T12:01:00Z');
    expect(nexts('*/15 * * * *', '2024-12-11T12:00:00Z', 3)).toEqual(['2024-12-11T12:15:00Z', '2024-12-11T12:30:00Z', '2024-12-11T12:45:00Z']);
    expect(nexts('5/20 * * * *', '2024-12-11T12:00:00Z', 3)).toEqual(['2024-12-11T12:05:00Z', '2024-12-11T12:25:00Z', '2024-12-11T12:45:00Z']);
    expect(nexts('0 9-17/4 * * *', '2024-12-11T12:00:00Z', 3)).toEqual(['2024-12-11T13:00:00Z', '2024-12-11T17:00:00Z', '2024-12-12T09:00:00Z']);
    expect(nexts('30 6,18 * * *', '2024-12-11T12:00:00Z', 2)).toEqual(['2024-12-11T18:30:00Z', '2024-12-12T06:30:00Z']);
  });

  it('reads month and weekday names, and ORs a restricted day of month with a restricted weekday', () => {
    expect(next('0 0 * JAN mon', '2024-12-11T12:00:00Z')).toBe('2025-01-06T00:00:00Z');
    expect(next('0 0 1-7 * FRI-sat', '2024-12-11T12:00:00Z')).toBe('2024-12-13T00:00:00Z');
    expect(next('0 0 13 * 5', '2024-12-11T12:00:00Z')).toBe('2024-12-13T00:00:00Z');
    // Day of month with a * weekday: both must match.
    expect(next('0 0 29 2 *', '2024-12-11T12:00:00Z')).toBe('2028-02-29T00:00:00Z');
    expect(next('0 0 30 2 *', '2024-12-11T12:00:00Z')).toBeUndefined();
  });

  it('knows the descriptors and @every', () => {
    expect(next('@hourly', '2024-12-11T12:10:00Z')).toBe('2024-12-11T13:00:00Z');
    expect(next('@daily', '2024-12-11T12:10:00Z')).toBe('2024-12-12T00:00:00Z');
    expect(next('@midnight', '2024-12-11T12:10:00Z')).toBe('2024-12-12T00:00:00Z');
    expect(next('@weekly', '2024-12-11T12:10:00Z')).toBe('2024-12-15T00:00:00Z');
    expect(next('@monthly', '2024-12-11T12:10:00Z')).toBe('2025-01-01T00:00:00Z');
    expect(next('@yearly', '2024-12-11T12:10:00Z')).toBe('2025-01-01T00:00:00Z');
    expect(next('@annually', '2024-12-11T12:10:00Z')).toBe('2025-01-01T00:00:00Z');
    expect(next('@every 90s', '2024-12-11T12:10:00.250Z')).toBe('2024-12-11T12:11:30Z');
    expect(next('@every 1h30m', '2024-12-11T12:00:00Z')).toBe('2024-12-11T13:30:00Z');
  });

  it("refuses what robfig refuses, with its messages", () => {
    const err = (spec: string) => {
      try {
        parseSchedule(spec);
      } catch (e) {
        expect(e).toBeInstanceOf(ScheduleError);
        return (e as Error).message;
      }
      return undefined;
    };
    expect(err('')).toBe('empty spec string');
    expect(err('* * * *')).toBe('expected exactly 5 fields, found 4: [* * * *]');
    expect(err('60 * * * *')).toBe('end of range (60) above maximum (59): 60');
    expect(err('* * 0 * *')).toBe('beginning of range (0) below minimum (1): 0');
    expect(err('5-1 * * * *')).toBe('beginning of range (5) beyond end of range (1): 5-1');
    expect(err('*/0 * * * *')).toBe('step of range should be a positive number: */0');
    expect(err('1-2-3 * * * *')).toBe('too many hyphens: 1-2-3');
    expect(err('x * * * *')).toBe('failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
    expect(err('@often')).toBe('unrecognized descriptor: @often');
    expect(err('TZ=Mars/Olympus 0 * * * *')).toBe('provided bad location Mars/Olympus: unknown time zone Mars/Olympus');
  });

  it('computes in a time zone, across daylight saving time', () => {
    // Europe/Berlin is UTC+1 in winter, UTC+2 in summer.
    expect(next('TZ=Europe/Berlin 0 9 * * *', '2024-12-11T12:00:00Z')).toBe('2024-12-12T08:00:00Z');
    expect(next('TZ=Europe/Berlin 0 9 * * *', '2024-07-11T12:00:00Z')).toBe('2024-07-12T07:00:00Z');
    // 2025-03-30 02:00 local does not exist: the 02:30 run is skipped, the next is the day after.
    expect(nexts('TZ=Europe/Berlin 30 2 * * *', '2025-03-29T12:00:00Z', 2)).toEqual(['2025-03-31T00:30:00Z', '2025-04-01T00:30:00Z']);
    // 2025-10-26 02:30 local happens twice (CEST, then CET): robfig's search finds both.
    expect(nexts('TZ=Europe/Berlin 30 2 * * *', '2025-10-25T12:00:00Z', 3)).toEqual(['2025-10-26T00:30:00Z', '2025-10-26T01:30:00Z', '2025-10-27T01:30:00Z']);
    // America/New_York hourly across the spring gap.
    expect(nexts('CRON_TZ=America/New_York 0 * * * *', '2025-03-09T06:30:00Z', 3)).toEqual(['2025-03-09T07:00:00Z', '2025-03-09T08:00:00Z', '2025-03-09T09:00:00Z']);
  });

  it('formats times in a zone as RFC 3339 with the offset', () => {
    expect(loadZone('Europe/Berlin')!.rfc3339(at('2024-12-11T12:05:00Z'))).toBe('2024-12-11T13:05:00+01:00');
    expect(loadZone('Asia/Kolkata')!.rfc3339(at('2024-12-11T12:05:00Z'))).toBe('2024-12-11T17:35:00+05:30');
    expect(loadZone('America/New_York')!.rfc3339(at('2024-12-11T12:05:00Z'))).toBe('2024-12-11T07:05:00-05:00');
    expect(loadZone('UTC')!.rfc3339(at('2024-12-11T12:05:00Z'))).toBe('2024-12-11T12:05:00Z');
    expect(loadZone('Not/AZone')).toBeUndefined();
  });
});
