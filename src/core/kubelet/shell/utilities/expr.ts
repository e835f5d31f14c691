// `expr`: integer arithmetic, comparisons, `|` and `&`, `STRING : REGEX`
// (a basic regular expression anchored at the start), and busybox's
// `length`, `substr`, `index`, `match`. Status 0 when the result is neither
// empty nor 0, 1 when it is, 2 on a bad expression.

import type { CommandContext } from '../command';
import { basicToJsRegex } from './regex';

class ExprError extends Error {}

type Value = string | bigint;

function isInteger(value: Value): boolean {
  return typeof value === 'bigint' || /^[+-]?[0-9]+$/.test(value);
}

function toInteger(value: Value): bigint {
  if (typeof value === 'bigint') return value;
  if (!/^[+-]?[0-9]+$/.test(value)) throw new ExprError('non-numeric argument');
  return BigInt(value);
}

function isNull(value: Value): boolean {
  return value === '' || (isInteger(value) && toInteger(value) === 0n);
}

export async function expr(ctx: CommandContext): Promise<number> {
  const args = ctx.args;
  let pos = 0;
  const peek = (): string | undefined => args[pos];

  const primary = (): Value => {
    const token = args[pos++];
    if (token === undefined) throw new ExprError('syntax error');
    if (token === '(') {
      const value = or();
      if (args[pos++] !== ')') throw new ExprError('syntax error');
      return value;
    }
    if (token === 'length' && pos < args.length) return BigInt(String(primaryString()).length);
    if (token === 'substr' && pos + 2 < args.length) {
      const text = String(primaryString());
      const start = Number(toInteger(primary()));
      const length = Number(toInteger(primary()));
      if (start < 1 || length < 1) return '';
      return text.slice(start - 1, start - 1 + length);
    }
    if (token === 'index' && pos + 1 < args.length) {
      const text = String(primaryString());
      const chars = String(primaryString());
      for (let i = 0; i < text.length; i++) if (chars.includes(text[i]!)) return BigInt(i + 1);
      return 0n;
    }
    if (token === 'match' && pos + 1 < args.length) {
      const text = String(primaryString());
      return match(text, String(primaryString()));
    }
    if (token === '+' && pos < args.length) return args[pos++]!;
    return token;
  };
  const primaryString = (): Value => {
    const value = primary();
    return typeof value === 'bigint' ? value.toString() : value;
  };
  const colon = (): Value => {
    let left = primary();
    while (peek() === ':') {
      pos++;
      left = match(String(left), String(primary()));
    }
    return left;
  };
  const multiplicative = (): Value => {
    let left = colon();
    for (;;) {
      const op = peek();
      if (op !== '*' && op !== '/' && op !== '%') return left;
      pos++;
      const right = toInteger(colon());
      const l = toInteger(left);
      if (op !== '*' && right === 0n) throw new ExprError('division by zero');
      left = op === '*' ? l * right : op === '/' ? l / right : l % right;
    }
  };
  const additive = (): Value => {
    let left = multiplicative();
    for (;;) {
      const op = peek();
      if (op !== '+' && op !== '-') return left;
      pos++;
      const right = toInteger(multiplicative());
      left = op === '+' ? toInteger(left) + right : toInteger(left) - right;
    }
  };
  const comparison = (): Value => {
    let left = additive();
    for (;;) {
      const op = peek();
      if (!op || !['<', '<=', '=', '==', '!=', '>=', '>'].includes(op)) return left;
      pos++;
      const right = additive();
      let order: number;
      if (isInteger(left) && isInteger(right)) {
        const l = toInteger(left);
        const r = toInteger(right);
        order = l < r ? -1 : l > r ? 1 : 0;
      } else {
        const l = String(left);
        const r = String(right);
        order = l < r ? -1 : l > r ? 1 : 0;
      }
      const result = { '<': order < 0, '<=': order <= 0, '=': order === 0, '==': order === 0, '!=': order !== 0, '>=': order >= 0, '>': order > 0 }[op]!;
      left = result ? 1n : 0n;
    }
  };
  const and = (): Value => {
    let left = comparison();
    while (peek() === '&') {
      pos++;
      const right = comparison();
      left = isNull(left) || isNull(right) ? 0n : left;
    }
    return left;
  };
  const or = (): Value => {
    let left = and();
    while (peek() === '|') {
      pos++;
      const right = and();
      left = !isNull(left) ? left : !isNull(right) ? right : 0n;
    }
    return left;
  };

  try {
    if (args.length === 0) throw new ExprError('syntax error');
    const value = or();
    if (pos < args.length) throw new ExprError('syntax error');
    await ctx.out(`${typeof value === 'bigint' ? value.toString() : value}\n`);
    return isNull(value) ? 1 : 0;
  } catch (error) {
    if (error instanceof ExprError) {
      await ctx.err(`expr: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function match(text: string, pattern: string): Value {
  let regex: RegExp;
  try {
    regex = new RegExp('^(?:' + basicToJsRegex(pattern) + ')');
  } catch {
    throw new ExprError('syntax error');
  }
  const found = regex.exec(text);
  if (!found) return /\\\(/.test(pattern) ? '' : 0n;
  if (found.length > 1) return found[1] ?? '';
  return BigInt(found[0].length);
}
