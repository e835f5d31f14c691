// The 400 BadRequest a create or update answers for a body it cannot decode,
// with kube-apiserver's texts (transformDecodeError over the JSON/YAML
// serializer's errors), and what decoding gives strict field validation.

import { describe, expect, it } from 'vitest';
import { StatusError } from '../../errors/status';
import { decodeBody, decodeErrorStatus, decodeObjectBody, interpretTypeMeta, summarizeBody } from './index';

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof StatusError) {
      expect(err.code).toBe(400);
      expect(err.status.reason).toBe('BadRequest');
      return err.status.message!;
    }
    throw err;
  }
  throw new Error('expected a 400');
}

describe('create/update bodies', () => {
  it('a JSON body that is cut off', () => {
    expect(messageOf(() => decodeObjectBody('{"apiVersion":"v1","kind":"Pod"', 'application/json', 'Pod'))).toBe(
      'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Pod ...)',
    );
  });

  it('a body that is not JSON at all: the summary is hex', () => {
    expect(messageOf(() => decodeObjectBody('hello', 'application/json', 'ConfigMap'))).toBe(
      "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'h' looking for beginning of value (68656c6c6f)",
    );
  });

  it('an empty body', () => {
    expect(messageOf(() => decodeObjectBody('', 'application/json', 'Pod'))).toBe(
      "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
    );
  });

  it('a JSON array, and an apiVersion that is not a string', () => {
    expect(messageOf(() => decodeObjectBody('[]', 'application/json', 'Pod'))).toBe(
      'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b5d)',
    );
    expect(messageOf(() => decodeObjectBody('{"apiVersion":1}', 'application/json', 'Pod'))).toBe(
      'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string ({"apiVersion":1})',
    );
  });

  it('an apiVersion with two slashes', () => {
    expect(messageOf(() => decodeObjectBody('{"apiVersion":"a/b/c","kind":"Pod"}', 'application/json', 'Pod'))).toBe(
      'the object provided is unrecognized (must be of type Pod): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c","kind":" ...)',
    );
  });

  it('a YAML syntax error carries go-yaml\'s text and a hex summary of the YAML', () => {
    expect(messageOf(() => decodeObjectBody('a: b: c\n', 'application/yaml', 'Pod'))).toBe(
      'the object provided is unrecognized (must be of type Pod): yaml: line 1: mapping values are not allowed in this context (613a20623a20630a)',
    );
  });

  it('a good body gives the object, its type meta, and strict-decoding findings', () => {
    const d = decodeObjectBody('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  name: b\n', 'application/yaml', 'Deployment');
    expect(d.typeMeta).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', group: 'apps', version: 'v1' });
    expect(d.object).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'b' } });
    expect(d.strictErrors).toEqual(['yaml: unmarshal errors:\n  line 5: key "name" already set in map']);
    const j = decodeObjectBody('{"kind":"Pod","metadata":{"name":"a","name":"b"}}', 'application/json', 'Pod');
    expect(j.strictErrors).toEqual(['duplicate field "metadata.name"']);
    expect(j.typeMeta.version).toBe('');
  });

  it('a null body is an empty object', () => {
    expect(decodeObjectBody('null', 'application/json', 'Pod').object).toEqual({});
  });
});

describe('helpers', () => {
  it('interpretTypeMeta matches field names case-insensitively, as encoding/json does', () => {
    expect(interpretTypeMeta({ APIVERSION: 'v1', Kind: 'Pod' })).toMatchObject({ apiVersion: 'v1', kind: 'Pod', version: 'v1' });
    expect(interpretTypeMeta({ apiVersion: '/' })).toMatchObject({ group: '', version: '' });
  });

  it('summarizeBody: text for "{", hex otherwise, " ..." past 30 bytes', () => {
    expect(summarizeBody('{"a":1}')).toBe('{"a":1}');
    expect(summarizeBody(`{"${'x'.repeat(40)}"}`)).toBe(`{"${'x'.repeat(28)} ...`);
    expect(summarizeBody('ab')).toBe('6162');
  });

  it('decodeErrorStatus: a body that named its kind', () => {
    expect(
      decodeErrorStatus('json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container', {
        targetKind: 'Pod',
        body: '{}',
        bodyKind: { kind: 'Pod', version: 'v1' },
      }).status.message,
    ).toBe('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container');
  });

  it('decodeBody for patches: plain values, any top-level type', () => {
    expect(decodeBody('[{"op":"add","path":"/a","value":1}]', 'application/json').value).toEqual([{ op: 'add', path: '/a', value: 1 }]);
  });
});
