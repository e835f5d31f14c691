// POSIX regular expressions (basic, as grep and sed take them by default,
// and extended, `grep -E`, `sed -E`) translated to JavaScript's: groups and
// intervals written `\(…\)` and `\{n,m\}` in a basic one, bracket
// expressions with [:classes:], GNU's `\+`, `\?`, `\|`, `\<`, `\>`.

import { POSIX_CLASSES } from '../char-classes';

const CLASSES = POSIX_CLASSES;

/** A bracket expression starting at `start` ('['): its JS form and the index after it. */
function bracket(pattern: string, start: number): { source: string; end: number } {
  let i = start + 1;
  let out = '[';
  if (pattern[i] === '^') {
    out += '^';
    i++;
  }
  if (pattern[i] === ']') {
    out += '\\]';
    i++;
  }
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === ']') return { source: out + ']', end: i + 1 };
    if (c === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      const name = close > 0 ? pattern.slice(i + 2, close) : '';
      if (CLASSES[name] !== undefined) {
        out += CLASSES[name];
        i = close + 1;
        continue;
      }
    }
    if (c === '\\' || c === '[') out += '\\' + c;
    else out += c;
  }
  // No closing bracket: a literal '['.
  return { source: '\\[', end: start + 1 };
}

export function basicToJsRegex(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1];
      i++;
      if (n === undefined) out += '\\\\';
      else if (n === '(' || n === ')' || n === '|' || n === '+' || n === '?') out += n;
      else if (n === '{') out += '{';
      else if (n === '}') out += '}';
      else if (n === '<' || n === '>') out += '\\b';
      else if (/[1-9wWsSbB]/.test(n)) out += '\\' + n;
      else if (n === 'n') out += '\\n';
      else if (n === 't') out += '\\t';
      else out += escapeLiteral(n);
      continue;
    }
    if (c === '[') {
      const b = bracket(pattern, i);
      out += b.source;
      i = b.end - 1;
      continue;
    }
    if (c === '*' && (out === '' || out === '^' || out.endsWith('(') || out.endsWith('|'))) {
      out += '\\*';
      continue;
    }
    if (c === '^' && i !== 0 && !/\\\($|\\\|$/.test(pattern.slice(0, i))) {
      out += '\\^';
      continue;
    }
    if (c === '$' && i !== pattern.length - 1 && !/^\\\)|^\\\|/.test(pattern.slice(i + 1))) {
      out += '\\$';
      continue;
    }
    if ('+?(){}|/'.includes(c)) {
      out += '\\' + c;
      continue;
    }
    out += c;
  }
  return out;
}

export function extendedToJsRegex(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1];
      i++;
      if (n === undefined) out += '\\\\';
      else if (n === '<' || n === '>') out += '\\b';
      else if (/[1-9wWsSbBnt]/.test(n)) out += '\\' + n;
      else out += escapeLiteral(n);
      continue;
    }
    if (c === '[') {
      const b = bracket(pattern, i);
      out += b.source;
      i = b.end - 1;
      continue;
    }
    if (c === '{' && !/^\{[0-9]+(,[0-9]*)?\}/.test(pattern.slice(i))) {
      out += '\\{';
      continue;
    }
    if (c === '/') {
      out += '\\/';
      continue;
    }
    out += c;
  }
  return out;
}

function escapeLiteral(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? '\\' + c : c;
}

/** A fixed string as a regular expression source (`grep -F`). */
export function fixedToJsRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
