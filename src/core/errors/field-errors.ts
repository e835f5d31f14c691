// Field errors with kube-apiserver's wording (k8s.io/apimachinery's
// validation/field package): the type strings, the reasons put in
// `details.causes[].reason`, and how a bad value is quoted in the message.

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueNotFound'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueNotFound: 'Not found',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

/** Marker for "do not print the value" (field.OmitValueType in Go). */
export const OMIT_VALUE: unique symbol = Symbol('omit-value');

export interface FieldError {
  readonly type: FieldErrorType;
  /** Dotted path with [i] and [key] subscripts, e.g. `spec.containers[0].image`. */
  readonly field: string;
  readonly value?: unknown;
  readonly detail?: string;
}

/** The types whose message never prints the bad value. */
const VALUELESS = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

/** A bad value whose Go rendering is given verbatim (e.g. `[]string{"x"}`). */
export class GoLiteral {
  constructor(readonly text: string) {}
}

/** Go's %#v of a []string. */
export function goStringSlice(values: readonly string[]): GoLiteral {
  return new GoLiteral(`[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`);
}

/** Formats a bad value as Go's %v / %q / %#v would for the common cases. */
function formatValue(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(formatGoLiteral).join(', ')}}`;
  return `map[string]interface {}{${Object.keys(value as object)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${formatGoLiteral((value as Record<string, unknown>)[k])}`)
    .join(', ')}}`;
}

function formatGoLiteral(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value)) return `${value}`;
  return formatValue(value);
}

/** The part after "<field>: " (field.Error.ErrorBody). */
export function fieldErrorBody(error: FieldError): string {
  let body: string;
  if (VALUELESS.has(error.type) || error.value === OMIT_VALUE || (error.value === undefined && !('value' in error))) {
    body = TYPE_TEXT[error.type];
  } else {
    body = `${TYPE_TEXT[error.type]}: ${formatValue(error.value)}`;
  }
  if (error.detail) body += `: ${error.detail}`;
  return body;
}

export function fieldErrorString(error: FieldError): string {
  return `${error.field}: ${fieldErrorBody(error)}`;
}

/** Aggregate message: one error as is, several in brackets; duplicates collapse as utilerrors.NewAggregate does. */
export function aggregateFieldErrors(errors: readonly FieldError[]): string {
  const messages: string[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const text = fieldErrorString(error);
    if (!seen.has(text)) {
      seen.add(text);
      messages.push(text);
    }
  }
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

// Constructors in the vocabulary of field.Required(), field.Invalid(), …
export const fieldErrors = {
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  invalid: (field: string, value: unknown, detail = ''): FieldError => ({ type: 'FieldValueInvalid', field, value, detail }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    value,
    detail: supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
  }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  tooLong: (field: string, maxLength: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    detail: `must have at most ${maxLength} bytes`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    value: actual,
    detail: `must have at most ${max} items`,
  }),
  notFound: (field: string, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field, value }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field, value, detail }),
  internal: (field: string, detail: string): FieldError => ({ type: 'InternalError', field, detail }),
};

/** Joins a parent path and a child field the way field.Path.Child does. */
export function childPath(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
export function keyPath(parent: string, key: string): string {
  return `${parent}[${key}]`;
}
