// list: read semantics (the specification's list table), paging with
// continue tokens, selectors, Table output.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const names = (res: { body: { items: { metadata: { name: string } }[] } }) => res.body.items.map((i) => i.metadata.name);

async function seed(n: number): Promise<string[]> {
  const rvs: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i).padStart(2, '0')}`, labels: { idx: String(i % 2) } } });
    rvs.push(res.body.metadata.resourceVersion);
  }
  return rvs;
}

describe('list', () => {
  it('returns a ConfigMapList at the current revision', async () => {
    await seed(3);
    const res = await t.get(CM);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('ConfigMapList');
    expect(res.body.apiVersion).toBe('v1');
    expect(names(res)).toEqual(['cm-00', 'cm-01', 'cm-02']);
    expect(res.body.metadata.continue).toBeUndefined();
    expect(res.body.metadata.remainingItemCount).toBeUndefined();
  });

  it('lists across namespaces on the cluster path', async () => {
    await seed(1);
    await t.post('/api/v1/namespaces/kube-system/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sys' } });
    const res = await t.get('/api/v1/configmaps');
    expect(names(res)).toEqual(expect.arrayContaining(['cm-00', 'sys']));
  });

  it('resourceVersionMatch=Exact reads the collection as it was (rv = the request\'s)', async () => {
    const rvs = await seed(3);
    const res = await t.get(`${CM}?resourceVersion=${rvs[1]}&resourceVersionMatch=Exact`);
    expect(res.status).toBe(200);
    expect(res.body.metadata.resourceVersion).toBe(rvs[1]);
    expect(names(res)).toEqual(['cm-00', 'cm-01']);
  });

  it('rv with a limit and no match is Exact; without a limit it is NotOlderThan', async () => {
    const rvs = await seed(3);
    const exact = await t.get(`${CM}?resourceVersion=${rvs[0]}&limit=10`);
    expect(names(exact)).toEqual(['cm-00']);
    const notOlder = await t.get(`${CM}?resourceVersion=${rvs[0]}`);
    expect(names(notOlder)).toEqual(['cm-00', 'cm-01', 'cm-02']);
  });

  it('an Exact version older than the retained history is 410 Expired', async () => {
    const rvs = await seed(2);
    t.clock.advance(6 * 60_000);
    await seed(0);
    await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' } });
    const res = await t.get(`${CM}?resourceVersion=${rvs[0]}&resourceVersionMatch=Exact`);
    expect(res.status).toBe(410);
    expect(res.body.reason).toBe('Expired');
    expect(res.body.message).toBe('The resourceVersion for the provided list is too old.');
  });

  it('refuses invalid combinations as kube-apiserver does (422 ListOptions)', async () => {
    const noRv = await t.get(`${CM}?resourceVersionMatch=Exact`);
    expect(noRv.status).toBe(422);
    expect(noRv.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
    const exactZero = await t.get(`${CM}?resourceVersion=0&resourceVersionMatch=Exact`);
    expect(exactZero.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    const unknown = await t.get(`${CM}?resourceVersion=1&resourceVersionMatch=Sometime`);
    expect(unknown.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Sometime": supported values: "Exact", "NotOlderThan", ""');
    const initial = await t.get(`${CM}?sendInitialEvents=true`);
    expect(initial.status).toBe(422);
    expect(initial.body.details.causes[0]).toEqual({ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents is forbidden for list', field: 'sendInitialEvents' });
  });

  it('refuses a non-numeric resourceVersion with 400', async () => {
    const res = await t.get(`${CM}?resourceVersion=abc`);
    expect(res.status).toBe(400);
  });
});

describe('paging', () => {
  it('chunks share the first chunk\'s revision and snapshot; remainingItemCount counts down', async () => {
    await seed(5);
    const first = await t.get(`${CM}?limit=2`);
    expect(names(first)).toEqual(['cm-00', 'cm-01']);
    expect(first.body.metadata.remainingItemCount).toBe(3);
    const rv = first.body.metadata.resourceVersion;
    // A write between chunks is not seen by the paged list.
    await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-99' } });
    await t.del(`${CM}/cm-03`);
    const second = await t.get(`${CM}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    expect(second.body.metadata.resourceVersion).toBe(rv);
    expect(names(second)).toEqual(['cm-02', 'cm-03']);
    expect(second.body.metadata.remainingItemCount).toBe(1);
    const third = await t.get(`${CM}?limit=2&continue=${encodeURIComponent(second.body.metadata.continue)}`);
    expect(names(third)).toEqual(['cm-04']);
    expect(third.body.metadata.continue).toBeUndefined();
    expect(third.body.metadata.remainingItemCount).toBeUndefined();
  });

  it('omits remainingItemCount with a selector', async () => {
    await seed(6);
    const res = await t.get(`${CM}?limit=1&labelSelector=idx%3D1`);
    expect(names(res)).toEqual(['cm-01']);
    expect(res.body.metadata.continue).toBeTruthy();
    expect(res.body.metadata.remainingItemCount).toBeUndefined();
  });

  it('a garbled token, or one from another resource, is 400', async () => {
    await seed(3);
    const garbled = await t.get(`${CM}?limit=1&continue=!!!`);
    expect(garbled.status).toBe(400);
    expect(garbled.body.message).toMatch(/^invalid continue token: /);
    await t.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } });
    await t.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' } });
    const secrets = await t.get('/api/v1/namespaces/default/secrets?limit=1');
    const foreign = await t.get(`${CM}?limit=1&continue=${encodeURIComponent(secrets.body.metadata.continue)}`);
    expect(foreign.status).toBe(400);
  });

  it('a continue token with a resourceVersion is 400', async () => {
    await seed(3);
    const first = await t.get(`${CM}?limit=1`);
    const res = await t.get(`${CM}?limit=1&resourceVersion=5&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('specifying resource version is not allowed when using continue');
  });

  it('an expired token is 410 with a token to continue inconsistently', async () => {
    await seed(3);
    const first = await t.get(`${CM}?limit=1`);
    // History is kept for 5 minutes: a change made after the first chunk ages out, and with it the chunk's snapshot.
    await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } });
    t.clock.advance(6 * 60_000);
    await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' } });
    const expired = await t.get(`${CM}?limit=1&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    expect(expired.status).toBe(410);
    expect(expired.body.reason).toBe('Expired');
    expect(expired.body.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
    const resume = await t.get(`${CM}?limit=10&continue=${encodeURIComponent(expired.body.metadata.continue)}`);
    expect(resume.status).toBe(200);
    // Continuing inconsistently: the current state after the last key of the first chunk.
    expect(names(resume)).toEqual(['cm-01', 'cm-02', 'later']);
  });
});

describe('selectors', () => {
  it('filters by label and field selectors', async () => {
    await seed(4);
    expect(names(await t.get(`${CM}?labelSelector=idx%20in%20(1)`))).toEqual(['cm-01', 'cm-03']);
    expect(names(await t.get(`${CM}?labelSelector=idx!%3D1`))).toEqual(['cm-00', 'cm-02']);
    expect(names(await t.get(`${CM}?fieldSelector=metadata.name%3Dcm-02`))).toEqual(['cm-02']);
  });

  it('malformed and unsupported selectors are 400, never ignored', async () => {
    const label = await t.get(`${CM}?labelSelector=a%3D%3D%3Db`);
    expect(label.status).toBe(400);
    const field = await t.get(`${CM}?fieldSelector=spec.foo%3Dbar`);
    expect(field.status).toBe(400);
    expect(field.body.message).toBe('"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });
});

describe('Table', () => {
  it('serves the default columns for kinds without their own printer', async () => {
    await t.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    const res = await t.get(CM.replace('configmaps', 'secrets'), { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json;as=Table;g=meta.k8s.io;v=v1');
    expect(res.body.kind).toBe('Table');
    expect(res.body.rows[0].object.kind).toBe('PartialObjectMetadata');
  });
});

describe('PartialObjectMetadataList', () => {
  it('reduces each item to its metadata and names its kind, as kube sets each item\'s TypeMeta', async () => {
    await seed(2);
    const res = await t.get(CM, { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1');
    expect([res.body.apiVersion, res.body.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadataList']);
    expect(res.body.items.map((i: Record<string, unknown>) => Object.keys(i))).toEqual([
      ['kind', 'apiVersion', 'metadata'],
      ['kind', 'apiVersion', 'metadata'],
    ]);
    expect(res.body.items[0]).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'cm-00', labels: { idx: '0' } } });
  });
});
