// The little quantity arithmetic the resource plugins need: values compared
// in milli-units rounded up (resource.Quantity.MilliValue), sums printed back
// in a canonical-looking form. Inputs are quantity strings as stored.

import { parseQuantity } from '../../kinds/builtin/common/quantity';

export type ResourceList = Record<string, string>;

/** The quantity in milli-units, rounded up as MilliValue does; undefined when it does not parse. */
export function milliValue(q: unknown): number | undefined {
  const v = parseQuantity(q);
  if (v === undefined) return undefined;
  // Float noise (0.1 * 1000) must not round up to the next milli.
  return Math.ceil(v * 1000 - 1e-6);
}

const BINARY: [string, number][] = [
  ['Ei', 2 ** 60],
  ['Pi', 2 ** 50],
  ['Ti', 2 ** 40],
  ['Gi', 2 ** 30],
  ['Mi', 2 ** 20],
  ['Ki', 2 ** 10],
];
const DECIMAL: [string, number][] = [
  ['E', 1e18],
  ['P', 1e15],
  ['T', 1e12],
  ['G', 1e9],
  ['M', 1e6],
  ['k', 1e3],
];

/** A milli-value printed as kube prints a quantity: binary suffixes when `binary`, else decimal ones or 'm'. */
export function formatMilli(milli: number, binary: boolean): string {
  if (milli % 1000 !== 0) return `${milli}m`;
  const units = milli / 1000;
  if (units === 0) return '0';
  for (const [suffix, size] of binary ? BINARY : DECIMAL) {
    if (units % size === 0) return `${units / size}${suffix}`;
  }
  return String(units);
}

export function isBinary(q: unknown): boolean {
  return typeof q === 'string' && /[KMGTPE]i$/.test(q);
}

export function resourceList(v: unknown): ResourceList {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: ResourceList = {};
  for (const [k, q] of Object.entries(v)) out[k] = String(q);
  return out;
}
