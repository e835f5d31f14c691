// What kube-apiserver rejects in an apply body before merging, and the
// decoding of the body itself.

import { describe, expect, it } from 'vitest';
import { isStatusError, type StatusError } from '../../errors/status';
import { applyPatch, decodeApplyBody } from '../index';
import { configSchema } from './schemas';

function tryApply(applied: Record<string, unknown>): StatusError | undefined {
  try {
    applyPatch({ live: undefined, applied, manager: 'm', force: false, apiVersion: 'v1', kind: 'Config', subresource: '', now: '2024-12-11T12:00:00Z', schema: configSchema });
    return undefined;
  } catch (e) {
    if (isStatusError(e)) return e;
    throw e;
  }
}

describe('apply body checks', () => {
  it('a body without apiVersion and kind: 400 invalid object type', () => {
    const e = tryApply({ metadata: { name: 'x' } })!;
    expect([e.code, e.reason, e.message]).toEqual([400, 'BadRequest', 'invalid object type: /, Kind=']);
  });

  it('another kind or version: 400 naming what was sent', () => {
    expect(tryApply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } })!.message).toBe('invalid object type: /v1, Kind=Secret');
    expect(tryApply({ apiVersion: 'apps/v1', kind: 'Config', metadata: { name: 'x' } })!.message).toBe('invalid object type: apps/v1, Kind=Config');
    expect(tryApply({ apiVersion: 'a/b/c', kind: 'Config' })!.message).toBe('invalid object type: /, Kind=');
  });

  it('metadata.managedFields in the body: 400', () => {
    const e = tryApply({ apiVersion: 'v1', kind: 'Config', metadata: { name: 'x', managedFields: [] } })!;
    expect([e.code, e.message]).toEqual([400, 'metadata.managedFields must be nil']);
  });

  it('metadata.managedFields: null is accepted', () => {
    expect(tryApply({ apiVersion: 'v1', kind: 'Config', metadata: { name: 'x', managedFields: null } })).toBeUndefined();
  });
});

describe('decodeApplyBody', () => {
  it('accepts YAML and JSON objects', () => {
    expect(decodeApplyBody('apiVersion: v1\nkind: Config\ndata:\n  a: "1"\n')).toEqual({ apiVersion: 'v1', kind: 'Config', data: { a: '1' } });
    expect(decodeApplyBody('{"apiVersion":"v1","kind":"Config"}')).toEqual({ apiVersion: 'v1', kind: 'Config' });
  });

  it('reads YAML 1.1 as kube does (yes is a boolean)', () => {
    expect(decodeApplyBody('a: yes\nb: "yes"')).toEqual({ a: true, b: 'yes' });
  });

  it('an empty or null body is an empty object', () => {
    expect(decodeApplyBody('')).toEqual({});
    expect(decodeApplyBody('null')).toEqual({});
  });

  it('a body that is not an object: 400 with encoding/json’s text', () => {
    const cases: [string, string][] = [
      ['[1, 2]', 'array'],
      ['"text"', 'string'],
      ['42', 'number'],
      ['true', 'bool'],
    ];
    for (const [body, kind] of cases) {
      let err: unknown;
      try {
        decodeApplyBody(body);
      } catch (e) {
        err = e;
      }
      expect(isStatusError(err) && [err.code, err.message]).toEqual([400, `error decoding YAML: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`]);
    }
  });

  it('invalid YAML: 400', () => {
    let err: unknown;
    try {
      decodeApplyBody('a: [1, 2');
    } catch (e) {
      err = e;
    }
    expect(isStatusError(err) && err.code).toBe(400);
    expect(isStatusError(err) && err.message.startsWith('error decoding YAML: error converting YAML to JSON: yaml: ')).toBe(true);
  });
});
