// metav1.Duration's JSON is Go's time.Duration.String(); encoding parses it
// back with time.ParseDuration.

import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration } from './go-duration';

describe('time.Duration.String()', () => {
  it.each([
    [0n, '0s'],
    [1n, '1ns'],
    [1_500n, '1.5µs'],
    [1_500_000n, '1.5ms'],
    [999_999_999n, '999.999999ms'],
    [1_000_000_000n, '1s'],
    [90_000_000_000n, '1m30s'],
    [3_600_000_000_000n, '1h0m0s'],
    [3_723_500_000_000n, '1h2m3.5s'],
    [-1_500_000_000n, '-1.5s'],
    [-(2n ** 63n), '-2562047h47m16.854775808s'],
  ])('%s ns → %s', (nanos, text) => {
    expect(formatGoDuration(nanos)).toBe(text);
  });
});

describe('time.ParseDuration', () => {
  it.each([
    ['0', 0n],
    ['1h0m0s', 3_600_000_000_000n],
    ['1.5s', 1_500_000_000n],
    ['2h45m', 9_900_000_000_000n],
    ['-300ms', -300_000_000n],
    ['1µs', 1_000n],
    ['10us', 10_000n],
  ])('%s → %s ns', (text, nanos) => {
    expect(parseGoDuration(text)).toBe(nanos);
  });

  it('rejects what Go rejects', () => {
    expect(() => parseGoDuration('')).toThrow('time: invalid duration ""');
    expect(() => parseGoDuration('abc')).toThrow('time: invalid duration "abc"');
    expect(() => parseGoDuration('5 minutes')).toThrow(/unknown unit/);
  });
});
