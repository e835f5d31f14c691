// Rules checked: what kube-apiserver 1.32's PATCH handler answers for each
// patch type — the accepted Content-Types (415 otherwise, and for strategic
// merge patches of custom resources), 400 for bodies it cannot decode (with the
// decoder's text), the JSON patch limits (413), the generic 422 for a JSON
// patch that does not apply, and the status of each strategic merge patch error.

import { describe, expect, it } from 'vitest';
import { thrownBy } from '../util/testing/thrown';
import { StatusError, type Status } from '../errors/status';
import { builtinSchemaRef, getBuiltinSchemaTable } from '../schema/builtin-table';
import type { KubeObject } from '../kinds/types';
import { applyPatch, applyPatchDetailed, PatchApplyFailed, patchTypeFromContentType, type PatchKind } from './apply-patch';

const podSchema = { node: builtinSchemaRef('', 'v1', 'Pod'), table: getBuiltinSchemaTable() };

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'app:1' }] },
};

/** The 422 kube sends when a patch does not apply, without the library's text. */
const GENERIC_INVALID: Status = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server rejected our request due to an error in our request',
  reason: 'Invalid',
  details: {},
  code: 422,
};

/** The Status body a client would read for the error fn throws. */
function statusOf(fn: () => unknown): Status {
  return JSON.parse(JSON.stringify(thrownBy(fn, StatusError).status)) as Status;
}

const patch = (kind: PatchKind, body: string, options: Parameters<typeof applyPatch>[4] = {}) => () => applyPatch(kind, pod, body, podSchema, options);

describe('Content-Type', () => {
  it('accepts the four patch types, with parameters after ";"', () => {
    expect(patchTypeFromContentType('application/json-patch+json')).toBe('json');
    expect(patchTypeFromContentType('application/merge-patch+json; charset=utf-8')).toBe('merge');
    expect(patchTypeFromContentType('application/strategic-merge-patch+json')).toBe('strategic');
    expect(patchTypeFromContentType('application/apply-patch+yaml')).toBe('apply');
  });

  it('anything else is 415 listing the accepted types', () => {
    expect(statusOf(() => patchTypeFromContentType('application/json'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
      reason: 'UnsupportedMediaType',
      code: 415,
    });
    // Compared as sent: no trimming, no case folding.
    expect(statusOf(() => patchTypeFromContentType('Application/Merge-Patch+json')).code).toBe(415);
    expect(statusOf(() => patchTypeFromContentType(null)).code).toBe(415);
  });

  it('custom resources do not accept strategic merge patches (415)', () => {
    const expected = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      reason: 'UnsupportedMediaType',
      code: 415,
    };
    expect(statusOf(() => patchTypeFromContentType('application/strategic-merge-patch+json', { noStrategicMerge: true }))).toEqual(expected);
    expect(statusOf(patch('strategic', '{}', { noStrategicMerge: true }))).toEqual(expected);
    expect(statusOf(() => applyPatch('strategic', pod, '{}'))).toEqual(expected);
  });
});

describe('JSON patch', () => {
  it('applies operations', () => {
    expect(applyPatch('json', pod, '[{"op":"replace","path":"/spec/containers/0/image","value":"app:2"},{"op":"add","path":"/metadata/labels/x","value":"y"}]')).toEqual({
      ...pod,
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web', x: 'y' } },
      spec: { containers: [{ name: 'app', image: 'app:2' }] },
    });
  });

  it('a body that is not JSON is 400 with the decoder text (prefixed under Warn/Strict)', () => {
    expect(statusOf(patch('json', 'op: add'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "error decoding patch: invalid character 'o' looking for beginning of value",
      reason: 'BadRequest',
      code: 400,
    });
    expect(statusOf(patch('json', 'op: add', { fieldValidation: 'Ignore' })).message).toBe("invalid character 'o' looking for beginning of value");
  });

  it('a body that is not a list of operations is 400', () => {
    expect(statusOf(patch('json', '{"op":"add"}')).message).toBe('error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    expect(statusOf(patch('json', '{"op":"add"}', { fieldValidation: 'Ignore' })).message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(statusOf(patch('json', '[{"op":5}]')).message).toBe('error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string');
  });

  it('an operation that does not apply is the generic 422 (the library text is not sent)', () => {
    for (const body of ['[{"op":"remove","path":"/metadata/nope"}]', '[{"op":"test","path":"/metadata/name","value":"other"}]', '[{"op":"frob","path":"/a"}]']) {
      expect(statusOf(patch('json', body))).toEqual(GENERIC_INVALID);
    }
    try {
      patch('json', '[{"op":"remove","path":"/metadata/nope"}]')();
    } catch (e) {
      expect((e as PatchApplyFailed).libraryMessage).toBe("error in remove for path: '/metadata/nope': Unable to remove nonexistent key: nope: missing value");
    }
  });

  it('more than 10000 operations is 413', () => {
    const ops = JSON.stringify(Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'Pod' })));
    expect(statusOf(patch('json', ops))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
      reason: 'RequestEntityTooLarge',
      code: 413,
    });
    expect(applyPatch('json', pod, ops.replace(/^\[\{[^}]*\},/, '['))).toEqual(pod);
  });

  it('reports unknown and repeated members of operations as strict errors', () => {
    const result = applyPatchDetailed('json', pod, '[{"op":"add","path":"/metadata/labels/a","value":"b","Op":"x","path":"/metadata/labels/c"}]');
    expect(result.strictErrors).toEqual(['json patch unknown field "Op"', 'json patch duplicate field "path"']);
    // The library reads the last "path".
    expect(result.object.metadata?.labels).toEqual({ app: 'web', c: 'b' });
    expect(applyPatchDetailed('json', pod, '[{"op":"test","path":"/kind","value":"Pod","x":1}]', undefined, { fieldValidation: 'Ignore' }).strictErrors).toEqual([]);
  });

  it('a patched document that is not an object is a 422 on "patch"', () => {
    expect(statusOf(patch('json', '[{"op":"replace","path":"","value":["a<b"]}]'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        ' "" is invalid: patch: Invalid value: "[\\"a\\\\u003cb\\"]": couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
      reason: 'Invalid',
      details: {
        causes: [
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: "[\\"a\\\\u003cb\\"]": couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
            field: 'patch',
          },
        ],
      },
      code: 422,
    });
  });
});

describe('merge patch', () => {
  it('merges', () => {
    expect(applyPatch('merge', pod, '{"metadata":{"labels":{"app":null,"x":"y"}}}').metadata?.labels).toEqual({ x: 'y' });
  });

  it('a body that is not a JSON object is 400', () => {
    expect(statusOf(patch('merge', '{"a":')).message).toBe('error decoding patch: unexpected end of JSON input');
    expect(statusOf(patch('merge', '["a"]')).message).toBe('error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(statusOf(patch('merge', 'null'))).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Invalid JSON Patch', reason: 'BadRequest', code: 400 });
    expect(statusOf(patch('merge', '{"a":', { fieldValidation: 'Ignore' })).message).toBe('Invalid JSON Patch');
    expect(statusOf(patch('merge', '"x"', { fieldValidation: 'Ignore' })).message).toBe('Invalid JSON Patch');
  });

  it('under Ignore an array body replaces the object, which then cannot be decoded (422)', () => {
    expect(statusOf(patch('merge', '[1]', { fieldValidation: 'Ignore' })).code).toBe(422);
  });

  it('repeated keys are strict errors', () => {
    expect(applyPatchDetailed('merge', pod, '{"metadata":{"labels":{"a":"1","a":"2"}}}').strictErrors).toEqual(['duplicate field "a"']);
  });
});

describe('strategic merge patch', () => {
  it('merges containers by name', () => {
    expect(applyPatch('strategic', pod, '{"spec":{"containers":[{"name":"app","image":"app:2"}]}}', podSchema).spec).toEqual({ containers: [{ name: 'app', image: 'app:2' }] });
  });

  it('a body that is not a JSON object is 400 with the bare decoder text', () => {
    expect(statusOf(patch('strategic', 'spec: {}')).message).toBe("invalid character 's' looking for beginning of value");
    expect(statusOf(patch('strategic', '[]')).message).toBe('json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(applyPatch('strategic', pod, 'null', podSchema)).toEqual(pod);
  });

  it('a missing merge key is a 500 whose message is strategicpatch’s text', () => {
    expect(statusOf(patch('strategic', '{"spec":{"containers":[{"image":"nginx"}]}}'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'map: map[image:nginx] does not contain declared merge key: name',
      code: 500,
    });
  });

  it('malformed directives are 400; lists of lists are the generic 422', () => {
    expect(statusOf(patch('strategic', '{"metadata":{"$deleteFromPrimitiveList":["a"]}}'))).toMatchObject({ code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' });
    expect(statusOf(patch('strategic', '{"spec":{"$setElementOrder":[]}}'))).toMatchObject({ code: 400, message: 'invalid patch format of setElementOrder list' });
    expect(statusOf(patch('strategic', '{"metadata":{"$retainKeys":["name"],"labels":{"a":"b"}}}'))).toMatchObject({ code: 400, message: 'invalid patch format of retainKeys' });
    const withFinalizers = { ...pod, metadata: { ...pod.metadata, finalizers: ['a'] } };
    expect(statusOf(() => applyPatch('strategic', withFinalizers, '{"metadata":{"finalizers":[["b"]]}}', podSchema))).toMatchObject({
      code: 500,
      message: 'list element types are not identical: [[a] [[b]]]',
    });
    expect(statusOf(() => applyPatch('strategic', { ...pod, metadata: { ...pod.metadata, finalizers: [] } }, '{"metadata":{"finalizers":[["b"]]}}', podSchema))).toEqual(GENERIC_INVALID);
  });

  it('repeated keys are strict errors, not under Ignore', () => {
    expect(applyPatchDetailed('strategic', pod, '{"metadata":{"labels":{"a":"1","a":"2"}}}', podSchema).strictErrors).toEqual(['duplicate field "a"']);
    expect(applyPatchDetailed('strategic', pod, '{"metadata":{"labels":{"a":"1","a":"2"}}}', podSchema, { fieldValidation: 'Ignore' }).strictErrors).toEqual([]);
  });
});
