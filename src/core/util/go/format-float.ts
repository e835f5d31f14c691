// strconv.FormatFloat(f, 'g', -1, 64): how fmt's %v prints a float64 and how
// go-yaml writes one. JavaScript finds the same shortest round-trip digits;
// only the layout differs (Go switches to an exponent below 1e-4 and from
// 1e21's much smaller cousin 1e6, with a sign and at least two digits).

/** The shortest 'g' form of a float64: 1e+06, 1.5e-05, 123456, 0.0001, -0, +Inf, NaN. */
export function formatFloatG(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  // Between 1e-4 and 1e6 JavaScript writes the same digits without an exponent.
  return String(f);
}
