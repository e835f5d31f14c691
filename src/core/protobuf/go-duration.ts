// Go's time.Duration text form: metav1.Duration is an int64 of nanoseconds on
// the wire and Duration.String() ("1h2m3.5s", "150ms", "0s") in JSON.

const SECOND = 1_000_000_000n;

/** Digits of frac / 10^prec after a '.', trailing zeros dropped ('' when zero). */
function fraction(frac: bigint, prec: number): string {
  if (frac === 0n) return '';
  const digits = frac.toString().padStart(prec, '0').replace(/0+$/, '');
  return `.${digits}`;
}

/** time.Duration(nanos).String(). */
export function formatGoDuration(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const neg = nanos < 0n;
  // Go negates as uint64, so the minimum int64 prints its true magnitude.
  const u = neg ? -nanos : nanos;
  let text: string;
  if (u < SECOND) {
    let prec: number;
    let unit: string;
    if (u < 1_000n) {
      prec = 0;
      unit = 'ns';
    } else if (u < 1_000_000n) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const scale = 10n ** BigInt(prec);
    text = `${u / scale}${fraction(u % scale, prec)}${unit}`;
  } else {
    const seconds = u / SECOND;
    text = `${seconds % 60n}${fraction(u % SECOND, 9)}s`;
    const minutes = seconds / 60n;
    if (minutes > 0n) {
      text = `${minutes % 60n}m${text}`;
      const hours = minutes / 60n;
      if (hours > 0n) text = `${hours}h${text}`;
    }
  }
  return neg ? `-${text}` : text;
}

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: SECOND,
  m: 60n * SECOND,
  h: 3600n * SECOND,
};

/** time.ParseDuration: nanoseconds, or an Error with Go's text. */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new Error(`time: invalid duration ${JSON.stringify(text)}`);
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?([^\d.]+)/.exec(s);
    if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) throw invalid();
    const unitText = /^(ns|us|µs|μs|ms|s|m|h)/.exec(m[3]!)?.[1];
    if (!unitText) throw new Error(`time: ${m[3] ? `unknown unit ${JSON.stringify(m[3].replace(/\d.*$/, ''))} in duration ${JSON.stringify(text)}` : `missing unit in duration ${JSON.stringify(text)}`}`);
    const unit = UNITS[unitText]!;
    const whole = BigInt(m[1] || '0') * unit;
    const fracDigits = m[2] ?? '';
    const frac = fracDigits ? (BigInt(fracDigits) * unit) / 10n ** BigInt(fracDigits.length) : 0n;
    total += whole + frac;
    s = s.slice(m[1]!.length + (m[2] !== undefined ? m[2].length + 1 : 0) + unitText.length);
  }
  if (total > 2n ** 63n - (neg ? 0n : 1n)) throw invalid();
  return neg ? -total : total;
}
