// Numbers as Go prints them where kube's output differs from JavaScript's.

/**
 * strconv.FormatFloat(f, 'g', -1, 64): the shortest digits, in exponent form
 * when the exponent is below -4 or at least 6 (so 1e+06, 1.5e-05), with a
 * sign and at least two exponent digits.
 */
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
  // Between 1e-4 and 1e6 JavaScript writes the same shortest digits without an exponent.
  return String(f);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * How a JSON number comes out of sigs.k8s.io/yaml's JSON→YAML conversion:
 * go-yaml re-reads the JSON text, so an integer that fits int64 or uint64
 * stays an integer and anything else becomes a float64 printed with 'g'.
 */
export function yamlNumber(n: number): string {
  const json = JSON.stringify(n);
  if (json === undefined || json === 'null') return formatFloatG(n);
  if (/^-?\d+$/.test(json)) {
    const big = BigInt(json);
    if ((big >= INT64_MIN && big <= INT64_MAX) || (big >= 0n && big <= UINT64_MAX)) return json;
  }
  return formatFloatG(n);
}
