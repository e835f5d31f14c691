import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors/status';
import { getBuiltinSchemaTable } from './builtin-table';
import {
  applyFieldValidation,
  builtinBodyProblems,
  customResourceStrictErrors,
  decodeError,
  fieldValidationDirective,
  yamlDuplicateKeysError,
} from './field-validation';
import { parseJsonAst } from './json-ast';
import { duplicateFields } from './field-validation';

const table = getBuiltinSchemaTable();
const pod = { ref: 'io.k8s.api.core.v1.Pod' };
const target = { kind: 'Pod', version: 'v1', intoKind: 'Pod' };

function problems(body: unknown | string) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return builtinBodyProblems(text, pod, table);
}

describe('fieldValidation directive (query parameter)', () => {
  it('defaults to Warn and accepts the three values', () => {
    expect(fieldValidationDirective(undefined)).toBe('Warn');
    expect(fieldValidationDirective('')).toBe('Warn');
    expect(fieldValidationDirective('Strict')).toBe('Strict');
    expect(fieldValidationDirective('Ignore')).toBe('Ignore');
    expect(fieldValidationDirective('strict')).toBeUndefined();
  });
});

describe('unknown and duplicate fields of a built-in kind (sigs.k8s.io/json strict decoding)', () => {
  it('reports unknown fields with their full path, list indices included', () => {
    const result = problems({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { foo: 1, containers: [{ name: 'c', image: 'nginx', bar: true }] },
    });
    expect(result.error).toBeUndefined();
    expect(result.strictErrors).toEqual(['unknown field "spec.foo"', 'unknown field "spec.containers[0].bar"']);
  });

  it('reports a duplicate field in nested JSON, in document order with unknown fields', () => {
    const body = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","name":"b"},"spec":{"containers":[{"name":"c","image":"x","image":"y"}],"zzz":1}}';
    expect(problems(body).strictErrors).toEqual([
      'duplicate field "metadata.name"',
      'duplicate field "spec.containers[0].image"',
      'unknown field "spec.zzz"',
    ]);
  });

  it('reports duplicate map keys by key (labels) and does not look into unknown subtrees', () => {
    const body = '{"metadata":{"labels":{"a":"1","a":"2"}},"spec":{"extra":{"x":1,"x":2}}}';
    expect(problems(body).strictErrors).toEqual(['duplicate field "metadata.labels.a"', 'unknown field "spec.extra"']);
  });

  it('does not look into RawExtension-like fields (any)', () => {
    const table2 = table;
    const result = builtinBodyProblems(
      JSON.stringify({ metadata: { managedFields: [{ fieldsV1: { 'f:x': {}, anything: 1 } }] } }),
      pod,
      table2,
    );
    expect(result.strictErrors).toEqual([]);
  });

  it('Strict: 400 BadRequest with the strict decoding error wrapped like transformDecodeError', () => {
    const result = problems('{"metadata":{"name":"a","name":"b"},"spec":{"foo":1}}');
    let thrown: unknown;
    try {
      applyFieldValidation('Strict', result.strictErrors, target);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(StatusError);
    const status = (thrown as StatusError).status;
    expect(status.code).toBe(400);
    expect(status.reason).toBe('BadRequest');
    expect(status.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: duplicate field "metadata.name", unknown field "spec.foo"',
    );
  });

  it('Warn: one warning text per field; Ignore: none', () => {
    const result = problems({ spec: { foo: 1, bar: 2 } });
    expect(applyFieldValidation('Warn', result.strictErrors, target)).toEqual(['unknown field "spec.foo"', 'unknown field "spec.bar"']);
    expect(applyFieldValidation('Ignore', result.strictErrors, target)).toEqual([]);
  });

  it('YAML bodies: the go-yaml duplicate-key error first, then unknown fields in sorted key order', () => {
    const yaml = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\nspec:\n  zeta: 1\n  alpha: 2\n';
    const parsed = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b' }, spec: { zeta: 1, alpha: 2 } };
    const result = builtinBodyProblems(yaml, pod, table, { yaml: true, parsed });
    expect(result.strictErrors).toEqual([
      'yaml: unmarshal errors:\n  line 5: key "name" already set in map',
      'unknown field "spec.alpha"',
      'unknown field "spec.zeta"',
    ]);
  });

  it('a body without kind is summarized in the 400', () => {
    const err = decodeError({ kind: '', version: '', intoKind: 'Pod', body: '{"spec":{"foo":1}}' }, 'strict decoding error: unknown field "spec.foo"');
    expect(err.status.message).toBe(
      'the object provided is unrecognized (must be of type Pod): strict decoding error: unknown field "spec.foo" ({"spec":{"foo":1}})',
    );
  });
});

describe('custom resources', () => {
  it('reports duplicates at every level (map decoding), then the unknown fields pruning found', () => {
    const body = '{"spec":{"a":1,"a":2,"items":[{"k":1,"k":1}]}}';
    expect(customResourceStrictErrors(body, ['metadata.foo', 'spec.bar'])).toEqual([
      'duplicate field "spec.a"',
      'duplicate field "spec.items[0].k"',
      'unknown field "metadata.foo"',
      'unknown field "spec.bar"',
    ]);
  });

  it('duplicateFields dedupes repeated messages', () => {
    expect(duplicateFields(parseJsonAst('{"a":1,"a":2,"a":3}'))).toEqual(['duplicate field "a"']);
  });

  it('yamlDuplicateKeysError lists every duplicate with its line', () => {
    expect(yamlDuplicateKeysError('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n')).toBe(
      'yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map',
    );
    expect(yamlDuplicateKeysError('a: 1\n')).toBeUndefined();
  });
});
