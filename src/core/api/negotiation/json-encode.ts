// JSON as kube-apiserver writes it with Go's encoding/json:
// - compact output ends with a newline (json.Encoder.Encode), indented
//   output (?pretty, curl, browsers) uses two spaces and has none
//   (json.MarshalIndent);
// - <, > and & are escaped as \u003c, \u003e, \u0026, and U+2028/U+2029 as
//   \u2028/\u2029 (Go's HTML-safe escaping, on by default);
// - a string holding an unpaired surrogate is written with U+FFFD (Go cannot
//   hold one);
// - Go writes map keys sorted and struct fields in declaration order. Typed
//   objects must be built in kube's field order by their producer; for
//   unstructured content (custom resources) pass sortKeys and every object's
//   keys are sorted by their bytes, as Go sorts map keys.
// - JavaScript objects list integer-like keys ("2", "10") first, in numeric
//   order, whatever order they were set in. Only a map can have such keys (no
//   Go field is named so), so an object that has one is written with its keys
//   in Go's map order ("10" before "2").

import { compareGoStrings } from '../../util/go/strings';

export interface JsonEncodeOptions {
  /** Indented, as json.MarshalIndent(v, "", "  "). */
  readonly pretty?: boolean;
  /** Sort every object's keys (map[string]interface{} content). */
  readonly sortKeys?: boolean;
}

const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** Applies Go's extra escapes to JSON text produced by JSON.stringify. */
function goEscape(json: string): string {
  // These characters can only occur inside string literals of JSON text.
  let out = json.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!);
  if (/\\ud[89a-f]/.test(out)) {
    // JSON.stringify writes unpaired surrogates as \udXXX escapes; an odd run of
    // backslashes before "ud…" means the escape is real, not an escaped backslash.
    out = out.replace(/(\\+)u(d[89a-f][0-9a-f]{2})/g, (m, slashes: string) => (slashes.length % 2 === 1 ? `${slashes}ufffd` : m));
  }
  return out;
}

/** A key JavaScript lists first in numeric order (an array index). */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;
/** An integer-like key somewhere in JSON text (possibly inside a string: then the careful path runs for nothing). */
const INDEX_KEY_IN_TEXT = /[{,]\s*"(?:0|[1-9][0-9]*)"\s*:/;

function hasIndexKey(keys: readonly string[]): boolean {
  for (const k of keys) if (INDEX_KEY.test(k)) return true;
  return false;
}

/**
 * Encodes with each object's keys sorted (all objects with `sortAll`, else
 * those with an integer-like key); written by hand because JS objects list
 * integer-like keys first.
 */
function stringifySorted(value: unknown, indent: string, step: string, sortAll = true): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = step ? `\n${indent}${step}` : '';
  const close = step ? `\n${indent}` : '';
  const colon = step ? ': ' : ':';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => stringifySorted(v, indent + step, step, sortAll) ?? 'null');
    return `[${inner}${items.join(`,${inner}`)}${close}]`;
  }
  const entries: string[] = [];
  const keys = Object.keys(value);
  if (sortAll || hasIndexKey(keys)) keys.sort(compareGoStrings);
  for (const key of keys) {
    const encoded = stringifySorted((value as Record<string, unknown>)[key], indent + step, step, sortAll);
    if (encoded !== undefined) entries.push(`${JSON.stringify(key)}${colon}${encoded}`);
  }
  if (entries.length === 0) return '{}';
  return `{${inner}${entries.join(`,${inner}`)}${close}}`;
}

/** The response body for a JSON response. */
export function encodeJson(value: unknown, options: JsonEncodeOptions | boolean = {}): string {
  const { pretty = false, sortKeys = false } = typeof options === 'boolean' ? { pretty: options } : options;
  let text = sortKeys ? stringifySorted(value, '', pretty ? '  ' : '') : JSON.stringify(value, null, pretty ? 2 : undefined);
  if (!sortKeys && text !== undefined && INDEX_KEY_IN_TEXT.test(text)) text = stringifySorted(value, '', pretty ? '  ' : '', false);
  const escaped = goEscape(text ?? 'null');
  return pretty ? escaped : `${escaped}\n`;
}
