// Type checking of request bodies.
//
// Built-in kinds: the first error Go's decoder meets (builtin-decode.ts),
// which the handlers turn into a 400 BadRequest through decodeError():
// `Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal
// string into Go struct field PodSpec.spec.containers of type []v1.Container`.
//
// Custom resources: OpenAPI v3 schema validation as kube-openapi's validator
// runs it, converted to field errors the way apiextensions-apiserver does
// (kubeOpenAPIResultToFieldErrors), plus the uniqueness of
// x-kubernetes-list-type set and map lists. These make a 422 Invalid.

import { childPath, fieldErrors, indexPath, keyPath, type FieldError } from '../errors/field-errors';
import { decodeBuiltin } from './builtin-decode';
import { base64DecodeError } from './go-values';
import { astFromValue } from './json-ast';
import { isRef, type SchemaNode, type SchemaTable } from './types';

type Resolved = Exclude<SchemaNode, { ref: string }>;

/** The Go decode error of a built-in object given as a parsed value (e.g. a patched object), or undefined. */
export function builtinTypeError(value: unknown, root: SchemaNode, table: SchemaTable): string | undefined {
  return decodeBuiltin(astFromValue(value), root, table).error;
}

/** Go's %v of a float64 (strconv 'g', shortest). */
export function formatGoFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  // Go switches to exponent form when the decimal exponent is < -4 or >= 6 (shortest precision).
  const [mantissa, e] = n.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(n);
  const sign = exp < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** A bound printed as kube-openapi prints it: an integer bound for integer data, a float otherwise. */
function formatBound(bound: number, data: number): string {
  return Number.isInteger(data) ? String(Math.trunc(bound)) : formatGoFloat(bound);
}

function jsonType(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      // Unstructured JSON holds integers as int64.
      return Number.isInteger(value) ? 'integer' : 'number';
    default:
      return 'object';
  }
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function runeLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const FORMATS: Record<string, (s: string) => boolean> = {
  'date-time': (s) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s),
  datetime: (s) => FORMATS['date-time']!(s),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s),
  byte: (s) => base64DecodeError(s) === undefined,
  uuid: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid3: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid4: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  uuid5: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  ipv4: (s) => /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(s),
  ipv6: (s) => s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s),
  cidr: (s) => /^[0-9a-fA-F:.]+\/\d{1,3}$/.test(s),
  mac: (s) => /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(s),
  hostname: (s) => /^(?=.{1,255}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/.test(s),
  email: (s) => /^[^@\s]+@[^@\s]+$/.test(s),
};

/** A kube-openapi validation error before conversion to a field error. */
interface Problem {
  readonly field: string;
  readonly error: FieldError;
}

/**
 * Validates an object against a CRD schema. Returns field errors with kube's
 * paths and texts (`spec.replicas: Invalid value: "string": spec.replicas in
 * body must be of type integer: "string"`, `spec.x: Required value`, …).
 */
export function validateCustomResource(obj: unknown, schema: SchemaNode, table?: SchemaTable): FieldError[] {
  const resolve = (node: SchemaNode): Resolved => {
    if (!isRef(node)) return node;
    if (!table) throw new Error(`schema ref ${node.ref} without a table`);
    return table.resolve(node);
  };
  const out: FieldError[] = [];
  validateNode(obj, schema, '', resolve, out);
  out.push(...validateListSetsAndMaps(obj, schema, table));
  return out;
}

/** The field a kube-openapi path names ("" → "<nil>", a leading "." dropped). */
function fieldOf(path: string): string {
  const trimmed = path.startsWith('.') ? path.slice(1) : path;
  return trimmed || '<nil>';
}

function validateNode(data: unknown, schema: SchemaNode, path: string, resolve: (n: SchemaNode) => Resolved, out: FieldError[]): void {
  const s = resolve(schema);
  const field = fieldOf(path);
  const name = path;
  const types = s.type === 'int-or-string' ? ['integer', 'string'] : s.type === 'any' ? [] : [s.type];
  const format = (s as { format?: string }).format;

  if (data === null || data === undefined) {
    if (types.length && !s.nullable) {
      out.push(fieldErrors.typeInvalid(field, 'null', `${name} in body must be of type ${types.join(',')}: "null"`));
    }
    if (s.enum && !s.enum.some((v) => v === null)) out.push(enumError(field, data, s.enum));
    return;
  }

  const actual = jsonType(data);
  // Type: integers are numbers, and an integral number passes as an integer.
  if (types.length) {
    const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
    if (!ok) out.push(fieldErrors.typeInvalid(field, actual, `${name} in body must be of type ${types.join(',')}: ${JSON.stringify(actual)}`));
  }

  // Combinators.
  if (s.allOf?.length) {
    let valid = 0;
    for (const sub of s.allOf) {
      const errs: FieldError[] = [];
      validateNode(data, sub, path, resolve, errs);
      if (errs.length === 0) valid++;
      out.push(...errs);
    }
    if (valid !== s.allOf.length) {
      out.push(fieldErrors.invalid('<nil>', '', `${JSON.stringify(name)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
    }
  }
  if (s.anyOf?.length) {
    let best: FieldError[] | undefined;
    let matched = false;
    for (const sub of s.anyOf) {
      const errs: FieldError[] = [];
      validateNode(data, sub, path, resolve, errs);
      if (errs.length === 0) {
        matched = true;
        break;
      }
      if (!best || errs.length < best.length) best = errs;
    }
    if (!matched) {
      out.push(fieldErrors.invalid('<nil>', '', `${JSON.stringify(name)} must validate at least one schema (anyOf)`));
      out.push(...(best ?? []));
    }
  }
  if (s.oneOf?.length) {
    let valid = 0;
    let best: FieldError[] | undefined;
    for (const sub of s.oneOf) {
      const errs: FieldError[] = [];
      validateNode(data, sub, path, resolve, errs);
      if (errs.length === 0) valid++;
      else if (!best || errs.length < best.length) best = errs;
    }
    if (valid !== 1) {
      const more = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
      out.push(fieldErrors.invalid('<nil>', '', `${JSON.stringify(name)} must validate one and only one schema (oneOf). ${more}`));
      if (valid === 0) out.push(...(best ?? []));
    }
  }
  if (s.not) {
    const errs: FieldError[] = [];
    validateNode(data, s.not, path, resolve, errs);
    if (errs.length === 0) out.push(fieldErrors.invalid('<nil>', '', `${JSON.stringify(name)} must not validate the schema (not)`));
  }

  // Strings.
  if (typeof data === 'string' && s.type === 'string') {
    if (s.maxLength !== undefined && runeLength(data) > s.maxLength) {
      out.push({ type: 'FieldValueTooLong', field, value: data, detail: `may not be longer than ${s.maxLength}` });
    }
    if (s.minLength !== undefined && runeLength(data) < s.minLength) {
      out.push(fieldErrors.invalid(field, data, `${name} in body should be at least ${s.minLength} chars long`));
    }
    if (s.pattern !== undefined && !safeRegExp(s.pattern).test(data)) {
      out.push(fieldErrors.invalid(field, data, `${name} in body should match '${s.pattern}'`));
    }
  }
  if (typeof data === 'string' && format && FORMATS[format] && !FORMATS[format](data)) {
    out.push(fieldErrors.typeInvalid(field, data, `${name} in body must be of type ${format}: ${JSON.stringify(data)}`));
  }

  // Numbers.
  if (typeof data === 'number' && (s.type === 'integer' || s.type === 'number')) {
    if (s.multipleOf !== undefined && s.multipleOf !== 0 && !Number.isInteger(data / s.multipleOf)) {
      out.push(fieldErrors.invalid(field, data, `${name} in body should be a multiple of ${formatGoFloat(s.multipleOf)}`));
    }
    if (s.maximum !== undefined && (s.exclusiveMaximum ? data >= s.maximum : data > s.maximum)) {
      const text = s.exclusiveMaximum ? 'less than' : 'less than or equal to';
      out.push(fieldErrors.invalid(field, data, `${name} in body should be ${text} ${formatBound(s.maximum, data)}`));
    }
    if (s.minimum !== undefined && (s.exclusiveMinimum ? data <= s.minimum : data < s.minimum)) {
      const text = s.exclusiveMinimum ? 'greater than' : 'greater than or equal to';
      out.push(fieldErrors.invalid(field, data, `${name} in body should be ${text} ${formatBound(s.minimum, data)}`));
    }
  }

  // Arrays.
  if (Array.isArray(data) && s.type === 'array') {
    data.forEach((item, i) => validateNode(item, s.items, `${path}[${i}]`, resolve, out));
    if (s.minItems !== undefined && data.length < s.minItems) {
      out.push(fieldErrors.invalid(field, data.length, `${name} in body should have at least ${s.minItems} items`));
    }
    if (s.maxItems !== undefined && data.length > s.maxItems) out.push(fieldErrors.tooMany(field, data.length, s.maxItems));
    if (s.uniqueItems) {
      const seen = new Set(data.map((d) => JSON.stringify(d)));
      if (seen.size !== data.length) out.push(fieldErrors.invalid(field, '', `${name} in body shouldn't contain duplicates`));
    }
  }

  // Enum.
  if (s.enum && s.enum.length && !s.enum.some((v) => JSON.stringify(v) === JSON.stringify(data))) out.push(enumError(field, data, s.enum));

  // Objects.
  if (isObject(data) && s.type === 'object') {
    const count = Object.keys(data).length;
    if (s.minProperties !== undefined && count < s.minProperties) {
      out.push(fieldErrors.invalid(field, count, `${name} in body should have at least ${s.minProperties} properties`));
      return;
    }
    if (s.maxProperties !== undefined && count > s.maxProperties) {
      out.push(fieldErrors.tooMany(field, count, s.maxProperties));
      return;
    }
    const properties = s.properties ?? {};
    if (s.additionalProperties) {
      for (const [key, value] of Object.entries(data)) {
        if (!Object.hasOwn(properties, key)) validateNode(value, s.additionalProperties, `${path}.${key}`, resolve, out);
      }
    }
    for (const [key, prop] of Object.entries(properties)) {
      if (Object.hasOwn(data, key)) validateNode(data[key], prop, path ? `${path}.${key}` : key, resolve, out);
    }
    for (const key of s.required ?? []) {
      if (!Object.hasOwn(data, key)) out.push(fieldErrors.required(fieldOf(`${path}.${key}`)));
    }
  }
}

function enumError(field: string, value: unknown, values: readonly unknown[]): FieldError {
  return fieldErrors.notSupported(
    field,
    value,
    values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
  );
}

const regexCache = new Map<string, RegExp>();
/** ECMA-262 patterns as the CRD states them (kube compiles them with Go's RE2; the common subset agrees). */
function safeRegExp(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = new RegExp(pattern);
    }
    regexCache.set(pattern, re);
  }
  return re;
}

/**
 * Uniqueness of x-kubernetes-list-type "set" items and "map" keys
 * (apiextensions-apiserver's listtype validation): the second appearance of
 * a value or key is a `Duplicate value`.
 */
export function validateListSetsAndMaps(obj: unknown, schema: SchemaNode, table?: SchemaTable): FieldError[] {
  const resolve = (node: SchemaNode): Resolved => (isRef(node) ? table!.resolve(node) : node);
  const out: FieldError[] = [];
  const walkObject = (x: Record<string, unknown>, s: Resolved, path: string): void => {
    if (s.type !== 'object') return;
    if (s.additionalProperties) {
      for (const [k, v] of Object.entries(x)) walk(v, s.additionalProperties, keyPath(path, k));
    }
    if (s.properties) {
      for (const [k, v] of Object.entries(x)) {
        if (Object.hasOwn(s.properties, k)) walk(v, s.properties[k]!, childPath(path, k));
      }
    }
  };
  const walk = (x: unknown, node: SchemaNode, path: string): void => {
    const s = resolve(node);
    if (Array.isArray(x)) {
      if (s.type !== 'array') return;
      if (s.listType === 'set') {
        for (const i of nonUnique(x)) out.push(fieldErrors.duplicate(indexPath(path, i), x[i]));
      } else if (s.listType === 'map') {
        out.push(...listMapErrors(x, s.listMapKeys ?? [], path));
      }
      x.forEach((item, i) => walk(item, s.items, indexPath(path, i)));
    } else if (isObject(x)) {
      walkObject(x, s, path);
    }
  };
  walk(obj, schema, '');
  return out;
}

const UNSPECIFIED = '\u0000unspecified';

/** Indices of the first repeat of each value (a value seen twice is reported once). */
function nonUnique(items: readonly unknown[]): number[] {
  const counts = new Map<string, number>();
  const out: number[] = [];
  items.forEach((item, i) => {
    const id = item === UNSPECIFIED ? UNSPECIFIED : JSON.stringify(item);
    const times = counts.get(id) ?? 0;
    counts.set(id, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

function listMapErrors(items: readonly unknown[], keys: readonly string[], path: string): FieldError[] {
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (x !== null && !isObject(x)) return [fieldErrors.invalid(indexPath(path, i), x, 'must be an object for an array of list-type map')];
  }
  if (items.length <= 1) return [];
  if (keys.length === 1) {
    const key = keys[0]!;
    const values = items.map((x) => (isObject(x) && Object.hasOwn(x, key) ? x[key] : UNSPECIFIED));
    return nonUnique(values).map((i) =>
      fieldErrors.duplicate(indexPath(path, i), values[i] === UNSPECIFIED ? {} : { [key]: values[i] }),
    );
  }
  const values = items.map((x) => {
    const k: Record<string, unknown> = {};
    if (isObject(x)) for (const key of keys) if (Object.hasOwn(x, key)) k[key] = x[key];
    return k;
  });
  // Compare independent of key order, as Go's json.Marshal of a map sorts keys.
  const canonical = values.map((v) => Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  return nonUnique(canonical).map((i) => fieldErrors.duplicate(indexPath(path, i), values[i]));
}
