// strconv.FormatFloat(f, 'g', -1, 64): fmt's %v of a float64 and go-yaml's
// float output (e.g. `1e+06` where JavaScript writes `1000000`).

import { describe, expect, it } from 'vitest';
import { formatFloatG } from './format-float';

describe('formatFloatG', () => {
  it('uses an exponent below 1e-4 and from 1e6, with a sign and two digits', () => {
    expect(formatFloatG(1e6)).toBe('1e+06');
    expect(formatFloatG(1234567.5)).toBe('1.2345675e+06');
    expect(formatFloatG(-2.5e-5)).toBe('-2.5e-05');
    expect(formatFloatG(1e21)).toBe('1e+21');
    expect(formatFloatG(1.5e-300)).toBe('1.5e-300');
  });

  it('writes plain digits between 1e-4 and 1e6', () => {
    expect(formatFloatG(0.0001)).toBe('0.0001');
    expect(formatFloatG(123456)).toBe('123456');
    expect(formatFloatG(999999.5)).toBe('999999.5');
    expect(formatFloatG(-1.5)).toBe('-1.5');
  });

  it('writes zero, negative zero and the non-finite values as Go does', () => {
    expect(formatFloatG(0)).toBe('0');
    expect(formatFloatG(-0)).toBe('-0');
    expect(formatFloatG(Infinity)).toBe('+Inf');
    expect(formatFloatG(-Infinity)).toBe('-Inf');
    expect(formatFloatG(NaN)).toBe('NaN');
  });
});
