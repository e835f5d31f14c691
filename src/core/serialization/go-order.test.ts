// goOrdered / isInGoOrder: the key order encoding/json gives kube's typed
// objects (struct declaration order, map keys sorted) and unstructured ones
// (all keys sorted). Expected orders are taken from the Go structs in
// k8s.io/api and k8s.io/apimachinery (types.go), cited per case.

import { describe, expect, it } from 'vitest';
import { goOrdered, inGoOrder, isInGoOrder, sortedDeep } from './go-order';

type Json = Record<string, unknown>;
const keys = (v: unknown): string[] => Object.keys(v as Json);

describe('built-in kinds', () => {
  it('TypeMeta first, then the struct: Secret is kind, apiVersion, metadata, immutable, data, stringData, type', () => {
    const secret = { type: 'Opaque', stringData: { b: '1', a: '2' }, data: { z: 'eA==', y: 'eQ==' }, immutable: true, metadata: { name: 's' }, apiVersion: 'v1', kind: 'Secret' };
    const out = goOrdered(secret, { apiVersion: 'v1', kind: 'Secret' });
    expect(keys(out)).toEqual(['kind', 'apiVersion', 'metadata', 'immutable', 'data', 'stringData', 'type']);
    expect(keys(out.data)).toEqual(['y', 'z']);
    expect(keys(out.stringData)).toEqual(['a', 'b']);
    // The argument is left as it was.
    expect(keys(secret)[0]).toBe('type');
  });

  it('a struct with its own kind/apiVersion fields keeps them where it declares them (OwnerReference: apiVersion, kind, name, uid, controller, blockOwnerDeletion)', () => {
    const cm = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { ownerReferences: [{ blockOwnerDeletion: true, controller: true, uid: 'u', name: 'n', kind: 'Deployment', apiVersion: 'apps/v1' }], name: 'c' },
    };
    const out = goOrdered(cm, { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(keys((out.metadata.ownerReferences as Json[])[0])).toEqual([
      'apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion',
    ]);
  });

  it('fields added later sit where the struct declares them, not by number (SubjectAccessReviewStatus: allowed, denied, reason, evaluationError)', () => {
    const sar = { status: { evaluationError: 'e', reason: 'r', denied: true, allowed: false }, spec: { user: 'u' }, metadata: {}, apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview' };
    const out = goOrdered(sar, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview' });
    expect(keys(out)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(keys(out.status)).toEqual(['allowed', 'denied', 'reason', 'evaluationError']);
  });

  it('inline structs put their fields at their place: Volume is name + VolumeSource, Probe is ProbeHandler then its timings', () => {
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      spec: {
        containers: [{ readinessProbe: { periodSeconds: 5, httpGet: { scheme: 'HTTP', port: 80, path: '/' }, initialDelaySeconds: 1 }, name: 'c' }],
        volumes: [{ emptyDir: {}, name: 'v' }],
      },
    };
    const out = goOrdered(pod, { apiVersion: 'v1', kind: 'Pod' });
    expect(keys(out.spec)).toEqual(['volumes', 'containers']);
    expect(keys(out.spec.volumes[0])).toEqual(['name', 'emptyDir']);
    const probe = out.spec.containers[0]!.readinessProbe;
    expect(keys(probe)).toEqual(['httpGet', 'initialDelaySeconds', 'periodSeconds']);
    // HTTPGetAction: path, port, host, scheme, httpHeaders.
    expect(keys(probe.httpGet)).toEqual(['path', 'port', 'scheme']);
  });

  it('lists: kind, apiVersion, metadata, items, each item in its struct order', () => {
    const list = { items: [{ data: { b: '1', a: '2' }, metadata: { name: 'x' } }], metadata: { resourceVersion: '5' }, apiVersion: 'v1', kind: 'ConfigMapList' };
    const out = goOrdered(list, { apiVersion: 'v1', kind: 'ConfigMapList' });
    expect(keys(out)).toEqual(['kind', 'apiVersion', 'metadata', 'items']);
    expect(keys(out.items[0])).toEqual(['metadata', 'data']);
    expect(keys(out.items[0]!.data)).toEqual(['a', 'b']);
  });

  it('a map of named slices (UserInfo.extra: map[string]ExtraValue) has its keys sorted and its arrays kept', () => {
    const tr = { status: { user: { extra: { 'z.io/b': ['2', '1'], 'a.io/a': ['x'] }, groups: ['g'], uid: 'u', username: 'n' }, authenticated: true }, apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview' };
    const out = goOrdered(tr, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview' });
    // TokenReviewStatus: authenticated, user, audiences, error; UserInfo: username, uid, groups, extra.
    expect(keys(out.status)).toEqual(['authenticated', 'user']);
    expect(keys(out.status.user)).toEqual(['username', 'uid', 'groups', 'extra']);
    expect(out.status.user.extra).toEqual({ 'a.io/a': ['x'], 'z.io/b': ['2', '1'] });
    expect(keys(out.status.user.extra)).toEqual(['a.io/a', 'z.io/b']);
  });

  it('RawExtension keeps the JSON it was given (ControllerRevision.data), FieldsV1 keeps structured-merge-diff\'s order', () => {
    const rev = {
      revision: 1,
      data: { spec: { z: 1, a: 2 }, apiVersion: 'x' },
      metadata: { managedFields: [{ fieldsV1: { 'f:metadata': {}, '.': {} }, fieldsType: 'FieldsV1', manager: 'm' }], name: 'r' },
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
    };
    const out = goOrdered(rev, { apiVersion: 'apps/v1', kind: 'ControllerRevision' });
    expect(keys(out)).toEqual(['kind', 'apiVersion', 'metadata', 'data', 'revision']);
    expect(out.data).toBe(rev.data);
    const entry = (out.metadata.managedFields as Json[])[0]!;
    expect(keys(entry)).toEqual(['manager', 'fieldsType', 'fieldsV1']);
    expect(keys(entry['fieldsV1'])).toEqual(['f:metadata', '.']);
  });

  it('a CRD\'s schema: JSONSchemaProps in struct order, properties sorted, default/example re-marshaled by kube (sorted), items and additionalProperties unions', () => {
    const crd = {
      kind: 'CustomResourceDefinition',
      apiVersion: 'apiextensions.k8s.io/v1',
      spec: {
        versions: [
          {
            schema: {
              openAPIV3Schema: {
                properties: {
                  spec: {
                    default: { z: 1, a: { y: 2, b: 3 } },
                    type: 'object',
                    properties: { list: { items: { type: 'string', minLength: 1 }, type: 'array' }, map: { additionalProperties: { type: 'string' }, type: 'object' } },
                  },
                  flag: { additionalProperties: false, type: 'object' },
                },
                type: 'object',
              },
            },
            storage: true,
            served: true,
            name: 'v1',
          },
        ],
        scope: 'Namespaced',
        group: 'g',
      },
    };
    const out = goOrdered(crd, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' });
    expect(keys(out.spec)).toEqual(['group', 'scope', 'versions']);
    const version = out.spec.versions[0]!;
    expect(keys(version)).toEqual(['name', 'served', 'storage', 'schema']);
    const root = version.schema.openAPIV3Schema as Json;
    expect(keys(root)).toEqual(['type', 'properties']);
    expect(keys(root['properties'])).toEqual(['flag', 'spec']);
    const spec = (root['properties'] as Json)['spec'] as Json;
    // JSONSchemaProps: id, $schema, $ref, description, type, format, title, default, …, properties, additionalProperties, …
    expect(keys(spec)).toEqual(['type', 'default', 'properties']);
    expect(JSON.stringify(spec['default'])).toBe('{"a":{"b":3,"y":2},"z":1}');
    const props = spec['properties'] as Record<string, Json>;
    expect(keys(props['list'])).toEqual(['type', 'items']);
    expect(keys(props['list']!['items'])).toEqual(['type', 'minLength']);
    expect(keys(props['map'])).toEqual(['type', 'additionalProperties']);
    expect(((root['properties'] as Json)['flag'] as Json)['additionalProperties']).toBe(false);
  });

  it('keys the struct does not have stay, after its fields', () => {
    const out = goOrdered({ zzz: 1, data: { a: '1' }, metadata: { name: 'x' } }, { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(keys(out)).toEqual(['metadata', 'data', 'zzz']);
  });

  it('a kind without a known message is left as it is', () => {
    const obj = { b: 1, a: 2 };
    expect(goOrdered(obj, { apiVersion: 'example.com/v1', kind: 'Nothing' })).toBe(obj);
  });
});

describe('custom resources (unstructured)', () => {
  it('every object\'s keys sorted by their bytes at every level; arrays keep their order', () => {
    const cr = { spec: { list: [{ z: 1, a: 2 }, 'x'], B: 1, a: 2 }, metadata: { uid: 'u', name: 'n' }, kind: 'K', apiVersion: 'g/v1' };
    const out = goOrdered(cr, { custom: true });
    expect(JSON.stringify(out)).toBe('{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","uid":"u"},"spec":{"B":1,"a":2,"list":[{"a":2,"z":1},"x"]}}');
    expect(sortedDeep([{ b: 1, a: 1 }])).toEqual([{ a: 1, b: 1 }]);
  });
});

describe('checking', () => {
  it('isInGoOrder tells an ordered object from one that is not, at any depth', () => {
    const of = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
    expect(isInGoOrder({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', labels: { a: '1', b: '2' } }, data: { x: '1' } }, of)).toBe(true);
    expect(isInGoOrder({ apiVersion: 'v1', kind: 'ConfigMap' }, of)).toBe(false);
    expect(isInGoOrder({ data: {}, metadata: {} }, of)).toBe(false);
    expect(isInGoOrder({ metadata: { labels: { b: '1', a: '2' } } }, of)).toBe(false);
    expect(isInGoOrder({ metadata: { namespace: 'd', name: 'a' } }, of)).toBe(false);
    expect(isInGoOrder({ spec: { b: 1, a: 1 } }, { custom: true })).toBe(false);
    expect(isInGoOrder({ spec: { a: 1, b: [{ a: 1, c: 2 }] } }, { custom: true })).toBe(true);
  });

  it('inGoOrder returns the object itself when it is in order, an ordered copy otherwise', () => {
    const of = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
    const ordered = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' }, data: { a: '1' } };
    expect(inGoOrder(ordered, of)).toBe(ordered);
    const unordered = { data: { a: '1' }, metadata: { name: 'a' } };
    const copy = inGoOrder(unordered, of);
    expect(copy).not.toBe(unordered);
    expect(keys(copy)).toEqual(['metadata', 'data']);
  });
});
