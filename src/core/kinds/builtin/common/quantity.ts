// resource.Quantity, as far as the strategies need it: parse the canonical
// forms ("100m", "1Gi", "1.5", "2e3") to compare values (QoS, requests ≤
// limits). Exactness beyond float precision is not needed for these checks.

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

const QUANTITY_RE = /^([+-]?[0-9.]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;

/** The value of a quantity, or undefined when it does not parse (resource.ParseQuantity). */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const m = QUANTITY_RE.exec(value.trim());
  if (!m || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(m[1]!)) return undefined;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  if (suffix in BINARY) return n * BINARY[suffix]!;
  if (suffix in DECIMAL) return n * DECIMAL[suffix]!;
  if (/^[eE]/.test(suffix)) return n * 10 ** Number(suffix.slice(1));
  return undefined;
}

export function isValidQuantity(value: unknown): boolean {
  return parseQuantity(value) !== undefined;
}
