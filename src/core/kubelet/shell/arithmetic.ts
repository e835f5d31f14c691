// $((…)) arithmetic: C's integer operators on 64-bit signed values, as sh
// evaluates them, with variables read (and assigned, `i += 1`, `i++`)
// through callbacks. The text has already been through parameter and
// command expansion. Errors carry busybox ash's wording
// ("arithmetic syntax error", "divide by zero").

export class ArithmeticError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArithmeticError';
  }
}

export interface ArithmeticVariables {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

type Token = { type: 'num'; value: bigint } | { type: 'name'; name: string } | { type: 'op'; op: string };

const OPS = ['<<=', '>>=', '**', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '+', '-', '*', '/', '%', '<', '>', '=', '&', '|', '^', '!', '~', '?', ':', '(', ')', ','];

function wrap(value: bigint): bigint {
  return BigInt.asIntN(64, value);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const number = /^(0[xX][0-9a-fA-F]+|[0-9]+#[0-9a-zA-Z@_]+|[0-9]+)/.exec(text.slice(i));
    if (number) {
      tokens.push({ type: 'num', value: parseNumber(number[0]) });
      i += number[0].length;
      if (/[A-Za-z_]/.test(text[i] ?? '')) throw new ArithmeticError('arithmetic syntax error');
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (name) {
      tokens.push({ type: 'name', name: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((candidate) => text.startsWith(candidate, i));
    if (!op) throw new ArithmeticError('arithmetic syntax error');
    tokens.push({ type: 'op', op });
    i += op.length;
  }
  return tokens;
}

function parseNumber(text: string): bigint {
  if (/^0[xX]/.test(text)) return BigInt(text);
  const based = /^([0-9]+)#(.+)$/.exec(text);
  if (based) {
    const base = Number(based[1]);
    let value = 0n;
    for (const c of based[2]!) {
      const digit = parseInt(c, 36);
      if (Number.isNaN(digit) || digit >= base) throw new ArithmeticError('arithmetic syntax error');
      value = value * BigInt(base) + BigInt(digit);
    }
    return value;
  }
  if (text.length > 1 && text.startsWith('0')) {
    if (!/^[0-7]+$/.test(text)) throw new ArithmeticError('arithmetic syntax error');
    return BigInt('0o' + text.slice(1));
  }
  return BigInt(text);
}

/** Evaluates an arithmetic expression; an empty one is 0. */
export function evaluateArithmetic(text: string, variables: ArithmeticVariables): bigint {
  const tokens = tokenize(text);
  if (tokens.length === 0) return 0n;
  const evaluator = new Evaluator(tokens, variables);
  const value = evaluator.comma(true);
  if (evaluator.pos < tokens.length) throw new ArithmeticError('arithmetic syntax error');
  return value;
}

/** A value in flight: its number, and the variable it came from (for assignment operators). */
interface Value {
  value: bigint;
  name?: string;
}

const BINARY_PRECEDENCE: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
  '**': 11,
};

const ASSIGNMENT_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=']);

class Evaluator {
  pos = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly variables: ArithmeticVariables,
  ) {}

  private peekOp(): string | undefined {
    const token = this.tokens[this.pos];
    return token?.type === 'op' ? token.op : undefined;
  }

  comma(live: boolean): bigint {
    let value = this.assignment(live);
    while (this.peekOp() === ',') {
      this.pos++;
      value = this.assignment(live);
    }
    return value;
  }

  private assignment(live: boolean): bigint {
    const token = this.tokens[this.pos];
    const next = this.tokens[this.pos + 1];
    if (token?.type === 'name' && next?.type === 'op' && ASSIGNMENT_OPS.has(next.op)) {
      this.pos += 2;
      const right = this.assignment(live);
      if (!live) return 0n;
      const result = next.op === '=' ? right : binary(next.op.slice(0, -1), this.read(token.name), right);
      this.variables.set(token.name, wrap(result).toString());
      return wrap(result);
    }
    return this.conditional(live);
  }

  private conditional(live: boolean): bigint {
    const condition = this.binary(1, live);
    if (this.peekOp() !== '?') return condition;
    this.pos++;
    const whenTrue = this.comma(live && condition !== 0n);
    if (this.peekOp() !== ':') throw new ArithmeticError('arithmetic syntax error');
    this.pos++;
    const whenFalse = this.conditional(live && condition === 0n);
    return condition !== 0n ? whenTrue : whenFalse;
  }

  private binary(minPrecedence: number, live: boolean): bigint {
    let left = this.unary(live);
    for (;;) {
      const op = this.peekOp();
      const precedence = op === undefined ? undefined : BINARY_PRECEDENCE[op];
      if (op === undefined || precedence === undefined || precedence < minPrecedence) return left;
      this.pos++;
      if (op === '&&' || op === '||') {
        const shortCircuit = op === '&&' ? left === 0n : left !== 0n;
        const right = this.binary(precedence + 1, live && !shortCircuit);
        left = op === '&&' ? (left !== 0n && right !== 0n ? 1n : 0n) : left !== 0n || right !== 0n ? 1n : 0n;
        continue;
      }
      // ** is right-associative
      const right = this.binary(op === '**' ? precedence : precedence + 1, live);
      left = live ? wrap(binary(op, left, right)) : 0n;
    }
  }

  private unary(live: boolean): bigint {
    const op = this.peekOp();
    if (op === '+' || op === '-' || op === '!' || op === '~') {
      this.pos++;
      const value = this.unary(live);
      if (op === '-') return wrap(-value);
      if (op === '!') return value === 0n ? 1n : 0n;
      if (op === '~') return wrap(~value);
      return value;
    }
    if (op === '++' || op === '--') {
      this.pos++;
      const token = this.tokens[this.pos++];
      if (token?.type !== 'name') throw new ArithmeticError('arithmetic syntax error');
      const value = wrap(this.read(token.name) + (op === '++' ? 1n : -1n));
      if (live) this.variables.set(token.name, value.toString());
      return value;
    }
    return this.postfix(live);
  }

  private postfix(live: boolean): bigint {
    const primary = this.primary(live);
    const op = this.peekOp();
    if ((op === '++' || op === '--') && primary.name !== undefined) {
      this.pos++;
      if (live) this.variables.set(primary.name, wrap(primary.value + (op === '++' ? 1n : -1n)).toString());
      return primary.value;
    }
    return primary.value;
  }

  private primary(live: boolean): Value {
    const token = this.tokens[this.pos++];
    if (!token) throw new ArithmeticError('arithmetic syntax error');
    if (token.type === 'num') return { value: token.value };
    if (token.type === 'name') return { value: this.read(token.name), name: token.name };
    if (token.op === '(') {
      const value = this.comma(live);
      if (this.peekOp() !== ')') throw new ArithmeticError('arithmetic syntax error');
      this.pos++;
      return { value };
    }
    throw new ArithmeticError('arithmetic syntax error');
  }

  private read(name: string): bigint {
    const text = this.variables.get(name);
    if (text === undefined || text.trim() === '') return 0n;
    try {
      return evaluateArithmetic(text, this.variables);
    } catch {
      throw new ArithmeticError(`arithmetic syntax error`);
    }
  }
}

function binary(op: string, left: bigint, right: bigint): bigint {
  switch (op) {
    case '+': return left + right;
    case '-': return left - right;
    case '*': return left * right;
    case '/':
      if (right === 0n) throw new ArithmeticError('divide by zero');
      return left / right;
    case '%':
      if (right === 0n) throw new ArithmeticError('divide by zero');
      return left % right;
    case '**':
      if (right < 0n) throw new ArithmeticError('exponent less than 0');
      return left ** right;
    case '<<': return left << (right & 63n);
    case '>>': return left >> (right & 63n);
    case '<': return left < right ? 1n : 0n;
    case '>': return left > right ? 1n : 0n;
    case '<=': return left <= right ? 1n : 0n;
    case '>=': return left >= right ? 1n : 0n;
    case '==': return left === right ? 1n : 0n;
    case '!=': return left !== right ? 1n : 0n;
    case '&': return left & right;
    case '|': return left | right;
    case '^': return left ^ right;
    default: throw new ArithmeticError('arithmetic syntax error');
  }
}
