// CEL for admission (ValidatingAdmissionPolicy validations, messageExpressions,
// auditAnnotations, variables, and the matchConditions of policies and
// webhooks), on the project's CEL library (@marcbachmann/cel-js, decision
// 0071) with kube's variables: object, oldObject, request, params,
// namespaceObject, variables (lazily evaluated, each at most once per
// request) and authorizer (not provided: expressions using it fail to
// evaluate). Error texts follow k8s.io/apiserver/pkg/admission/plugin/cel.

import { Environment } from '@marcbachmann/cel-js';

type Program = (context: Record<string, unknown>) => unknown;

let env: Environment | undefined;
const programs = new Map<string, { program?: Program; error?: string }>();

function environment(): Environment {
  env ??= new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false })
    .registerVariable('object', 'dyn')
    .registerVariable('oldObject', 'dyn')
    .registerVariable('request', 'dyn')
    .registerVariable('params', 'dyn')
    .registerVariable('namespaceObject', 'dyn')
    .registerVariable('variables', 'dyn')
    .registerVariable('authorizer', 'dyn');
  return env;
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.trim();
}

/** Parses once per expression text; a parse failure is kube's `compilation failed: …`. */
export function compileAdmissionExpression(expression: string): { program?: Program; error?: string } {
  let entry = programs.get(expression);
  if (!entry) {
    try {
      entry = { program: environment().parse(expression) as unknown as Program };
    } catch (err) {
      entry = { error: `compilation failed: ${firstLine(err)}` };
    }
    programs.set(expression, entry);
  }
  return entry;
}

/** JSON values as CEL sees them: integral numbers are int (bigint). */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toCel(v);
    return out;
  }
  return value;
}

export function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), fromCel(v)]));
  return value;
}

export interface NamedExpression {
  readonly name: string;
  readonly expression: string;
}

/** The activation of one evaluation: the inputs and the lazily computed variables. */
export class AdmissionActivation {
  private readonly values: Record<string, unknown>;
  private readonly variableResults = new Map<string, { value?: unknown; error?: string }>();

  constructor(
    inputs: { object: unknown; oldObject: unknown; request: unknown; params: unknown; namespaceObject: unknown },
    private readonly variableDefs: readonly NamedExpression[] = [],
  ) {
    const variables = new Proxy(
      {},
      {
        get: (_t, key) => (typeof key === 'string' ? this.variable(key) : undefined),
        has: (_t, key) => typeof key === 'string' && this.variableDefs.some((v) => v.name === key),
        ownKeys: () => this.variableDefs.map((v) => v.name),
        getOwnPropertyDescriptor: (_t, key) =>
          typeof key === 'string' && this.variableDefs.some((v) => v.name === key) ? { enumerable: true, configurable: true, value: this.variable(key) } : undefined,
      },
    );
    this.values = {
      object: toCel(inputs.object ?? null),
      oldObject: toCel(inputs.oldObject ?? null),
      request: toCel(inputs.request),
      params: toCel(inputs.params ?? null),
      namespaceObject: toCel(inputs.namespaceObject ?? null),
      variables,
    };
  }

  private variable(name: string): unknown {
    let result = this.variableResults.get(name);
    if (!result) {
      const def = this.variableDefs.find((v) => v.name === name);
      if (!def) return undefined;
      const r = this.evaluate(def.expression);
      result = r.error !== undefined ? { error: `composited variable "${name}" fails to evaluate: ${r.error}` } : { value: r.value };
      this.variableResults.set(name, result);
    }
    if (result.error !== undefined) throw new Error(result.error);
    return result.value;
  }

  /** Evaluates an expression; errors come back as kube's `expression '…' resulted in error: …`. */
  evaluate(expression: string): { value?: unknown; error?: string } {
    const compiled = compileAdmissionExpression(expression);
    if (!compiled.program) return { error: compiled.error };
    try {
      return { value: compiled.program(this.values) };
    } catch (err) {
      return { error: `expression '${expression}' resulted in error: ${firstLine(err)}` };
    }
  }
}
