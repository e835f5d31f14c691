// sh's patterns (`*`, `?`, `[…]`) for `case`, `${x#pattern}`, `[[ x == pattern ]]`
// and pathname expansion, turned into regular expressions. A pattern is given
// as pieces so that quoted characters match only themselves.

import { POSIX_CLASSES } from './char-classes';

export interface PatternPiece {
  readonly text: string;
  readonly quoted: boolean;
}

// ash's patterns also know [:word:] (bash's extension).
const CLASSES: Readonly<Record<string, string>> = { ...POSIX_CLASSES, word: 'A-Za-z0-9_' };

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Whether the pieces hold an unquoted pattern character (so pathname expansion applies). */
export function hasPatternCharacters(pieces: readonly PatternPiece[]): boolean {
  return pieces.some((piece) => !piece.quoted && /[*?[]/.test(piece.text));
}

/** The regular expression source of a pattern. In a path, `*` and `?` do not match '/'. */
export function patternSource(pieces: readonly PatternPiece[], forPath = false): string {
  const any = forPath ? '[^/]' : '[\\s\\S]';
  let out = '';
  // Flatten into characters with their quoted flag.
  const chars: { c: string; quoted: boolean }[] = [];
  for (const piece of pieces) for (const c of piece.text) chars.push({ c, quoted: piece.quoted });
  for (let i = 0; i < chars.length; i++) {
    const { c, quoted } = chars[i]!;
    if (quoted) {
      out += escapeRegex(c);
      continue;
    }
    if (c === '\\' && i + 1 < chars.length) {
      out += escapeRegex(chars[++i]!.c);
    } else if (c === '*') {
      out += `${any}*`;
    } else if (c === '?') {
      out += any;
    } else if (c === '[') {
      const bracket = readBracket(chars, i);
      if (bracket) {
        out += bracket.source;
        i = bracket.end;
      } else {
        out += '\\[';
      }
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function readBracket(chars: readonly { c: string; quoted: boolean }[], start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  let negate = false;
  if (chars[i]?.c === '!' || chars[i]?.c === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < chars.length; i++) {
    const c = chars[i]!.c;
    if (c === ']' && !first) return { source: `[${negate ? '^' : ''}${body}]`, end: i };
    first = false;
    if (c === '[' && chars[i + 1]?.c === ':') {
      const rest = chars.slice(i + 2).map((x) => x.c).join('');
      const match = /^([a-z]+):\]/.exec(rest);
      if (match && CLASSES[match[1]!] !== undefined) {
        body += CLASSES[match[1]!];
        i += 2 + match[0].length - 1;
        continue;
      }
    }
    if (c === '\\' || c === ']' || c === '^' || c === '[') body += '\\' + c;
    else body += c;
  }
  return undefined;
}

export function patternRegex(pieces: readonly PatternPiece[], flags = ''): RegExp {
  return new RegExp(`^(?:${patternSource(pieces)})$`, flags);
}

/** Whether `text` matches the whole pattern. */
export function matchPattern(text: string, pieces: readonly PatternPiece[]): boolean {
  return patternRegex(pieces).test(text);
}

/** A pattern from plain text (every character may be special). */
export function unquotedPattern(text: string): PatternPiece[] {
  return [{ text, quoted: false }];
}

/**
 * `${x#p}`, `${x##p}`, `${x%p}`, `${x%%p}`: `value` without the shortest or
 * longest prefix or suffix matching the pattern.
 */
export function removeAffix(value: string, pieces: readonly PatternPiece[], op: '#' | '##' | '%' | '%%'): string {
  const regex = patternRegex(pieces);
  if (op === '#' || op === '##') {
    const lengths = [...Array(value.length + 1).keys()];
    if (op === '##') lengths.reverse();
    for (const n of lengths) if (regex.test(value.slice(0, n))) return value.slice(n);
  } else {
    const starts = [...Array(value.length + 1).keys()];
    if (op === '%') starts.reverse();
    for (const n of starts) if (regex.test(value.slice(n))) return value.slice(0, n);
  }
  return value;
}
