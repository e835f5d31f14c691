// Parses the fieldSelector and labelSelector query parameters of a list,
// watch or deletecollection into the requirement lists that authorizers see
// with AuthorizeWithSelectors (beta, on by default in 1.32). Equality becomes
// `In` with one value and inequality `NotIn`, as kube-apiserver converts them
// when it writes a SubjectAccessReview.

import type { SelectorRequirement } from './types';

export interface ParsedRequirements {
  readonly requirements?: SelectorRequirement[];
  readonly error?: string;
}

/** Splits on commas that are not escaped with a backslash (fields.ParseSelector). */
function splitFieldTerms(selector: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '\\' && i + 1 < selector.length) {
      current += c + selector[i + 1];
      i++;
    } else if (c === ',') {
      terms.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  terms.push(current);
  return terms;
}

function unescapeFieldValue(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

export function parseFieldSelectorRequirements(selector: string): ParsedRequirements {
  if (selector.trim() === '') return { requirements: [] };
  const requirements: SelectorRequirement[] = [];
  for (const term of splitFieldTerms(selector)) {
    if (term === '') continue;
    // "!=" before "==" before "=", the order fields.ParseSelector tries them.
    let match: { op: string; at: number } | undefined;
    for (const op of ['!=', '==', '=']) {
      const at = term.indexOf(op);
      if (at >= 0) {
        match = { op, at };
        break;
      }
    }
    if (!match) return { error: `invalid selector: '${selector}'; can't understand '${term}'` };
    const key = term.slice(0, match.at);
    const value = unescapeFieldValue(term.slice(match.at + match.op.length));
    requirements.push({ key, operator: match.op === '!=' ? 'NotIn' : 'In', values: [value] });
  }
  return { requirements };
}

/** Splits label selector terms on commas outside parentheses. */
function splitLabelTerms(selector: string): string[] | undefined {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of selector) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (depth < 0) return undefined;
    if (c === ',' && depth === 0) {
      terms.push(current.trim());
      current = '';
    } else {
      current += c;
    }
  }
  if (depth !== 0) return undefined;
  terms.push(current.trim());
  return terms;
}

export function parseLabelSelectorRequirements(selector: string): ParsedRequirements {
  if (selector.trim() === '') return { requirements: [] };
  const terms = splitLabelTerms(selector);
  if (!terms) return { error: `unable to parse requirement: found '${selector}', expected: ')'` };
  const requirements: SelectorRequirement[] = [];
  for (const term of terms) {
    if (term === '') return { error: `found '', expected: !, identifier, or 'end of string'` };
    let m: RegExpMatchArray | null;
    if ((m = term.match(/^!\s*([^\s=!<>(),]+)$/))) {
      requirements.push({ key: m[1]!, operator: 'DoesNotExist' });
    } else if ((m = term.match(/^([^\s=!<>(),]+)\s+(in|notin)\s*\(([^)]*)\)$/))) {
      const values = m[3]!
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      requirements.push({ key: m[1]!, operator: m[2] === 'in' ? 'In' : 'NotIn', values });
    } else if ((m = term.match(/^([^\s=!<>(),]+)\s*(!=|==|=)\s*([^\s=!<>(),]*)$/))) {
      requirements.push({ key: m[1]!, operator: m[2] === '!=' ? 'NotIn' : 'In', values: [m[3]!] });
    } else if ((m = term.match(/^([^\s=!<>(),]+)\s*(<|>)\s*([^\s=!<>(),]*)$/))) {
      // Gt/Lt have no SubjectAccessReview form; authorizers do not see them.
      continue;
    } else if ((m = term.match(/^([^\s=!<>(),]+)$/))) {
      requirements.push({ key: m[1]!, operator: 'Exists' });
    } else {
      return { error: `unable to parse requirement: ${term}` };
    }
  }
  return { requirements };
}
