// kube-apiserver's duration flags (--etcd-compaction-interval=5m0s, …) use Go's
// time.ParseDuration syntax. Both hosts read those flags, so they share this.

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a Go duration ("300ms", "1.5h", "2h45m", "5m0s", "0") into
 * milliseconds. Throws with Go's message for anything else.
 */
export function parseGoDuration(text: string): number {
  const original = text;
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new Error(`time: invalid duration "${original}"`);
  let total = 0;
  const part = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)?/;
  while (rest.length > 0) {
    const match = part.exec(rest);
    if (!match) throw new Error(`time: invalid duration "${original}"`);
    const unit = match[2];
    if (unit === undefined) throw new Error(`time: missing unit in duration "${original}"`);
    total += Number(match[1]) * UNIT_MS[unit]!;
    rest = rest.slice(match[0].length);
  }
  return sign * total;
}
