// Statistics and the printed table of the benchmark.

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export const p50 = (values: readonly number[]) => percentile(values, 50);
export const p90 = (values: readonly number[]) => percentile(values, 90);

export interface Row {
  readonly figure: string;
  readonly kubetab: string;
  readonly floor: string;
  readonly ratio: string;
  readonly target: string;
  readonly met: boolean | undefined;
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value < 10 ? `${value.toFixed(3)} ms` : `${value.toFixed(1)} ms`;
}

export function perSecond(value: number, unit = 'obj/s'): string {
  return Number.isFinite(value) ? `${Math.round(value).toLocaleString('en-US')} ${unit}` : 'n/a';
}

export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a';
}

/** A Markdown table (README-ready). */
export function table(rows: readonly Row[]): string {
  const header = ['figure', 'KubeTab', 'floor', 'ratio', 'target', 'met'];
  const lines = rows.map((r) => [r.figure, r.kubetab, r.floor, r.ratio, r.target, r.met === undefined ? '' : r.met ? 'yes' : 'no']);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [format(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(format)].join('\n');
}
