// The shell's parser: source text to the syntax tree of ast.ts. A
// recursive-descent parser over a lexer that reads one token at a time,
// because sh's lexing depends on where the parser is (keywords only in a
// command's first word, `$(…)` holding a whole script, here-documents
// starting after the next newline). Errors use busybox ash's wording
// ("syntax error: unexpected \"done\""); runCommand prints them as
// `sh: syntax error: …` and ends with status 2.

import type {
  AndOr,
  Assignment,
  Command,
  Pipeline,
  Redirect,
  RedirectOp,
  Script,
  SimpleCommand,
  Word,
  WordPart,
} from './ast';
import { ShellSyntaxError } from './errors';

type Token =
  | { readonly type: 'word'; readonly word: Word; readonly plain: string | undefined; readonly line: number }
  | { readonly type: 'op'; readonly op: string; readonly line: number }
  | { readonly type: 'io-number'; readonly fd: number; readonly line: number }
  | { readonly type: 'newline'; readonly line: number }
  | { readonly type: 'eof'; readonly line: number };

const OPERATORS = ['&&', '||', ';;', '<<-', '<<', '>>', '>&', '<&', '>|', '<>', '&>', ';', '&', '|', '(', ')', '<', '>'];
const REDIRECT_OPS = new Set(['<<-', '<<', '>>', '>&', '<&', '>|', '<>', '&>', '<', '>']);
/** Words that end a list when they come where a command would start. */
const LIST_ENDERS = new Set(['then', 'do', 'done', 'elif', 'else', 'fi', 'esac', '}']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SPECIAL_PARAMS = '@*#?$!-0123456789';

interface PendingHeredoc {
  readonly redirect: { target: Word; literalBody?: boolean };
  readonly delimiter: string;
  readonly stripTabs: boolean;
}

export function parseScript(source: string, firstLine = 1): Script {
  const parser = new Parser(source, firstLine);
  const script = parser.parseProgram();
  return script;
}

class Parser {
  private pos = 0;
  private line: number;
  private lookahead: Token | undefined;
  private heredocs: PendingHeredoc[] = [];

  constructor(
    private readonly src: string,
    firstLine: number,
  ) {
    this.line = firstLine;
  }

  parseProgram(): Script {
    const script = this.parseList(new Set());
    const token = this.peek();
    if (token.type !== 'eof') this.unexpected(token);
    if (this.heredocs.length > 0) this.readHeredocBodies();
    return script;
  }

  // ---- grammar -----------------------------------------------------------

  /** and-or lists separated by ; & and newlines, up to a list ender (not consumed). */
  private parseList(enders: ReadonlySet<string>, requireOne = false): Script {
    const items: { command: AndOr; background: boolean }[] = [];
    for (;;) {
      this.skipNewlines();
      const token = this.peek();
      if (this.endsList(token, enders)) break;
      const command = this.parseAndOr();
      let background = false;
      const next = this.peek();
      if (next.type === 'op' && (next.op === ';' || next.op === '&')) {
        this.next();
        background = next.op === '&';
      } else if (next.type === 'newline') {
        this.next();
      } else if (!this.endsList(next, enders)) {
        this.unexpected(next);
      }
      items.push({ command, background });
    }
    if (requireOne && items.length === 0) this.unexpected(this.peek());
    return { items };
  }

  private endsList(token: Token, enders: ReadonlySet<string>): boolean {
    if (token.type === 'eof') return true;
    if (token.type === 'op') return token.op === ')' || token.op === ';;' ? true : false;
    if (token.type === 'word' && token.plain !== undefined) return LIST_ENDERS.has(token.plain) || enders.has(token.plain);
    return false;
  }

  private parseAndOr(): AndOr {
    const first = this.parsePipeline();
    const rest: { op: '&&' | '||'; pipeline: Pipeline }[] = [];
    for (;;) {
      const token = this.peek();
      if (token.type !== 'op' || (token.op !== '&&' && token.op !== '||')) break;
      this.next();
      this.skipNewlines();
      rest.push({ op: token.op, pipeline: this.parsePipeline() });
    }
    return { type: 'and-or', first, rest };
  }

  private parsePipeline(): Pipeline {
    let negated = false;
    const first = this.peek();
    if (first.type === 'word' && first.plain === '!') {
      this.next();
      negated = true;
    }
    const commands: Command[] = [this.parseCommand()];
    for (;;) {
      const token = this.peek();
      if (token.type !== 'op' || token.op !== '|') break;
      this.next();
      this.skipNewlines();
      commands.push(this.parseCommand());
    }
    return { type: 'pipeline', commands, negated };
  }

  private parseCommand(): Command {
    const token = this.peek();
    if (token.type === 'op' && token.op === '(') {
      this.next();
      const body = this.parseList(new Set(), true);
      this.expectOp(')');
      return { type: 'subshell', body, redirects: this.parseRedirects() };
    }
    if (token.type === 'word' && token.plain !== undefined) {
      switch (token.plain) {
        case '{': {
          this.next();
          const body = this.parseList(new Set(), true);
          this.expectWord('}');
          return { type: 'group', body, redirects: this.parseRedirects() };
        }
        case 'if':
          return this.parseIf();
        case 'while':
        case 'until':
          return this.parseLoop(token.plain === 'until');
        case 'for':
          return this.parseFor();
        case 'case':
          return this.parseCase();
        case 'function':
          return this.parseFunctionKeyword();
        default:
          if (LIST_ENDERS.has(token.plain)) this.unexpected(token);
      }
    }
    return this.parseSimpleCommand();
  }

  private parseIf(): Command {
    this.next();
    const clauses: { condition: Script; body: Script }[] = [];
    let otherwise: Script | undefined;
    for (;;) {
      const condition = this.parseList(new Set(), true);
      this.expectWord('then');
      const body = this.parseList(new Set(), true);
      clauses.push({ condition, body });
      const token = this.peek();
      if (token.type === 'word' && token.plain === 'elif') {
        this.next();
        continue;
      }
      if (token.type === 'word' && token.plain === 'else') {
        this.next();
        otherwise = this.parseList(new Set(), true);
      }
      this.expectWord('fi');
      break;
    }
    return { type: 'if', clauses, otherwise, redirects: this.parseRedirects() };
  }

  private parseLoop(until: boolean): Command {
    this.next();
    const condition = this.parseList(new Set(), true);
    this.expectWord('do');
    const body = this.parseList(new Set(), true);
    this.expectWord('done');
    return { type: 'loop', until, condition, body, redirects: this.parseRedirects() };
  }

  private parseFor(): Command {
    this.next();
    const nameToken = this.next();
    if (nameToken.type !== 'word' || nameToken.plain === undefined || !NAME.test(nameToken.plain)) {
      throw new ShellSyntaxError('bad for loop variable', nameToken.line);
    }
    let items: Word[] | undefined;
    this.skipNewlines();
    let token = this.peek();
    if (token.type === 'word' && token.plain === 'in') {
      this.next();
      items = [];
      for (;;) {
        token = this.peek();
        if (token.type !== 'word') break;
        this.next();
        items.push(token.word);
      }
      token = this.next();
      if (!(token.type === 'newline' || (token.type === 'op' && token.op === ';'))) this.unexpected(token);
    } else if (token.type === 'op' && token.op === ';') {
      this.next();
    }
    this.skipNewlines();
    this.expectWord('do');
    const body = this.parseList(new Set(), true);
    this.expectWord('done');
    return { type: 'for', name: nameToken.plain, items, body, redirects: this.parseRedirects() };
  }

  private parseCase(): Command {
    this.next();
    const subjectToken = this.next();
    if (subjectToken.type !== 'word') this.unexpected(subjectToken, '"word"');
    this.skipNewlines();
    this.expectWord('in');
    const arms: { patterns: Word[]; body: Script }[] = [];
    for (;;) {
      this.skipNewlines();
      let token = this.peek();
      if (token.type === 'word' && token.plain === 'esac') {
        this.next();
        break;
      }
      if (token.type === 'op' && token.op === '(') this.next();
      const patterns: Word[] = [];
      for (;;) {
        token = this.next();
        if (token.type !== 'word') this.unexpected(token, '"word"');
        patterns.push(token.word);
        const separator = this.next();
        if (separator.type === 'op' && separator.op === '|') continue;
        if (separator.type === 'op' && separator.op === ')') break;
        this.unexpected(separator, '")"');
      }
      const body = this.parseList(new Set(['esac']));
      arms.push({ patterns, body });
      token = this.peek();
      if (token.type === 'op' && token.op === ';;') {
        this.next();
        continue;
      }
      this.skipNewlines();
      this.expectWord('esac');
      break;
    }
    return { type: 'case', subject: subjectToken.word, arms, redirects: this.parseRedirects() };
  }

  private parseFunctionKeyword(): Command {
    this.next();
    const nameToken = this.next();
    if (nameToken.type !== 'word' || nameToken.plain === undefined) this.unexpected(nameToken, '"word"');
    const open = this.peek();
    if (open.type === 'op' && open.op === '(') {
      this.next();
      this.expectOp(')');
    }
    this.skipNewlines();
    return { type: 'function', name: nameToken.plain, body: this.parseCommand() };
  }

  private parseSimpleCommand(): Command {
    const assignments: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    const line = this.peek().line;
    for (;;) {
      const token = this.peek();
      if (token.type === 'io-number' || (token.type === 'op' && REDIRECT_OPS.has(token.op))) {
        redirects.push(...this.parseRedirect());
        continue;
      }
      if (token.type !== 'word') break;
      if (words.length === 0) {
        const assignment = asAssignment(token.word);
        if (assignment) {
          this.next();
          assignments.push(assignment);
          continue;
        }
      }
      this.next();
      words.push(token.word);
      if (words.length === 1 && assignments.length === 0 && redirects.length === 0 && token.plain !== undefined) {
        const open = this.peek();
        if (open.type === 'op' && open.op === '(') {
          this.next();
          this.expectOp(')');
          this.skipNewlines();
          if (!NAME.test(token.plain) && !/^[A-Za-z_][-A-Za-z0-9_.:]*$/.test(token.plain)) {
            throw new ShellSyntaxError('bad function name', token.line);
          }
          return { type: 'function', name: token.plain, body: this.parseCommand() };
        }
      }
    }
    if (words.length === 0 && assignments.length === 0 && redirects.length === 0) this.unexpected(this.peek());
    const command: SimpleCommand = { type: 'simple', assignments, words, redirects, line };
    return command;
  }

  private parseRedirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (;;) {
      const token = this.peek();
      if (token.type === 'io-number' || (token.type === 'op' && REDIRECT_OPS.has(token.op))) {
        redirects.push(...this.parseRedirect());
      } else {
        return redirects;
      }
    }
  }

  private parseRedirect(): Redirect[] {
    let token = this.next();
    let fd: number | undefined;
    if (token.type === 'io-number') {
      fd = token.fd;
      token = this.next();
    }
    if (token.type !== 'op') this.unexpected(token);
    const op = token.op;
    const targetToken = this.next();
    if (targetToken.type !== 'word') this.unexpected(targetToken);
    if (op === '&>') {
      return [
        { fd: 1, op: '>', target: targetToken.word },
        { fd: 2, op: '>&', target: { parts: [{ kind: 'literal', text: '1', quoted: false }] } },
      ];
    }
    if (op === '<<' || op === '<<-') {
      const quoted = targetToken.word.parts.some((p) => p.kind === 'literal' && p.quoted);
      const delimiter = targetToken.word.parts.map((p) => (p.kind === 'literal' ? p.text : '')).join('');
      const redirect: { fd: number; op: RedirectOp; target: Word; literalBody?: boolean } = {
        fd: fd ?? 0,
        op,
        target: { parts: [] },
        literalBody: quoted,
      };
      this.heredocs.push({ redirect, delimiter, stripTabs: op === '<<-' });
      return [redirect];
    }
    const defaultFd = op.startsWith('<') ? 0 : 1;
    return [{ fd: fd ?? defaultFd, op: op as RedirectOp, target: targetToken.word }];
  }

  private expectWord(keyword: string): void {
    const token = this.peek();
    if (token.type === 'word' && token.plain === keyword) {
      this.next();
      return;
    }
    this.unexpected(token, `"${keyword}"`);
  }

  private expectOp(op: string): void {
    const token = this.peek();
    if (token.type === 'op' && token.op === op) {
      this.next();
      return;
    }
    this.unexpected(token, `"${op}"`);
  }

  private skipNewlines(): void {
    while (this.peek().type === 'newline') this.next();
  }

  private unexpected(token: Token, expecting?: string): never {
    let name: string;
    switch (token.type) {
      case 'eof':
        name = 'end of file';
        break;
      case 'newline':
        name = 'newline';
        break;
      case 'io-number':
        name = 'redirection';
        break;
      case 'op':
        name = REDIRECT_OPS.has(token.op) ? 'redirection' : `"${token.op}"`;
        break;
      case 'word':
        name = token.plain !== undefined && (LIST_ENDERS.has(token.plain) || ['if', 'in', 'case', 'for', 'while', 'until', '{', '!'].includes(token.plain)) ? `"${token.plain}"` : 'word';
        break;
    }
    const message = `unexpected ${name}${expecting ? ` (expecting ${expecting})` : ''}`;
    throw new ShellSyntaxError(message, token.line, token.type === 'eof');
  }

  // ---- tokens ------------------------------------------------------------

  private peek(): Token {
    if (!this.lookahead) this.lookahead = this.lex();
    return this.lookahead;
  }

  private next(): Token {
    const token = this.peek();
    this.lookahead = undefined;
    return token;
  }

  private lex(): Token {
    // Blanks, line continuations and comments.
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') {
        this.pos += 2;
        this.line++;
      } else if (c === '#') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      } else break;
    }
    const line = this.line;
    if (this.pos >= this.src.length) return { type: 'eof', line };
    const c = this.src[this.pos]!;
    if (c === '\n') {
      this.pos++;
      this.line++;
      if (this.heredocs.length > 0) this.readHeredocBodies();
      return { type: 'newline', line };
    }
    for (const op of OPERATORS) {
      if (this.src.startsWith(op, this.pos)) {
        this.pos += op.length;
        return { type: 'op', op, line };
      }
    }
    // An IO number: digits directly followed by < or >.
    const digits = /^[0-9]+(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 12));
    if (digits) {
      this.pos += digits[0].length;
      return { type: 'io-number', fd: Number(digits[0]), line };
    }
    const start = this.pos;
    const parts = this.lexWord();
    const raw = this.src.slice(start, this.pos);
    const plain = parts.every((p) => p.kind === 'literal' && !p.quoted) ? raw : undefined;
    return { type: 'word', word: { parts }, plain, line };
  }

  private lexWord(): WordPart[] {
    const parts: WordPart[] = [];
    let text = '';
    const flush = (): void => {
      if (text) parts.push({ kind: 'literal', text, quoted: false });
      text = '';
    };
    if (this.src[this.pos] === '~') {
      const match = /^~([A-Za-z0-9_.-]*)(?=\/|$|[\s;&|<>()])/.exec(this.src.slice(this.pos));
      if (match) {
        parts.push({ kind: 'tilde', user: match[1]! });
        this.pos += match[0].length;
      }
    }
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined || ' \t\r\n;&|<>()'.includes(c)) break;
      if (c === '\\') {
        const n = this.src[this.pos + 1];
        if (n === '\n') {
          this.pos += 2;
          this.line++;
          continue;
        }
        flush();
        parts.push({ kind: 'literal', text: n ?? '\\', quoted: true });
        this.pos += n === undefined ? 1 : 2;
      } else if (c === "'") {
        flush();
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('unterminated quoted string', this.line, true);
        const body = this.src.slice(this.pos + 1, end);
        this.line += countNewlines(body);
        parts.push({ kind: 'literal', text: body, quoted: true });
        this.pos = end + 1;
      } else if (c === '"') {
        flush();
        this.pos++;
        const inner = this.lexDoubleQuoted('"');
        if (this.src[this.pos] !== '"') throw new ShellSyntaxError('unterminated quoted string', this.line, true);
        this.pos++;
        parts.push({ kind: 'literal', text: '', quoted: true }, ...inner);
      } else if (c === '$' || c === '`') {
        const part = c === '$' ? this.lexDollar(false) : this.lexBackquote(false);
        if (part) {
          flush();
          parts.push(part);
        } else {
          text += '$';
          this.pos++;
        }
      } else {
        text += c;
        this.pos++;
      }
    }
    flush();
    return parts;
  }

  /** The inside of "…" (or of a here-document, or of $((…)), with `terminator` undefined): parts, all quoted. */
  private lexDoubleQuoted(terminator: string | undefined): WordPart[] {
    const parts: WordPart[] = [];
    let text = '';
    const flush = (): void => {
      if (text) parts.push({ kind: 'literal', text, quoted: true });
      text = '';
    };
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined || c === terminator) break;
      if (c === '\\') {
        const n = this.src[this.pos + 1];
        if (n === '\n') {
          this.pos += 2;
          this.line++;
          continue;
        }
        if (n !== undefined && (n === '$' || n === '`' || n === '\\' || (terminator !== undefined && n === terminator))) {
          text += n;
          this.pos += 2;
        } else {
          text += '\\';
          this.pos++;
        }
      } else if (c === '$' || c === '`') {
        const part = c === '$' ? this.lexDollar(true) : this.lexBackquote(true);
        if (part) {
          flush();
          parts.push(part);
        } else {
          text += '$';
          this.pos++;
        }
      } else {
        if (c === '\n') this.line++;
        text += c;
        this.pos++;
      }
    }
    flush();
    return parts;
  }

  /** At a '$': the expansion it starts, or undefined for a lone '$'. */
  private lexDollar(quoted: boolean): WordPart | undefined {
    const n = this.src[this.pos + 1];
    if (n === '(' && this.src[this.pos + 2] === '(') {
      const end = findArithmeticEnd(this.src, this.pos + 3);
      if (end < 0) throw new ShellSyntaxError("missing '))'", this.line, true);
      const inner = this.src.slice(this.pos + 3, end);
      const sub = new Parser(inner, this.line);
      const parts = sub.lexDoubleQuoted(undefined);
      this.line += countNewlines(inner);
      this.pos = end + 2;
      return { kind: 'arithmetic', expression: { parts }, quoted };
    }
    if (n === '(') {
      this.pos += 2;
      const saved = this.lookahead;
      this.lookahead = undefined;
      const script = this.parseList(new Set());
      const close = this.next();
      if (!(close.type === 'op' && close.op === ')')) this.unexpected(close, '")"');
      this.lookahead = saved;
      return { kind: 'command', script, quoted };
    }
    if (n === '{') return this.lexBracedParameter(quoted);
    if (n === "'" && !quoted) {
      // bash's (and busybox ash's) $'…' with C escapes
      const end = findSingleQuoteEnd(this.src, this.pos + 2);
      if (end < 0) throw new ShellSyntaxError('unterminated quoted string', this.line, true);
      const text = decodeCEscapes(this.src.slice(this.pos + 2, end));
      this.pos = end + 1;
      return { kind: 'literal', text, quoted: true };
    }
    if (n !== undefined && SPECIAL_PARAMS.includes(n)) {
      this.pos += 2;
      return { kind: 'parameter', name: n, quoted };
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos + 1, this.pos + 256));
    if (name) {
      this.pos += 1 + name[0].length;
      return { kind: 'parameter', name: name[0], quoted };
    }
    return undefined;
  }

  private lexBracedParameter(quoted: boolean): WordPart {
    const line = this.line;
    this.pos += 2;
    let length = false;
    if (this.src[this.pos] === '#' && this.src[this.pos + 1] !== '}' && /[A-Za-z_0-9@*#?$!-]/.test(this.src[this.pos + 1] ?? '')) {
      length = true;
      this.pos++;
    }
    let name: string;
    const named = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!0-])/.exec(this.src.slice(this.pos, this.pos + 256));
    if (!named) throw new ShellSyntaxError('bad substitution', line);
    name = named[1]!;
    this.pos += name.length;
    if (this.src[this.pos] === '}') {
      this.pos++;
      return { kind: 'parameter', name, quoted, length };
    }
    if (length) throw new ShellSyntaxError('bad substitution', line);
    const op = /^(:[-=?+]?|[-=?+]|##?|%%?|\/\/?)/.exec(this.src.slice(this.pos, this.pos + 2));
    if (!op) throw new ShellSyntaxError('bad substitution', line);
    this.pos += op[0].length;
    const arg = this.lexBraceArgument(quoted);
    if (this.src[this.pos] !== '}') throw new ShellSyntaxError("missing '}'", line, true);
    this.pos++;
    return { kind: 'parameter', name, quoted, op: op[0], arg };
  }

  /** The word after a ${name<op> up to its closing brace. */
  private lexBraceArgument(quoted: boolean): Word {
    const parts: WordPart[] = [];
    let text = '';
    const flush = (): void => {
      if (text) parts.push({ kind: 'literal', text, quoted });
      text = '';
    };
    let depth = 0;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) break;
      if (c === '}' && depth === 0) break;
      if (c === '{') depth++;
      if (c === '}') depth--;
      if (c === '\\') {
        flush();
        const n = this.src[this.pos + 1] ?? '';
        parts.push({ kind: 'literal', text: n, quoted: true });
        this.pos += 2;
      } else if (c === "'" && !quoted) {
        flush();
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('unterminated quoted string', this.line, true);
        parts.push({ kind: 'literal', text: this.src.slice(this.pos + 1, end), quoted: true });
        this.pos = end + 1;
      } else if (c === '"') {
        flush();
        this.pos++;
        parts.push({ kind: 'literal', text: '', quoted: true }, ...this.lexDoubleQuoted('"'));
        if (this.src[this.pos] !== '"') throw new ShellSyntaxError('unterminated quoted string', this.line, true);
        this.pos++;
      } else if (c === '$' || c === '`') {
        const part = c === '$' ? this.lexDollar(quoted) : this.lexBackquote(quoted);
        if (part) {
          flush();
          parts.push(part);
        } else {
          text += '$';
          this.pos++;
        }
      } else {
        if (c === '\n') this.line++;
        text += c;
        this.pos++;
      }
    }
    flush();
    return { parts };
  }

  private lexBackquote(quoted: boolean): WordPart {
    const line = this.line;
    let body = '';
    let i = this.pos + 1;
    for (;;) {
      const c = this.src[i];
      if (c === undefined) throw new ShellSyntaxError('unterminated quoted string', line, true);
      if (c === '`') break;
      if (c === '\\' && (this.src[i + 1] === '`' || this.src[i + 1] === '$' || this.src[i + 1] === '\\')) {
        body += this.src[i + 1];
        i += 2;
        continue;
      }
      if (c === '\n') this.line++;
      body += c;
      i++;
    }
    this.pos = i + 1;
    return { kind: 'command', script: parseScript(body, line), quoted };
  }

  private readHeredocBodies(): void {
    const pending = this.heredocs;
    this.heredocs = [];
    for (const heredoc of pending) {
      const lines: string[] = [];
      let ended = false;
      while (this.pos < this.src.length) {
        let end = this.src.indexOf('\n', this.pos);
        if (end < 0) end = this.src.length;
        let lineText = this.src.slice(this.pos, end);
        this.pos = Math.min(end + 1, this.src.length);
        this.line++;
        if (heredoc.stripTabs) lineText = lineText.replace(/^\t+/, '');
        if (lineText === heredoc.delimiter) {
          ended = true;
          break;
        }
        lines.push(lineText);
      }
      // sh accepts a here-document ended by the end of input.
      void ended;
      const body = lines.length > 0 ? lines.join('\n') + '\n' : '';
      if (heredoc.redirect.literalBody) {
        heredoc.redirect.target = { parts: [{ kind: 'literal', text: body, quoted: true }] };
      } else {
        const sub = new Parser(body, this.line);
        heredoc.redirect.target = { parts: sub.lexDoubleQuoted(undefined) };
      }
    }
  }
}

function asAssignment(word: Word): Assignment | undefined {
  const first = word.parts[0];
  if (!first || first.kind !== 'literal' || first.quoted) return undefined;
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.text);
  if (!match) return undefined;
  const rest = first.text.slice(match[0].length);
  const parts: WordPart[] = rest ? [{ kind: 'literal', text: rest, quoted: false }] : [];
  parts.push(...word.parts.slice(1));
  return { name: match[1]!, value: { parts } };
}

function countNewlines(text: string): number {
  let n = 0;
  for (const c of text) if (c === '\n') n++;
  return n;
}

/** The index of the '))' closing an arithmetic expansion whose body starts at `start`. */
function findArithmeticEnd(src: string, start: number): number {
  let depth = 0;
  for (let i = start; i < src.length; i++) {
    const c = src[i];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return src[i + 1] === ')' ? i : -1;
      depth--;
    }
  }
  return -1;
}

function findSingleQuoteEnd(src: string, start: number): number {
  for (let i = start; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === "'") return i;
  }
  return -1;
}

/** C-style escapes as echo -e, printf and $'…' understand them. `stop` is set when \c is met. */
export function decodeCEscapes(text: string, options: { octalNeedsZero?: boolean } = {}): string {
  return decodeCEscapesWithStop(text, options).text;
}

export function decodeCEscapesWithStop(text: string, options: { octalNeedsZero?: boolean } = {}): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const n = text[++i]!;
    switch (n) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\x07'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case 'e':
      case 'E': out += '\x1b'; break;
      case '\\': out += '\\'; break;
      case "'": out += "'"; break;
      case '"': out += '"'; break;
      case 'c': return { text: out, stop: true };
      case 'x': {
        const hex = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1));
        if (hex) {
          out += String.fromCharCode(parseInt(hex[0], 16));
          i += hex[0].length;
        } else out += '\\x';
        break;
      }
      default:
        if (/[0-7]/.test(n)) {
          const digits = options.octalNeedsZero && n === '0' ? /^[0-7]{0,3}/.exec(text.slice(i + 1))![0] : /^[0-7]{0,2}/.exec(text.slice(i + 1))![0];
          const octal = options.octalNeedsZero && n === '0' ? digits || '0' : n + digits;
          if (options.octalNeedsZero && n !== '0') {
            out += '\\' + n;
            break;
          }
          out += String.fromCharCode(parseInt(octal, 8) & 0xff);
          i += digits.length;
        } else out += '\\' + n;
    }
  }
  return { text: out, stop: false };
}
