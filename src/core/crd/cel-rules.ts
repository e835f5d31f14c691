// x-kubernetes-validations of custom resources: each rule is a CEL expression
// evaluated with `self` bound to the value at its schema node (and `oldSelf`
// to the previous value on updates, for transition rules), reported as
// apiextensions reports them: `<path>: Invalid value: "<schema type>":
// <message>` (or Required/Forbidden/Duplicate per the rule's reason), the
// message being the rule's message, its messageExpression's result, or
// "failed rule: <rule>".
//
// The CEL library is the project's (@marcbachmann/cel-js, decision 0071),
// not cel-go: a rule it cannot compile or evaluate (kube's extension
// libraries, some type errors) is skipped rather than failing objects a real
// server would accept (decision 0112).

import { Environment } from '@marcbachmann/cel-js';
import { childPath, fieldErrors, indexPath, keyPath, type FieldError } from '../errors/field-errors';
import { isProps } from './structural-schema';

type Props = Record<string, unknown>;
type Program = (context: Record<string, unknown>) => unknown;

interface Rule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?: string;
  readonly fieldPath?: string;
}

let env: Environment | undefined;
const programs = new Map<string, Program | null>();

function compile(expression: string): Program | undefined {
  if (programs.has(expression)) return programs.get(expression) ?? undefined;
  env ??= new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false }).registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');
  let program: Program | null = null;
  try {
    program = env.parse(expression) as unknown as Program;
  } catch {
    program = null;
  }
  programs.set(expression, program);
  return program ?? undefined;
}

/** The value as CEL sees it: integers of integer (and int-or-string) fields are int64. */
function toCel(value: unknown, schema: Props | undefined): unknown {
  if (value === null || value === undefined) return value;
  const type = schema?.type;
  if (typeof value === 'number') {
    if ((type === 'integer' || schema?.['x-kubernetes-int-or-string'] === true) && Number.isInteger(value)) return BigInt(value);
    return value;
  }
  if (Array.isArray(value)) {
    const items = isProps(schema?.items) ? (schema!.items as Props) : undefined;
    return value.map((v) => toCel(v, items));
  }
  if (isProps(value)) {
    const props = isProps(schema?.properties) ? (schema!.properties as Props) : {};
    const additional = isProps(schema?.additionalProperties) ? (schema!.additionalProperties as Props) : undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const sub = Object.hasOwn(props, k) && isProps(props[k]) ? (props[k] as Props) : additional;
      out[k] = toCel(v, sub);
    }
    return out;
  }
  return value;
}

function rulesOf(schema: Props): Rule[] {
  const raw = schema['x-kubernetes-validations'];
  if (!Array.isArray(raw)) return [];
  return raw.filter((r): r is Rule => isProps(r) && typeof r.rule === 'string' && r.rule.trim() !== '') as Rule[];
}

/** Whether a schema carries any rule (kube only builds a CEL validator then). */
export function schemaHasRules(schema: unknown): boolean {
  if (!isProps(schema)) return false;
  if (rulesOf(schema).length) return true;
  const children: unknown[] = [schema.items, schema.additionalProperties];
  if (isProps(schema.properties)) children.push(...Object.values(schema.properties));
  return children.some(schemaHasRules);
}

/** A rule's fieldPath (".spec.x", "['a.b']", "[0]") appended to the node's path. */
function withFieldPath(path: string, fieldPath: string | undefined): string {
  if (!fieldPath) return path;
  let out = path === '<nil>' ? '' : path;
  const re = /\.([^.[\]]+)|\['([^']*)'\]|\[(\d+)\]/g;
  for (let m = re.exec(fieldPath); m; m = re.exec(fieldPath)) {
    if (m[1] !== undefined) out = childPath(out, m[1]);
    else if (m[2] !== undefined) out = childPath(out, m[2]);
    else out = indexPath(out, Number(m[3]));
  }
  return out || '<nil>';
}

function ruleError(rule: Rule, path: string, type: string, message: string): FieldError {
  const at = withFieldPath(path, rule.fieldPath);
  switch (rule.reason) {
    case 'FieldValueForbidden':
      return fieldErrors.forbidden(at, message);
    case 'FieldValueRequired':
      return fieldErrors.required(at, message);
    case 'FieldValueDuplicate':
      return fieldErrors.duplicate(at, type);
    default:
      return fieldErrors.invalid(at, type, message);
  }
}

function messageOf(rule: Rule, context: Record<string, unknown>): string {
  if (rule.messageExpression) {
    const program = compile(rule.messageExpression);
    if (program) {
      try {
        const text = program(context);
        if (typeof text === 'string' && text.trim() !== '' && !/[\r\n]/.test(text)) return text;
      } catch {
        // Falls back to message, as kube does when the expression fails.
      }
    }
  }
  if (rule.message) return rule.message;
  return `failed rule: ${rule.rule.trim()}`;
}

function walk(value: unknown, schema: Props, path: string, old: { value: unknown } | undefined, out: FieldError[]): void {
  if (value === undefined) return;
  const type = typeof schema.type === 'string' ? schema.type : '';
  for (const rule of rulesOf(schema)) {
    const transition = /\boldSelf\b/.test(rule.rule);
    if (transition && !old) continue;
    const program = compile(rule.rule);
    if (!program) continue;
    const context: Record<string, unknown> = { self: toCel(value, schema) };
    if (old) context['oldSelf'] = toCel(old.value, schema);
    let result: unknown;
    try {
      result = program(context);
    } catch {
      continue;
    }
    if (result === false) out.push(ruleError(rule, path, type, messageOf(rule, context)));
  }
  if (Array.isArray(value)) {
    const items = isProps(schema.items) ? (schema.items as Props) : undefined;
    if (!items) return;
    const keys = schema['x-kubernetes-list-type'] === 'map' && Array.isArray(schema['x-kubernetes-list-map-keys']) ? (schema['x-kubernetes-list-map-keys'] as string[]) : undefined;
    value.forEach((item, i) => {
      let previous: { value: unknown } | undefined;
      // Only map lists correlate old and new items (by their keys).
      if (keys && old && Array.isArray(old.value) && isProps(item)) {
        const match = old.value.find((o) => isProps(o) && keys.every((k) => (o as Props)[k] === (item as Props)[k]));
        if (match !== undefined) previous = { value: match };
      }
      walk(item, items, indexPath(path === '<nil>' ? '' : path, i), previous, out);
    });
    return;
  }
  if (!isProps(value)) return;
  const props = isProps(schema.properties) ? (schema.properties as Props) : {};
  const additional = isProps(schema.additionalProperties) ? (schema.additionalProperties as Props) : undefined;
  const oldMap = old && isProps(old.value) && schema['x-kubernetes-map-type'] !== 'atomic' ? (old.value as Props) : undefined;
  const base = path === '<nil>' ? '' : path;
  for (const [key, child] of Object.entries(value)) {
    const previous = oldMap && Object.hasOwn(oldMap, key) ? { value: oldMap[key] } : undefined;
    if (Object.hasOwn(props, key) && isProps(props[key])) walk(child, props[key] as Props, childPath(base, key), previous, out);
    else if (additional) walk(child, additional, keyPath(base, key), previous, out);
  }
}

/** The error kube adds instead of running rules when the object already failed its schema. */
const BLOCKING_TYPES = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/**
 * The rule errors of an object (root schema = the version's openAPIV3Schema);
 * `old` for updates. `prior` are the errors found so far: blocking ones
 * replace the rules by kube's single "not checked" error.
 */
export function validateRules(obj: unknown, schema: unknown, old: unknown | undefined, prior: readonly FieldError[]): FieldError[] {
  if (!isProps(schema) || !schemaHasRules(schema)) return [];
  if (prior.some((e) => BLOCKING_TYPES.has(e.type))) {
    return [fieldErrors.invalid('<nil>', 'null', 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
  }
  const out: FieldError[] = [];
  walk(obj, schema, '<nil>', old === undefined ? undefined : { value: old }, out);
  return out;
}
