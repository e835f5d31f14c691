// The two resource.Quantity operations the HPA controller makes: MilliValue
// (the value in thousandths, rounded up, as kube's replica calculator sums
// requests and usage) and NewMilliQuantity(v, DecimalSI).String() for the
// averageValue it reports. Exact on the decimal digits, not through floats,
// so "0.1" is 100 milli and "5123456n" is 6.

import { formatMilliQuantity } from '../../api/metrics/quantities';

const DECIMAL_EXPONENTS: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_POWERS: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };

/** Value × 1000, rounded up (Quantity.MilliValue); undefined when `q` is not a quantity. */
export function milliValue(q: unknown): number | undefined {
  if (typeof q === 'number') return Math.ceil(q * 1000);
  if (typeof q !== 'string') return undefined;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?\d+|n|u|m|k|M|G|T|P|E)?$/.exec(q.trim());
  if (!m || (!m[2] && !m[3])) return undefined;
  const negative = m[1] === '-';
  const digits = `${m[2] ?? ''}${m[3] ?? ''}`.replace(/^0+(?=\d)/, '') || '0';
  let mantissa = BigInt(digits);
  let exponent = -(m[3]?.length ?? 0) + 3;
  const suffix = m[4] ?? '';
  if (suffix in BINARY_POWERS) mantissa *= 1024n ** BigInt(BINARY_POWERS[suffix]!);
  else if (/^[eE]/.test(suffix)) exponent += Number(suffix.slice(1));
  else exponent += DECIMAL_EXPONENTS[suffix]!;
  let value: bigint;
  if (exponent >= 0) value = mantissa * 10n ** BigInt(exponent);
  else {
    const divisor = 10n ** BigInt(-exponent);
    value = mantissa / divisor + (mantissa % divisor === 0n ? 0n : 1n);
  }
  return Number(negative ? -value : value);
}

/** resource.NewMilliQuantity(milli, DecimalSI).String(). */
export function milliQuantity(milli: number): string {
  return formatMilliQuantity(milli);
}
