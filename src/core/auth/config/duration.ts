// Go's time.Duration text form, used by metav1.Duration fields in the
// configuration files ("5m0s", "30s", "1h30m", "500ms").

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or undefined for text Go would refuse. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(text);
  if (!m) return undefined;
  let total = 0;
  for (const part of text.replace(/^[-+]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) total += Number(part[1]) * UNITS[part[2]!]!;
  return m[1] === '-' ? -total : total;
}

/** time.Duration.String() for whole milliseconds. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  if (h) return `${sign}${h}h${m}m${s}s`;
  if (m) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}
