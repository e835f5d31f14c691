// duration.HumanDuration as kubectl shows ages (AGE columns are computed by
// the server with it).

import { describe, expect, it } from 'vitest';
import { ageSince, humanDuration, shortHumanDuration } from './human-duration';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  it.each([
    [-2 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 5 * s, '2m5s'],
    [10 * m + 5 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 20 * m, '3h20m'],
    [8 * h + 20 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [2 * d + 3 * h, '2d3h'],
    [8 * d + 3 * h, '8d'],
    [729 * d, '729d'],
    [2 * 365 * d + 10 * d, '2y10d'],
    [9 * 365 * d, '9y'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('short form', () => {
    expect(shortHumanDuration(90 * s)).toBe('1m');
    expect(shortHumanDuration(25 * h)).toBe('1d');
  });

  it('prints <unknown> for a missing timestamp', () => {
    expect(ageSince(undefined, 0)).toBe('<unknown>');
    expect(ageSince('2024-12-11T12:00:00Z', Date.parse('2024-12-11T12:01:30Z'))).toBe('90s');
  });
});
