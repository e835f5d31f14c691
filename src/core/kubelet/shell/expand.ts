// Word expansion as sh does it, in its order: tilde, parameters, command
// substitution and arithmetic, then field splitting on IFS (only of what
// expansions produced, and only outside quotes), then pathname expansion
// against the container's files, then quote removal.

import type { Script, Word, WordPart } from './ast';
import { ArithmeticError, evaluateArithmetic } from './arithmetic';
import { hasPatternCharacters, patternSource, removeAffix, type PatternPiece } from './pattern';
import type { ShellState } from './state';
import type { ShellFileSystem } from './types';
import { resolvePath } from './paths';

export interface ExpansionHost {
  readonly state: ShellState;
  readonly fs: ShellFileSystem;
  /** The root shell's PID ($$). */
  readonly shellPid: number;
  /** Runs `$(…)`: its standard output, trailing newlines removed by the caller. */
  substitute(script: Script): Promise<string>;
  /** Reports an expansion error (`sh: x: parameter not set`); the shell then fails the command. */
  fail(message: string): never;
}

/** A field being built: its pieces (quoted ones are not split or globbed). */
type Field = PatternPiece[];

const DEFAULT_IFS = ' \t\n';

export class Expander {
  constructor(private readonly host: ExpansionHost) {}

  /** Expands command words into fields (splitting and pathname expansion). */
  async fields(words: readonly Word[]): Promise<string[]> {
    const out: string[] = [];
    for (const word of words) {
      for (const field of await this.wordFields(word)) {
        if (!this.host.state.options.noglob && hasPatternCharacters(field)) {
          const matches = this.glob(field);
          if (matches.length > 0) {
            out.push(...matches);
            continue;
          }
        }
        out.push(field.map((piece) => (piece.quoted ? piece.text : stripBackslashes(piece.text))).join(''));
      }
    }
    return out;
  }

  /** Expands a word into one string (assignments, redirection targets, here-documents, `case` subjects). */
  async string(word: Word): Promise<string> {
    const pieces = await this.pieces(word.parts, true);
    return pieces.map((piece) => (piece.quoted ? piece.text : stripBackslashes(piece.text))).join('');
  }

  /** Expands a word into a pattern (`case` arms, `${x#…}`): quoted parts match literally. */
  async pattern(word: Word): Promise<PatternPiece[]> {
    return this.pieces(word.parts, true);
  }

  private async wordFields(word: Word): Promise<Field[]> {
    const fields: Field[] = [];
    let current: Field = [];
    let started = false;
    let emptyQuoted = false;
    let suppressEmpty = false;
    const ifs = this.host.state.get('IFS') ?? DEFAULT_IFS;
    const endField = (): void => {
      fields.push(current);
      current = [];
      started = false;
      emptyQuoted = false;
    };
    const addSplit = (text: string): void => {
      // Unquoted expansion: split on IFS. Whitespace IFS characters gather; others each end a field.
      if (ifs === '') {
        if (text) {
          current.push({ text: escapeForGlob(text), quoted: false });
          started = true;
        }
        return;
      }
      let i = 0;
      while (i < text.length) {
        const c = text[i]!;
        if (ifs.includes(c)) {
          const isWhite = DEFAULT_IFS.includes(c);
          if (started || current.length > 0) endField();
          else if (!isWhite) endField();
          i++;
          // Gather whitespace around a separator.
          while (i < text.length && DEFAULT_IFS.includes(text[i]!) && ifs.includes(text[i]!)) i++;
          continue;
        }
        let j = i;
        while (j < text.length && !ifs.includes(text[j]!)) j++;
        current.push({ text: escapeForGlob(text.slice(i, j)), quoted: false });
        started = true;
        i = j;
      }
    };
    for (const part of word.parts) {
      if (part.kind === 'literal') {
        if (part.quoted && part.text === '') {
          emptyQuoted = true;
          continue;
        }
        current.push({ text: part.quoted ? part.text : part.text, quoted: part.quoted });
        started = true;
        continue;
      }
      if (part.kind === 'parameter' && (part.name === '@' || part.name === '*') && !part.op && !part.length) {
        const params = this.host.state.positional;
        if (part.quoted && part.name === '@') {
          if (params.length === 0) {
            suppressEmpty = true;
            continue;
          }
          params.forEach((param, index) => {
            if (index > 0) endField();
            current.push({ text: param, quoted: true });
            started = true;
          });
          continue;
        }
        if (part.quoted) {
          const sep = (this.host.state.get('IFS') ?? DEFAULT_IFS).slice(0, 1);
          current.push({ text: params.join(sep), quoted: true });
          started = true;
          continue;
        }
        params.forEach((param, index) => {
          if (index > 0 && (started || current.length > 0)) endField();
          addSplit(param);
        });
        continue;
      }
      const text = await this.partValue(part);
      if (part.kind !== 'tilde' && !part.quoted) addSplit(text);
      else {
        current.push({ text, quoted: true });
        started = true;
      }
    }
    if (started || current.length > 0 || (emptyQuoted && !suppressEmpty) || (emptyQuoted && suppressEmpty && current.length > 0)) {
      fields.push(current);
    }
    return fields;
  }

  private async pieces(parts: readonly WordPart[], keepQuotes: boolean): Promise<PatternPiece[]> {
    const out: PatternPiece[] = [];
    for (const part of parts) {
      if (part.kind === 'literal') {
        out.push({ text: part.text, quoted: part.quoted });
      } else if (part.kind === 'parameter' && (part.name === '@' || part.name === '*') && !part.op && !part.length) {
        out.push({ text: this.host.state.positional.join(' '), quoted: part.quoted });
      } else {
        const text = await this.partValue(part);
        out.push({ text: part.kind === 'tilde' || part.quoted ? text : escapeForGlob(text), quoted: part.kind === 'tilde' || (part.quoted && keepQuotes) });
      }
    }
    return out;
  }

  private async partValue(part: WordPart): Promise<string> {
    switch (part.kind) {
      case 'literal':
        return part.text;
      case 'tilde':
        if (part.user === '') return this.host.state.get('HOME') ?? '/root';
        if (part.user === 'root') return '/root';
        return `~${part.user}`;
      case 'command': {
        const output = await this.host.substitute(part.script);
        return output.replace(/\n+$/, '');
      }
      case 'arithmetic': {
        const text = await this.string(part.expression);
        try {
          return evaluateArithmetic(text, {
            get: (name) => this.host.state.get(name),
            set: (name, value) => {
              if (!this.host.state.set(name, value)) this.host.fail(`${name}: is read only`);
            },
          }).toString();
        } catch (error) {
          if (error instanceof ArithmeticError) this.host.fail(error.message);
          throw error;
        }
      }
      case 'parameter':
        return this.parameter(part);
    }
  }

  /** The value of $name, or undefined when it is unset. */
  private lookup(name: string): string | undefined {
    const state = this.host.state;
    switch (name) {
      case '?':
        return String(state.lastStatus);
      case '$':
        return String(this.host.shellPid);
      case '!':
        return state.lastBackgroundPid === undefined ? '' : String(state.lastBackgroundPid);
      case '#':
        return String(state.positional.length);
      case '0':
        return state.arg0;
      case '-':
        return (state.options.errexit ? 'e' : '') + (state.options.noglob ? 'f' : '') + (state.options.nounset ? 'u' : '') + (state.options.xtrace ? 'x' : '');
      case '@':
      case '*':
        return state.positional.join(' ');
    }
    if (/^[0-9]+$/.test(name)) return state.positional[Number(name) - 1];
    return state.get(name);
  }

  private async parameter(part: Extract<WordPart, { kind: 'parameter' }>): Promise<string> {
    const value = this.lookup(part.name);
    if (part.length) return String((value ?? '').length);
    const op = part.op;
    if (!op) {
      if (value === undefined && this.host.state.options.nounset && !/^[@*]$/.test(part.name)) this.host.fail(`${part.name}: parameter not set`);
      return value ?? '';
    }
    const colon = op.startsWith(':') && op.length === 2;
    const base = colon ? op.slice(1) : op;
    const missing = value === undefined || (colon && value === '');
    const argument = async (): Promise<string> => (part.arg ? this.string(part.arg) : '');
    switch (base) {
      case '-':
        return missing ? argument() : value!;
      case '=': {
        if (!missing) return value!;
        const assigned = await argument();
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(part.name)) this.host.fail(`${part.name}: bad variable name`);
        this.host.state.set(part.name, assigned);
        return assigned;
      }
      case '?': {
        if (!missing) return value!;
        const message = await argument();
        this.host.fail(`${part.name}: ${message || 'parameter not set'}`);
        break;
      }
      case '+':
        return missing ? '' : argument();
      case '#':
      case '##':
      case '%':
      case '%%':
        return removeAffix(value ?? '', part.arg ? await this.pattern(part.arg) : [], base);
      case '/':
      case '//':
        return this.replace(value ?? '', part.arg, base === '//');
      case ':':
        return this.substring(value ?? '', part.arg);
    }
    return value ?? '';
  }

  private async replace(value: string, arg: Word | undefined, all: boolean): Promise<string> {
    const pieces = arg ? await this.pattern(arg) : [];
    // The pattern ends at the first unquoted '/'.
    const pattern: PatternPiece[] = [];
    let replacement = '';
    let inReplacement = false;
    for (const piece of pieces) {
      if (inReplacement) {
        replacement += piece.quoted ? piece.text : stripBackslashes(piece.text);
        continue;
      }
      const slash = piece.quoted ? -1 : piece.text.indexOf('/');
      if (slash < 0) pattern.push(piece);
      else {
        pattern.push({ text: piece.text.slice(0, slash), quoted: false });
        replacement += stripBackslashes(piece.text.slice(slash + 1));
        inReplacement = true;
      }
    }
    let source = patternSource(pattern);
    if (source.startsWith('#')) source = '^' + source.slice(1);
    else if (source.startsWith('%')) source = source.slice(1) + '$';
    if (!source) return value;
    const regex = new RegExp(source, all ? 'g' : '');
    return value.replace(regex, () => replacement);
  }

  private async substring(value: string, arg: Word | undefined): Promise<string> {
    const text = arg ? await this.string(arg) : '';
    const [offsetText, lengthText] = splitOnce(text, ':');
    const variables = { get: (name: string) => this.host.state.get(name), set: () => {} };
    let offset = Number(evaluateArithmetic(offsetText, variables));
    if (offset < 0) offset = Math.max(0, value.length + offset);
    if (lengthText === undefined) return value.slice(offset);
    let length = Number(evaluateArithmetic(lengthText, variables));
    if (length < 0) return value.slice(offset, Math.max(offset, value.length + length));
    return value.slice(offset, offset + length);
  }

  /** Pathname expansion of one field: the matching paths, sorted; none when nothing matches. */
  private glob(field: Field): string[] {
    const fs = this.host.fs;
    const whole = field.map((piece) => piece.text).join('');
    const absolute = whole.startsWith('/');
    // Split the pieces into path segments.
    const segments: Field[] = [[]];
    for (const piece of field) {
      const texts = piece.text.split('/');
      texts.forEach((text, index) => {
        if (index > 0) segments.push([]);
        if (text) segments[segments.length - 1]!.push({ text, quoted: piece.quoted });
      });
    }
    let candidates: string[] = [absolute ? '/' : ''];
    const cwd = this.host.state.cwd;
    segments.forEach((segment, index) => {
      if (segment.length === 0) {
        if (index === 0 && absolute) return;
        return;
      }
      const next: string[] = [];
      for (const base of candidates) {
        if (!hasPatternCharacters(segment)) {
          const name = segment.map((piece) => (piece.quoted ? piece.text : stripBackslashes(piece.text))).join('');
          next.push(joinPath(base, name));
          continue;
        }
        const dir = resolvePath(cwd, base || '.');
        const names = fs.list(dir) ?? [];
        const regex = new RegExp(`^${patternSource(segment, true)}$`);
        const hidden = segment[0] && !segment[0].quoted && segment[0].text.startsWith('.');
        for (const name of [...names].sort()) {
          if (name.startsWith('.') && !hidden) continue;
          if (regex.test(name)) next.push(joinPath(base, name));
        }
      }
      candidates = next;
    });
    return candidates.filter((path) => {
      const full = resolvePath(cwd, path);
      return fs.read(full) !== undefined || fs.isDirectory(full);
    });
  }
}

function joinPath(base: string, name: string): string {
  if (base === '') return name;
  if (base.endsWith('/')) return base + name;
  return `${base}/${name}`;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index < 0 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}

/** Text an expansion produced, in an unquoted pattern context: backslashes in it are literal. */
function escapeForGlob(text: string): string {
  return text.replace(/\\/g, '\\\\');
}

/** Quote removal of the backslashes escapeForGlob added. */
function stripBackslashes(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
