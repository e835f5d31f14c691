// One walk for the ways Go prints a decoded JSON tree (map[string]interface{},
// []interface{} and scalars): fmt's %v and %#v, and structured-merge-diff's
// value.ToString. Each way differs only in how it writes a scalar, a list
// and a map; the walk and the map order (Go sorts map keys by their bytes)
// are the same.

import { compareGoStrings } from './strings';

export interface GoTreePrinter {
  /** Anything that is neither a list nor a map; nested is true inside one. */
  scalar(value: unknown, nested: boolean): string;
  list(items: string[]): string;
  /** The map's entries in Go's order, each key with its value's text. */
  map(entries: [key: string, text: string][]): string;
  /** Turns a wrapped scalar (a patch's RawScalar) into the value to print. */
  unwrap?(value: unknown): unknown;
}

export function printGoTree(value: unknown, printer: GoTreePrinter, nested = false): string {
  const v = printer.unwrap ? printer.unwrap(value) : value;
  if (Array.isArray(v)) return printer.list(v.map((item) => printGoTree(item, printer, true)));
  if (typeof v === 'object' && v !== null) {
    const obj = v as Record<string, unknown>;
    return printer.map(
      Object.keys(obj)
        .sort(compareGoStrings)
        .map((k) => [k, printGoTree(obj[k], printer, true)]),
    );
  }
  return printer.scalar(v, nested);
}
