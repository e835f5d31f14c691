import { describe, expect, it } from 'vitest';
import { formatPath, parseFieldsV1Key, parsePathString, resolvePath } from './field-path';

describe('field paths of structured-merge-diff', () => {
  it('decodes fieldsV1 keys: f:, k:{…}, v:, i:', () => {
    expect(parseFieldsV1Key('f:metadata')).toEqual({ field: 'metadata' });
    expect(parseFieldsV1Key('k:{"containerPort":80,"protocol":"TCP"}')).toEqual({ key: { containerPort: 80, protocol: 'TCP' } });
    expect(parseFieldsV1Key('v:"example.com/finalizer"')).toEqual({ value: 'example.com/finalizer' });
    expect(parseFieldsV1Key('i:2')).toEqual({ index: 2 });
    expect(parseFieldsV1Key('x:nope')).toBeNull();
  });

  it('parses conflict path strings, keys with JSON values and set values', () => {
    expect(parsePathString('.spec.replicas')).toEqual([{ field: 'spec' }, { field: 'replicas' }]);
    expect(parsePathString('.spec.containers[name="a]b"].image')).toEqual([{ field: 'spec' }, { field: 'containers' }, { key: { name: 'a]b' } }, { field: 'image' }]);
    expect(parsePathString('.ports[containerPort=80,protocol="TCP"]')).toEqual([{ field: 'ports' }, { key: { containerPort: 80, protocol: 'TCP' } }]);
    expect(parsePathString('.metadata.finalizers[="a"]')).toEqual([{ field: 'metadata' }, { field: 'finalizers' }, { value: 'a' }]);
    expect(parsePathString('.args[1]')).toEqual([{ field: 'args' }, { index: 1 }]);
  });

  it('formats back to the spelling the server uses', () => {
    const text = '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"]';
    expect(formatPath(parsePathString(text))).toBe(text);
  });

  it('resolves keyed list items, set values and positions into an object', () => {
    const object = { spec: { containers: [{ name: 'a' }, { name: 'b', image: 'x' }] }, metadata: { finalizers: ['f1', 'f2'] } };
    expect(resolvePath(object, parsePathString('.spec.containers[name="b"].image'))).toEqual(['spec', 'containers', 1, 'image']);
    expect(resolvePath(object, parsePathString('.metadata.finalizers[="f2"]'))).toEqual(['metadata', 'finalizers', 1]);
    // An item that is not there: no concrete path.
    expect(resolvePath(object, parsePathString('.spec.containers[name="z"]'))).toBeNull();
  });
});
