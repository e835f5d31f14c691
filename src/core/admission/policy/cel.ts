// CEL for admission (ValidatingAdmissionPolicy validations, messageExpressions,
// auditAnnotations, variables, and the matchConditions of policies and
// webhooks), on the project's CEL library (@marcbachmann/cel-js, decision
// 0071) with kube's variables: object, oldObject, request, params,
// namespaceObject, variables (lazily evaluated, each at most once per
// request) and authorizer (./authorizer.ts; its checks are async, so every
// evaluation is awaited). Error texts follow
// k8s.io/apiserver/pkg/admission/plugin/cel.

import { Environment } from '@marcbachmann/cel-js';
import { CelAuthorizer, CelDecision, CelGroupCheck, CelPathCheck, CelResourceCheck, checkPath, checkResource, serviceAccountAuthorizer } from './authorizer';

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
    .registerType('ResourceCheck', CelResourceCheck)
    .registerType('Authorizer', { ctor: CelAuthorizer, fields: { requestResource: 'ResourceCheck' } })
    .registerType('GroupCheck', CelGroupCheck)
    .registerType('PathCheck', CelPathCheck)
    .registerType('AuthorizerDecision', CelDecision)
    .registerVariable('authorizer', 'Authorizer')
    .registerFunction('Authorizer.group(string): GroupCheck', (a: CelAuthorizer, g: string) => new CelGroupCheck(a, g))
    .registerFunction('Authorizer.path(string): PathCheck', (a: CelAuthorizer, p: string) => new CelPathCheck(a, p))
    .registerFunction('Authorizer.serviceAccount(string, string): Authorizer', (a: CelAuthorizer, ns: string, n: string) => serviceAccountAuthorizer(a, ns, n))
    .registerFunction('GroupCheck.resource(string): ResourceCheck', (g: CelGroupCheck, r: string) => new CelResourceCheck(g.authz, g.group, r))
    .registerFunction('ResourceCheck.subresource(string): ResourceCheck', (r: CelResourceCheck, s: string) => r.with({ subresource: s }))
    .registerFunction('ResourceCheck.namespace(string): ResourceCheck', (r: CelResourceCheck, ns: string) => r.with({ namespace: ns }))
    .registerFunction('ResourceCheck.name(string): ResourceCheck', (r: CelResourceCheck, n: string) => r.with({ name: n }))
    .registerFunction('ResourceCheck.check(string): AuthorizerDecision', (r: CelResourceCheck, verb: string) => checkResource(r, verb))
    .registerFunction('PathCheck.check(string): AuthorizerDecision', (p: CelPathCheck, verb: string) => checkPath(p, verb))
    .registerFunction('AuthorizerDecision.allowed(): bool', (d: CelDecision) => d.decision === 'Allow')
    .registerFunction('AuthorizerDecision.reason(): string', (d: CelDecision) => d.reason)
    .registerFunction('AuthorizerDecision.errored(): bool', (d: CelDecision) => d.error !== '')
    .registerFunction('AuthorizerDecision.error(): string', (d: CelDecision) => d.error);
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
    inputs: { object: unknown; oldObject: unknown; request: unknown; params: unknown; namespaceObject: unknown; authorizer?: CelAuthorizer },
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
      authorizer: inputs.authorizer ?? new CelAuthorizer(undefined, undefined),
    };
  }

  private variable(name: string): unknown {
    const result = this.variableResults.get(name);
    if (!result) {
      // Variables are computed by prepareVariables() before any expression runs.
      if (!this.variableDefs.some((v) => v.name === name)) return undefined;
      throw new Error(`composited variable "${name}" fails to evaluate: not prepared`);
    }
    if (result.error !== undefined) throw new Error(result.error);
    return result.value;
  }

  /**
   * Computes the variables in order, each once (later ones may use earlier
   * ones); a failure is kept and reported only by the expressions that use
   * the variable, as kube's lazy evaluation reports it.
   */
  async prepareVariables(): Promise<void> {
    for (const def of this.variableDefs) {
      if (this.variableResults.has(def.name)) continue;
      const r = await this.evaluate(def.expression);
      this.variableResults.set(def.name, r.error !== undefined ? { error: `composited variable "${def.name}" fails to evaluate: ${r.error}` } : { value: r.value });
    }
  }

  /** Evaluates an expression; errors come back as kube's `expression '…' resulted in error: …`. */
  async evaluate(expression: string): Promise<{ value?: unknown; error?: string }> {
    const compiled = compileAdmissionExpression(expression);
    if (!compiled.program) return { error: compiled.error };
    try {
      return { value: await compiled.program(this.values) };
    } catch (err) {
      return { error: `expression '${expression}' resulted in error: ${firstLine(err)}` };
    }
  }
}
