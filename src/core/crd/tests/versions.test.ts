// Several versions (conversion strategy None: only apiVersion changes),
// cluster scope, and selectableFields as field selectors (GA in 1.32).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { createEstablished, cronTabCrd } from './fixtures';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const schema = (extra: Record<string, unknown> = {}) => ({
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' }, on: { type: 'boolean' }, ...extra } } },
  },
});

function widgetCrd(): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.toys.example.com' },
    spec: {
      group: 'toys.example.com',
      scope: 'Cluster',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        // Schemas differ per version, so each version keeps its own (selectableFields need their version's schema).
        { name: 'v1beta1', served: true, storage: false, schema: schema({ legacy: { type: 'string' } }) },
        { name: 'v1', served: true, storage: true, schema: schema(), selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }] },
        { name: 'v1alpha1', served: false, storage: false, schema: schema({ old: { type: 'string' } }) },
      ],
    },
  };
}

describe('a CRD with several versions', () => {
  it('whose versions share one schema may not give selectableFields to only some of them (kube validates them against the per-version schema, which was lifted)', async () => {
    const crd = widgetCrd() as { spec: { versions: { schema: unknown }[] } };
    for (const v of crd.spec.versions) v.schema = schema();
    const res = await t.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "widgets.toys.example.com" is invalid: spec.versions[1].selectableFields: Invalid value: "": selectableFields may only be set when version.schema.openAPIV3Schema is not included',
    );
  });

  it('serves the served ones, v1 preferred; an object reads the same in each version', async () => {
    await createEstablished(t, widgetCrd(), '/apis/toys.example.com/v1/widgets');
    const group = (await t.get('/apis/toys.example.com')).body;
    expect(group.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1beta1']);
    expect(group.preferredVersion.version).toBe('v1');
    expect((await t.get('/apis/toys.example.com/v1alpha1/widgets')).status).toBe(404);

    const created = await t.post('/apis/toys.example.com/v1beta1/widgets', { apiVersion: 'toys.example.com/v1beta1', kind: 'Widget', metadata: { name: 'w' }, spec: { color: 'red' } });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('toys.example.com/v1beta1');
    expect(created.body.metadata.namespace).toBeUndefined();
    const v1 = (await t.get('/apis/toys.example.com/v1/widgets/w')).body;
    expect(v1.apiVersion).toBe('toys.example.com/v1');
    expect(v1.spec).toEqual({ color: 'red' });
    const list = (await t.get('/apis/toys.example.com/v1beta1/widgets')).body;
    expect(list.items[0].apiVersion).toBe('toys.example.com/v1beta1');
  });

  it('a body of another version of the CRD is refused at an endpoint', async () => {
    await createEstablished(t, widgetCrd(), '/apis/toys.example.com/v1/widgets');
    const res = await t.post('/apis/toys.example.com/v1/widgets', { apiVersion: 'toys.example.com/v1beta1', kind: 'Widget', metadata: { name: 'w' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('the API version in the data (toys.example.com/v1beta1) does not match the expected API version (toys.example.com/v1)');
  });

  it('selectableFields work as field selectors on the versions that declare them', async () => {
    await createEstablished(t, widgetCrd(), '/apis/toys.example.com/v1/widgets');
    const make = (name: string, spec: Record<string, unknown>) =>
      t.post('/apis/toys.example.com/v1/widgets', { apiVersion: 'toys.example.com/v1', kind: 'Widget', metadata: { name }, spec });
    await make('a', { color: 'red', size: 1 });
    await make('b', { color: 'blue', size: 2 });
    await make('c', { size: 2 });
    const names = async (path: string) => (await t.get(path)).body.items?.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(await names('/apis/toys.example.com/v1/widgets?fieldSelector=spec.color%3Dred')).toEqual(['a']);
    expect(await names('/apis/toys.example.com/v1/widgets?fieldSelector=spec.size%3D2')).toEqual(['b', 'c']);
    expect(await names('/apis/toys.example.com/v1/widgets?fieldSelector=spec.color!%3Dred')).toEqual(['b', 'c']);
    // v1beta1 declares none: only metadata fields are known there.
    const bad = await t.get('/apis/toys.example.com/v1beta1/widgets?fieldSelector=spec.color%3Dred');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('"spec.color" is not a known field selector');
  });
});

describe('a cluster-scoped CRD', () => {
  it('is listed as not namespaced and serves its objects without a namespace', async () => {
    const crd = cronTabCrd({ scope: 'Cluster' });
    await createEstablished(t, crd, '/apis/stable.example.com/v1/crontabs');
    const list = (await t.get('/apis/stable.example.com/v1')).body.resources;
    expect(list.find((r: { name: string }) => r.name === 'crontabs').namespaced).toBe(false);
    const created = await t.post('/apis/stable.example.com/v1/crontabs', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c' }, spec: { cronSpec: '* * * * *' } });
    expect(created.status).toBe(201);
    expect(created.body.metadata.namespace).toBeUndefined();
  });
});
