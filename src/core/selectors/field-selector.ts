// Field selectors (k8s.io/apimachinery fields.ParseSelector): comma-joined
// terms `field=value`, `field==value` or `field!=value`. A backslash escapes
// `\`, `,` and `=` in a value; the field name is taken up to the first
// operator and never unescaped. No whitespace is trimmed anywhere.

import type { SelectorRequirement } from '../auth/types';
import { parsedOrBadRequest, parsedOrErrorText, SelectorError } from './selector-error';

export type FieldOperator = '=' | '!=';

/** fields.Requirement: `==` is stored as `=`, as kube's hasTerm does. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

/** How a selector reads an object's fields: the value as text, undefined when absent (matched as ""). */
export type FieldGetter = (field: string) => string | undefined;
export type Fields = Readonly<Record<string, string>> | FieldGetter;

/** fields.TransformFunc: may rename a field or change a value; throws SelectorError to refuse. */
export type FieldTransform = (field: string, value: string) => { field: string; value: string };

function getField(fields: Fields, name: string): string {
  if (typeof fields === 'function') return fields(name) ?? '';
  return Object.prototype.hasOwnProperty.call(fields, name) ? (fields[name] ?? '') : '';
}

/** fields.EscapeValue. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.UnescapeValue, with kube's errors for a bad escape or a bare `,` / `=`. */
export function unescapeFieldValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    // Go prints the rune with %v, i.e. as its number (61 for '=', 44 for ',').
    else if (c === ',' || c === '=') throw new SelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits on commas that are not escaped; the backslashes stay in the terms. */
function splitTerms(selector: string): string[] {
  if (selector === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** The first operator in the term, trying `!=` before `==` before `=` at each position. */
function splitTerm(term: string): { lhs: string; op: '!=' | '==' | '='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

export class FieldSelector {
  private constructor(private readonly reqs: readonly FieldRequirement[]) {}

  static everything(): FieldSelector {
    return new FieldSelector([]);
  }

  static fromRequirements(requirements: readonly FieldRequirement[]): FieldSelector {
    return new FieldSelector([...requirements]);
  }

  /** fields.OneTermEqualSelector. */
  static oneTermEqual(field: string, value: string): FieldSelector {
    return new FieldSelector([{ field, operator: '=', value }]);
  }

  /** Matches: every term holds; a missing field reads as "". */
  matches(fields: Fields): boolean {
    return this.reqs.every((r) => (getField(fields, r.field) === r.value) === (r.operator === '='));
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  /** Requirements(): the terms in parse order (sorted by their text). */
  requirements(): readonly FieldRequirement[] {
    return this.reqs;
  }

  /** RequiresExactMatch: the value of the first `field=value` term on `field`. */
  requiresExactMatch(field: string): string | undefined {
    return this.reqs.find((r) => r.field === field && r.operator === '=')?.value;
  }

  /**
   * Transform: applies `fn` to every term in order (the first refusal wins);
   * a term turned into an empty field and value is dropped.
   */
  transform(fn: FieldTransform): FieldSelector {
    const next: FieldRequirement[] = [];
    for (const r of this.reqs) {
      const t = fn(r.field, r.value);
      if (t.field === '' && t.value === '') continue;
      next.push({ field: t.field, operator: r.operator, value: t.value });
    }
    return new FieldSelector(next);
  }

  /** String(): `field=value` terms with values escaped, comma-joined. */
  toString(): string {
    return this.reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** fields.ParseSelector, throwing SelectorError with kube's message. */
export function parseFieldRequirements(selector: string): FieldRequirement[] {
  // kube sorts the raw terms before parsing; errors and term order follow that order.
  const parts = splitTerms(selector).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    reqs.push({ field: term.lhs, operator: term.op === '!=' ? '!=' : '=', value: unescapeFieldValue(term.rhs) });
  }
  return reqs;
}

/**
 * The fieldSelector query parameter. An empty string selects everything; a
 * malformed selector throws kube-apiserver's 400 BadRequest StatusError.
 * Whether the fields are supported by the kind is validateFieldSelector's job.
 */
export function parseFieldSelector(text: string): FieldSelector {
  return parsedOrBadRequest(() => FieldSelector.fromRequirements(parseFieldRequirements(text)));
}

/** Like parseFieldSelector but returns the parse error text (authorization keeps it as FieldSelectorParsingErr). */
export function tryParseFieldSelector(text: string): { selector: FieldSelector; error?: undefined } | { selector?: undefined; error: string } {
  return parsedOrErrorText(() => FieldSelector.fromRequirements(parseFieldRequirements(text)));
}

/** The requirements a webhook/SubjectAccessReview sees: `=` becomes In, `!=` NotIn, each with its one value. */
export function fieldRequirementsForAuthorization(selector: FieldSelector): SelectorRequirement[] {
  return selector.requirements().map((r) => ({ key: r.field, operator: r.operator === '=' ? 'In' : 'NotIn', values: [r.value] }));
}
