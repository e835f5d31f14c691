// `test`, `[ … ]` and `[[ … ]]`: string, integer and file tests with `!`,
// `-a`, `-o` and parentheses, as busybox's test does (its messages:
// "sh: abc: bad number", "sh: missing ]"). Files are the container's
// (ShellIO.fs); `[[ a == pat* ]]` matches a pattern.

import type { CommandContext } from '../command';
import { matchPattern, unquotedPattern } from '../pattern';

class TestError extends Error {}

const UNARY = new Set(['-e', '-f', '-d', '-s', '-r', '-w', '-x', '-z', '-n', '-L', '-h', '-p', '-S', '-b', '-c', '-t', '-g', '-u', '-k', '-O', '-G']);
const BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef', '=~']);

export async function test(ctx: CommandContext): Promise<number> {
  let args = [...ctx.args];
  const base = ctx.name.slice(ctx.name.lastIndexOf('/') + 1);
  const extended = base === '[[';
  if (base === '[' || extended) {
    const close = extended ? ']]' : ']';
    if (args[args.length - 1] !== close) {
      await ctx.err(`sh: missing ${close}\n`);
      return 2;
    }
    args = args.slice(0, -1);
  }
  try {
    return new Evaluator(args, ctx, extended).run() ? 0 : 1;
  } catch (error) {
    if (error instanceof TestError) {
      await ctx.err(`sh: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

class Evaluator {
  private pos = 0;

  constructor(
    private readonly args: readonly string[],
    private readonly ctx: CommandContext,
    private readonly extended: boolean,
  ) {}

  run(): boolean {
    if (this.args.length === 0) return false;
    const result = this.or();
    if (this.pos < this.args.length) throw new TestError(`${this.args[this.pos]}: unknown operand`);
    return result;
  }

  private or(): boolean {
    let value = this.and();
    while (this.args[this.pos] === '-o' || (this.extended && this.args[this.pos] === '||')) {
      this.pos++;
      const right = this.and();
      value = value || right;
    }
    return value;
  }

  private and(): boolean {
    let value = this.not();
    while (this.args[this.pos] === '-a' || (this.extended && this.args[this.pos] === '&&')) {
      this.pos++;
      const right = this.not();
      value = value && right;
    }
    return value;
  }

  private not(): boolean {
    if (this.args[this.pos] === '!' && this.pos + 1 < this.args.length) {
      this.pos++;
      return !this.not();
    }
    return this.primary();
  }

  private primary(): boolean {
    const left = this.args[this.pos];
    if (left === undefined) throw new TestError(`${this.args[this.pos - 1] ?? 'test'}: argument expected`);
    if (left === '(' && this.args.length - this.pos > 1) {
      // `( expr )`, unless it is the string "(" compared with something.
      const op = this.args[this.pos + 1];
      if (!(op !== undefined && BINARY.has(op) && this.args.length - this.pos === 3)) {
        this.pos++;
        const value = this.or();
        if (this.args[this.pos] !== ')') throw new TestError(`${this.args[this.pos] ?? '('}: unknown operand`.replace(/^\(: unknown operand$/, 'missing )'));
        this.pos++;
        return value;
      }
    }
    const op = this.args[this.pos + 1];
    if (op !== undefined && BINARY.has(op) && this.pos + 2 < this.args.length) {
      const right = this.args[this.pos + 2]!;
      this.pos += 3;
      return this.binary(left, op, right);
    }
    if (UNARY.has(left) && this.pos + 1 < this.args.length) {
      const operand = this.args[this.pos + 1]!;
      this.pos += 2;
      return this.unary(left, operand);
    }
    if (UNARY.has(left) && this.args.length - this.pos === 1 && this.args.length > 1) {
      throw new TestError(`${left}: argument expected`);
    }
    this.pos++;
    return left !== '';
  }

  private integer(text: string): bigint {
    const trimmed = text.trim();
    if (!/^[+-]?[0-9]+$/.test(trimmed)) throw new TestError(`${text}: bad number`);
    return BigInt(trimmed);
  }

  private binary(left: string, op: string, right: string): boolean {
    switch (op) {
      case '=':
      case '==':
        return this.extended ? matchPattern(left, unquotedPattern(right)) : left === right;
      case '!=':
        return this.extended ? !matchPattern(left, unquotedPattern(right)) : left !== right;
      case '<':
        return left < right;
      case '>':
        return left > right;
      case '=~':
        try {
          return new RegExp(right).test(left);
        } catch {
          return false;
        }
      case '-eq':
        return this.integer(left) === this.integer(right);
      case '-ne':
        return this.integer(left) !== this.integer(right);
      case '-lt':
        return this.integer(left) < this.integer(right);
      case '-le':
        return this.integer(left) <= this.integer(right);
      case '-gt':
        return this.integer(left) > this.integer(right);
      case '-ge':
        return this.integer(left) >= this.integer(right);
      case '-ef':
        return this.ctx.resolve(left) === this.ctx.resolve(right) && this.exists(left);
      default:
        // -nt, -ot: the simulated files have no modification times.
        return false;
    }
  }

  private exists(path: string): boolean {
    const full = this.ctx.resolve(path);
    return this.ctx.io.fs.read(full) !== undefined || this.ctx.io.fs.isDirectory(full);
  }

  private unary(op: string, operand: string): boolean {
    const fs = this.ctx.io.fs;
    const full = this.ctx.resolve(operand);
    switch (op) {
      case '-z':
        return operand === '';
      case '-n':
        return operand !== '';
      case '-e':
      case '-r':
      case '-w':
      case '-x':
        return operand !== '' && this.exists(operand);
      case '-f':
        return operand !== '' && fs.read(full) !== undefined && !fs.isDirectory(full);
      case '-d':
        return operand !== '' && fs.isDirectory(full);
      case '-s': {
        if (operand === '') return false;
        const text = fs.read(full);
        return (text !== undefined && text.length > 0) || fs.isDirectory(full);
      }
      case '-t':
        return this.ctx.io.tty === true && /^[0-2]$/.test(operand);
      case '-c':
        return ['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/tty'].includes(full);
      default:
        return false;
    }
  }
}
