// A CRD's whole life as a client observes it: create → NamesAccepted and
// Established → discovery and OpenAPI list the resource → custom resources in
// every verb → delete the CRD → its objects are gone and the resource is 404.
// (Issue: "Custom resources"; apiextensions-apiserver 1.32 behaviour.)

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { createEstablished, CRDS, cronTab, cronTabCrd, eventually } from './fixtures';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

describe('a CRD once created', () => {
  it('is defaulted, has its status reset, and gets NamesAccepted and Established with kube reasons', async () => {
    const created = await t.post(CRDS, cronTabCrd());
    expect(created.status).toBe(201);
    // Defaults: conversion None, listKind, status reset with the storage version recorded.
    expect(created.body.spec.conversion).toEqual({ strategy: 'None' });
    expect(created.body.spec.names.listKind).toBe('CronTabList');
    expect(created.body.metadata.generation).toBe(1);
    expect(created.body.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    // A live CRD carries no finalizer: kube adds customresourcecleanup only when a delete starts.
    expect(created.body.metadata.finalizers).toBeUndefined();

    const crd = await eventually(async () => {
      const got = (await t.get(`${CRDS}/crontabs.stable.example.com`)).body;
      expect(got.status.conditions?.find((c: { type: string }) => c.type === 'Established')?.status).toBe('True');
      return got;
    });
    expect(crd.status.acceptedNames).toEqual({ plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList', categories: ['all'] });
    const conditions = crd.status.conditions.map((c: Record<string, string>) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));
    expect(conditions).toEqual([
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ]);
    expect(crd.status.conditions[0].lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('shows in discovery with its scope, short names, categories, verbs and subresources', async () => {
    await createEstablished(t, cronTabCrd(), CRONTABS);
    const groups = (await t.get('/apis')).body;
    expect(groups.groups).toContainEqual({
      name: 'stable.example.com',
      versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
    });
    // The storage version hash is computed in the background when the registry changes.
    const list = await eventually(async () => {
      const body = (await t.get('/apis/stable.example.com/v1')).body;
      expect(body.resources.find((r: { name: string }) => r.name === 'crontabs').storageVersionHash).toBeTypeOf('string');
      return body;
    });
    expect(list.kind).toBe('APIResourceList');
    const byName = Object.fromEntries(list.resources.map((r: { name: string }) => [r.name, r]));
    expect(byName['crontabs']).toMatchObject({
      name: 'crontabs',
      singularName: 'crontab',
      namespaced: true,
      kind: 'CronTab',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ct'],
      categories: ['all'],
    });
    expect(typeof byName['crontabs'].storageVersionHash).toBe('string');
    expect(byName['crontabs/status']).toEqual({ name: 'crontabs/status', singularName: '', namespaced: true, kind: 'CronTab', verbs: ['get', 'patch', 'update'] });
    expect(byName['crontabs/scale']).toEqual({
      name: 'crontabs/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    // The CRD resource itself, as a 1.32 server lists it.
    const ext = (await t.get('/apis/apiextensions.k8s.io/v1')).body.resources;
    expect(ext.find((r: { name: string }) => r.name === 'customresourcedefinitions')).toMatchObject({
      namespaced: false,
      kind: 'CustomResourceDefinition',
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
    });
  });

  it('serves its schema in /openapi/v3 so that kubectl explain works', async () => {
    await createEstablished(t, cronTabCrd(), CRONTABS);
    const index = (await t.get('/openapi/v3')).body;
    expect(Object.keys(index.paths)).toContain('apis/stable.example.com/v1');
    const doc = (await t.get('/openapi/v3/apis/stable.example.com/v1')).body;
    const schema = doc.components.schemas['com.example.stable.v1.CronTab'];
    expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    expect(schema.properties.spec.properties.replicas).toMatchObject({ type: 'integer', default: 1, minimum: 1, maximum: 10 });
  });

  it('publishes the descriptions the CRD\'s author wrote, in v3 and v2 (kubectl explain shows them)', async () => {
    const crd = cronTabCrd();
    const version = (crd.spec as { versions: { schema: { openAPIV3Schema: Record<string, any> } }[] }).versions[0]!; // eslint-disable-line @typescript-eslint/no-explicit-any
    const root = version.schema.openAPIV3Schema;
    root.description = 'CronTab runs an image on a schedule.';
    root.properties.spec.description = 'What the CronTab should do.';
    root.properties.spec.properties.replicas.description = 'How many copies run at once.';
    await createEstablished(t, crd, CRONTABS);
    const v3 = (await t.get('/openapi/v3/apis/stable.example.com/v1')).body.components.schemas['com.example.stable.v1.CronTab'];
    expect(v3.description).toBe('CronTab runs an image on a schedule.');
    expect(v3.properties.spec.description).toBe('What the CronTab should do.');
    expect(v3.properties.spec.properties.replicas.description).toBe('How many copies run at once.');
    const v2 = (await t.get('/openapi/v2')).body.definitions['com.example.stable.v1.CronTab'];
    expect(v2.properties.spec.properties.replicas.description).toBe('How many copies run at once.');
  });
});

describe('custom resources of an Established CRD', () => {
  beforeEach(async () => {
    await createEstablished(t, cronTabCrd(), CRONTABS);
  });

  it('are created, read, listed (also by short path) and deleted', async () => {
    const created = await t.post(CRONTABS, cronTab('my-new-cron-object'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'my-new-cron-object', namespace: 'default', generation: 1 },
      // replicas defaulted from the schema.
      spec: { cronSpec: '* * * * */5', image: 'my-cron-image', replicas: 1 },
    });
    const got = await t.get(`${CRONTABS}/my-new-cron-object`);
    expect(got.status).toBe(200);
    expect(got.body.spec.replicas).toBe(1);
    const list = await t.get(CRONTABS);
    expect(list.body.kind).toBe('CronTabList');
    expect(list.body.apiVersion).toBe('stable.example.com/v1');
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['my-new-cron-object']);
    const all = await t.get('/apis/stable.example.com/v1/crontabs');
    expect(all.body.items).toHaveLength(1);
    const deleted = await t.del(`${CRONTABS}/my-new-cron-object`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'my-new-cron-object', group: 'stable.example.com', kind: 'crontabs' } });
    expect((await t.get(`${CRONTABS}/my-new-cron-object`)).status).toBe(404);
  });

  it('are watched', async () => {
    const w = await t.watch(`${CRONTABS}?watch=true`);
    await t.post(CRONTABS, cronTab('w1'));
    const [added] = await w.next(1);
    expect(added!.type).toBe('ADDED');
    expect(added!.object).toMatchObject({ kind: 'CronTab', metadata: { name: 'w1' } });
    await t.del(`${CRONTABS}/w1`);
    const [gone] = await w.next(1);
    expect(gone!.type).toBe('DELETED');
    await w.cancel();
  });

  it('are patched with merge and JSON patches; a strategic merge patch is 415 with kube message', async () => {
    await t.post(CRONTABS, cronTab('p'));
    const merged = await t.patch(`${CRONTABS}/p`, { spec: { image: 'other' } }, 'application/merge-patch+json');
    expect(merged.status).toBe(200);
    expect(merged.body.spec.image).toBe('other');
    expect(merged.body.metadata.generation).toBe(2);
    const json = await t.patch(`${CRONTABS}/p`, [{ op: 'replace', path: '/spec/replicas', value: 3 }], 'application/json-patch+json');
    expect(json.status).toBe(200);
    expect(json.body.spec.replicas).toBe(3);
    const smp = await t.patch(`${CRONTABS}/p`, { spec: { image: 'x' } }, 'application/strategic-merge-patch+json');
    expect(smp.status).toBe(415);
    expect(smp.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('are filtered by field selector on metadata.name', async () => {
    await t.post(CRONTABS, cronTab('a'));
    await t.post(CRONTABS, cronTab('b'));
    const res = await t.get(`${CRONTABS}?fieldSelector=metadata.name%3Db`);
    expect(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['b']);
  });
});

describe('deleting a CRD', () => {
  it('goes Terminating, deletes its custom resources, then stops serving them', async () => {
    await createEstablished(t, cronTabCrd(), CRONTABS);
    await t.post(CRONTABS, cronTab('one'));
    await t.post('/apis/stable.example.com/v1/namespaces/kube-system/crontabs', { ...cronTab('two'), metadata: { name: 'two', namespace: 'kube-system' } });
    const res = await t.del(`${CRDS}/crontabs.stable.example.com`);
    expect(res.status).toBe(200);
    // The CRD comes back Terminating (kube answers with the object while finalization runs).
    expect(res.body.kind).toBe('CustomResourceDefinition');
    expect(res.body.metadata.deletionTimestamp).toBeTruthy();
    const terminating = res.body.status.conditions.find((c: { type: string }) => c.type === 'Terminating');
    expect(terminating).toMatchObject({
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    await eventually(async () => expect((await t.get(`${CRDS}/crontabs.stable.example.com`)).status).toBe(404));
    expect((await t.get(CRONTABS)).status).toBe(404);
    expect((await t.get('/apis/stable.example.com/v1')).status).toBe(404);
    const groups = (await t.get('/apis')).body.groups.map((g: { name: string }) => g.name);
    expect(groups).not.toContain('stable.example.com');

    // Recreating the CRD does not bring the old objects back: they were deleted.
    await createEstablished(t, cronTabCrd(), CRONTABS);
    expect((await t.get(CRONTABS)).body.items).toEqual([]);
    expect((await t.get('/apis/stable.example.com/v1/crontabs')).body.items).toEqual([]);
  });

  it('waits for custom resources with finalizers', async () => {
    await createEstablished(t, cronTabCrd(), CRONTABS);
    await t.post(CRONTABS, { ...cronTab('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    await t.del(`${CRDS}/crontabs.stable.example.com`);
    const progress = await eventually(async () => {
      const got = (await t.get(`${CRDS}/crontabs.stable.example.com`)).body;
      const c = got.status.conditions.find((x: { type: string }) => x.type === 'Terminating');
      expect(c.reason).toBe('InstanceDeletionInProgress');
      return c;
    });
    expect(progress).toMatchObject({ status: 'True', message: 'CustomResource deletion is in progress' });
    // The held object becomes Terminating, still served (the controller deletes the instances after it
    // records the condition, as kube's finalizer controller does); creates are refused while the CRD terminates.
    await eventually(async () => expect((await t.get(`${CRONTABS}/held`)).body.metadata.deletionTimestamp).toBeTruthy());
    const refused = await t.post(CRONTABS, cronTab('late'));
    expect(refused.status).toBe(405);
    expect(refused.body).toMatchObject({ reason: 'MethodNotAllowed', message: 'create not allowed while custom resource definition is terminating' });
    // Releasing the finalizer lets the CRD go.
    await t.patch(`${CRONTABS}/held`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    await eventually(async () => expect((await t.get(`${CRDS}/crontabs.stable.example.com`)).status).toBe(404));
    expect((await t.get(CRONTABS)).status).toBe(404);
  });
});

describe('a server starting on a store that already has CRDs', () => {
  it('serves their custom resources without any new write', async () => {
    const { openStore } = await import('../../storage/mvcc-store');
    const { createApiServer } = await import('../../server');
    const { manualClock } = await import('../../clock');
    const clock = manualClock();
    const store = await openStore({ clock });
    const first = await createApiServer({ store, clock, host: 'node', controllers: [] });
    const send = (server: typeof first, method: string, path: string, body?: unknown) =>
      server.handle(new Request(`http://kubetab.test${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
    await eventually(async () => expect((await send(first, 'GET', '/api/v1/namespaces/default')).status).toBe(200));
    expect((await send(first, 'POST', CRDS, cronTabCrd())).status).toBe(201);
    await eventually(async () => expect((await send(first, 'GET', CRONTABS)).status).toBe(200));
    expect((await send(first, 'POST', CRONTABS, cronTab('kept'))).status).toBe(201);
    const revision = store.currentRevision();

    const second = await createApiServer({ store, clock, host: 'node', controllers: [] });
    const got = await eventually(async () => {
      const res = await send(second, 'GET', `${CRONTABS}/kept`);
      expect(res.status).toBe(200);
      return (await res.json()) as { spec: { cronSpec: string } };
    });
    expect(got.spec.cronSpec).toBe('* * * * */5');
    // Nothing was rewritten: the CRD's status was already complete.
    expect(store.currentRevision()).toBe(revision);
    await second.close();
  });
});
