// CEL for access control, with kube-apiserver's variables:
// - `claims`: the JWT payload (claim validation rules and claim mappings);
// - `user`: the mapped user (user validation rules): username, uid, groups, extra;
// - `request`: a v1 SubjectAccessReview spec (authorization webhook matchConditions).
// Expressions are compiled once (parse + type check) and evaluated per request.
// The library is @marcbachmann/cel-js (docs/decisions/0071-cel-library.md).

import { Environment } from '@marcbachmann/cel-js';

export type CelVariable = 'claims' | 'user' | 'request';

/** What an expression must produce: kube refuses other result types at compile time when it can tell. */
export type CelResultKind = 'bool' | 'string' | 'string-or-list';

export interface CompiledExpression {
  readonly expression: string;
  /** Evaluates against the variable's value; throws with a message on evaluation errors. */
  evaluate(value: unknown): unknown;
}

function makeEnvironment(variable: CelVariable): Environment {
  return new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false }).registerVariable(variable, 'map');
}

const environments = new Map<CelVariable, Environment>();
function environment(variable: CelVariable): Environment {
  let env = environments.get(variable);
  if (!env) environments.set(variable, (env = makeEnvironment(variable)));
  return env;
}

const ALLOWED: Record<CelResultKind, string[]> = {
  bool: ['bool', 'dyn'],
  string: ['string', 'dyn'],
  'string-or-list': ['string', 'list<string>', 'list<dyn>', 'list', 'dyn'],
};
const EXPECTED_TEXT: Record<CelResultKind, string> = {
  bool: 'bool',
  string: 'string',
  'string-or-list': 'string or list(string)',
};

/** Compiles, or returns the error text kube would put in a validation error. */
export function compileCel(variable: CelVariable, expression: string, kind: CelResultKind): { compiled?: CompiledExpression; error?: string } {
  const env = environment(variable);
  let program: ReturnType<Environment['parse']>;
  try {
    program = env.parse(expression);
  } catch (err) {
    return { error: `compilation failed: ${firstLine(err)}` };
  }
  try {
    const checked = env.check(expression) as { valid: boolean; type?: unknown; error?: { message: string } };
    if (!checked.valid) return { error: `compilation failed: ${firstLine(checked.error?.message ?? 'type error')}` };
    const type = String(checked.type ?? 'dyn');
    if (!ALLOWED[kind].includes(type)) return { error: `must evaluate to ${EXPECTED_TEXT[kind]}` };
  } catch (err) {
    return { error: `compilation failed: ${firstLine(err)}` };
  }
  return {
    compiled: {
      expression,
      evaluate: (value) => program({ [variable]: value }),
    },
  };
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.trim();
}

/** CEL values back to plain JSON-like values (ints are bigints in the library). */
export function celToPlain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(celToPlain);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), celToPlain(v)]));
  return value;
}
