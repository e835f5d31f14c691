import { describe, expect, it } from 'vitest';
import { parseGoDuration } from './go-duration';

// Rule: kube-apiserver duration flags (e.g. --etcd-compaction-interval) take Go's time.ParseDuration syntax.
describe('parseGoDuration', () => {
  it.each([
    ['5m0s', 300_000],
    ['5m', 300_000],
    ['300ms', 300],
    ['1.5h', 5_400_000],
    ['2h45m', 9_900_000],
    ['0', 0],
    ['10s', 10_000],
    ['-1s', -1000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it('refuses a number without a unit, as Go does', () => {
    expect(() => parseGoDuration('5')).toThrow('time: missing unit in duration "5"');
  });

  it('refuses garbage', () => {
    expect(() => parseGoDuration('five minutes')).toThrow('time: invalid duration "five minutes"');
    expect(() => parseGoDuration('')).toThrow('time: invalid duration ""');
  });
});
