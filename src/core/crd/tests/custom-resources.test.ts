// Custom resources against their CRD's schema, as a client of a 1.32 server
// observes them: 422 with kube-openapi's messages (converted to field errors
// the way apiextensions does), pruning and fieldValidation, schema defaults,
// the CRD codec's 400s, the status and scale subresources, metadata.generation
// and the Table built from additionalPrinterColumns.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { createEstablished, cronTab, cronTabCrd } from './fixtures';

let t: TestServer;
const C = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const TABLE = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

beforeEach(async () => {
  t = await startTestServer();
  await createEstablished(t, cronTabCrd(), C);
});
afterEach(async () => {
  await t.close();
});

describe('a custom resource not matching its schema is refused with 422 and kube messages', () => {
  it('a wrong type (and the scale path that cannot be read as an integer)', async () => {
    const res = await t.post(C, cronTab('a', { cronSpec: '* * * * */5', replicas: 'three' }));
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.message).toBe(
      'CronTab.stable.example.com "a" is invalid: [spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", ' +
        '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64]',
    );
    expect(res.body.details).toMatchObject({ name: 'a', group: 'stable.example.com', kind: 'CronTab' });
    expect(res.body.details.causes[0]).toEqual({
      reason: 'FieldValueTypeInvalid',
      message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      field: 'spec.replicas',
    });
    expect((await t.get(`${C}/a`)).status).toBe(404);
  });

  it('a missing required field, a pattern and a maximum', async () => {
    expect((await t.post(C, cronTab('a', { image: 'x' }))).body.message).toBe('CronTab.stable.example.com "a" is invalid: spec.cronSpec: Required value');
    const res = await t.post(C, cronTab('a', { cronSpec: 'nope', replicas: 20 }));
    expect(res.body.message).toBe(
      'CronTab.stable.example.com "a" is invalid: [spec.cronSpec: Invalid value: "nope": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\', ' +
        'spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10]',
    );
  });

  it('on update too, and the stored object is unchanged', async () => {
    const created = (await t.post(C, cronTab('u'))).body;
    const res = await t.put(`${C}/u`, { ...created, spec: { ...created.spec, replicas: 0 } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('CronTab.stable.example.com "u" is invalid: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1');
    expect((await t.get(`${C}/u`)).body.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('a name that is not a DNS subdomain', async () => {
    const res = await t.post(C, cronTab('Bad_Name'));
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of');
  });
});

describe('decoding: the CRD codec', () => {
  it('prunes unknown fields; Strict refuses them with a 400 listing each', async () => {
    const body = { ...cronTab('a'), spec: { cronSpec: '* * * * */5', foo: 1, extra: { anything: 1 } }, bogus: true };
    const strict = await t.post(`${C}?fieldValidation=Strict`, body);
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe('CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "bogus", unknown field "spec.foo"');
  });

  it('Warn (the default) sends one Warning per unknown field and stores the pruned object; x-kubernetes-preserve-unknown-fields keeps its subtree', async () => {
    const res = await t.post(C, { ...cronTab('a'), metadata: { name: 'a', junk: 1 }, spec: { cronSpec: '* * * * */5', foo: 1, extra: { anything: { deep: 1 } } } });
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe('299 - "unknown field \\"metadata.junk\\"", 299 - "unknown field \\"spec.foo\\""');
    const stored = (await t.get(`${C}/a`)).body;
    expect(stored.spec).toEqual({ cronSpec: '* * * * */5', extra: { anything: { deep: 1 } }, replicas: 1 });
    expect(stored.metadata.junk).toBeUndefined();
  });

  it('Ignore drops unknown fields silently', async () => {
    const res = await t.post(`${C}?fieldValidation=Ignore`, { ...cronTab('a'), spec: { cronSpec: '* * * * */5', foo: 1 } });
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBeNull();
    expect(res.body.spec.foo).toBeUndefined();
  });

  it('fills defaults from the schema and keeps given values', async () => {
    expect((await t.post(C, cronTab('d'))).body.spec.replicas).toBe(1);
    expect((await t.post(C, cronTab('e', { cronSpec: '* * * * */5', replicas: 4 }))).body.spec.replicas).toBe(4);
    // A merge patch removing a defaulted field gets the default back.
    const patched = await t.patch(`${C}/e`, { spec: { replicas: null } }, 'application/merge-patch+json');
    expect(patched.body.spec.replicas).toBe(1);
  });

  it('refuses a body without kind, and one whose apiVersion the CRD does not have', async () => {
    const noKind = await t.post(C, { apiVersion: 'stable.example.com/v1', metadata: { name: 'b' }, spec: { cronSpec: '* * * * */5' } });
    expect(noKind.status).toBe(400);
    expect(noKind.body.message).toBe(
      'the object provided is unrecognized (must be of type CronTab): Object \'Kind\' is missing in \'{"apiVersion":"stable.example.com/v1","metadata":{"name":"b"},"spec":{"cronSpec":"* * * * */5"}}\' ({"apiVersion":"stable.example. ...)',
    );
    const badVersion = await t.post(C, { apiVersion: 'stable.example.com/v9', kind: 'CronTab', metadata: { name: 'b' } });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.message).toBe('CronTab in version "v9" cannot be handled as a CronTab: request to convert CR from an invalid group/version: stable.example.com/v9');
  });

  it('reports another kind as an invalid kind field (422)', async () => {
    const res = await t.post(C, { apiVersion: 'stable.example.com/v1', kind: 'CronJob', metadata: { name: 'b' }, spec: { cronSpec: '* * * * */5' } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('CronTab.stable.example.com "b" is invalid: kind: Invalid value: "CronJob": must be CronTab');
  });

  it('a merge patch with an unknown field under Strict is a 422 on "patch"', async () => {
    await t.post(C, cronTab('p'));
    const res = await t.patch(`${C}/p?fieldValidation=Strict`, { spec: { nope: 1 } }, 'application/merge-patch+json');
    expect(res.status).toBe(422);
    expect(res.body.details.causes[0].field).toBe('patch');
    expect(res.body.message).toMatch(/strict decoding error: unknown field "spec\.nope"$/);
  });
});

describe('the status subresource', () => {
  it('create drops status; main updates keep it; /status changes only status; generation follows spec', async () => {
    const created = await t.post(C, { ...cronTab('s'), status: { phase: 'x' } });
    expect(created.body.status).toBeUndefined();
    const cur = created.body;
    const st = await t.put(`${C}/s/status`, { ...cur, spec: { cronSpec: '1 1 1 1 1' }, metadata: { ...cur.metadata, labels: { a: 'b' } }, status: { phase: 'Running', replicas: 2, labelSelector: 'app=x' } });
    expect(st.status).toBe(200);
    expect(st.body.status).toEqual({ phase: 'Running', replicas: 2, labelSelector: 'app=x' });
    // Only the status changed: spec, labels and generation are the stored ones.
    expect(st.body.spec.cronSpec).toBe('* * * * */5');
    expect(st.body.metadata.labels).toBeUndefined();
    expect(st.body.metadata.generation).toBe(1);
    const main = await t.put(`${C}/s`, { ...st.body, spec: { ...st.body.spec, image: 'new' }, status: { phase: 'Hacked' } });
    expect(main.body.status.phase).toBe('Running');
    expect(main.body.metadata.generation).toBe(2);
    const metaOnly = await t.patch(`${C}/s`, { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json');
    expect(metaOnly.body.metadata.generation).toBe(2);
  });

  it('without the subresource, status is part of the object and changes bump generation', async () => {
    const crd = cronTabCrd() as { spec: { versions: { subresources?: unknown }[] } };
    delete crd.spec.versions[0]!.subresources;
    const t2 = await startTestServer();
    try {
      await createEstablished(t2, crd as Record<string, unknown>, C);
      const created = await t2.post(C, { ...cronTab('n'), status: { phase: 'x' } });
      expect(created.body.status).toEqual({ phase: 'x' });
      const upd = await t2.patch(`${C}/n`, { status: { phase: 'y' } }, 'application/merge-patch+json');
      expect(upd.body.metadata.generation).toBe(2);
      expect((await t2.get(`${C}/n/status`)).status).toBe(404);
    } finally {
      await t2.close();
    }
  });
});

describe('the scale subresource', () => {
  it('reads and writes the replicas through specReplicasPath/statusReplicasPath/labelSelectorPath', async () => {
    const cur = (await t.post(C, cronTab('s'))).body;
    await t.put(`${C}/s/status`, { ...cur, status: { replicas: 2, labelSelector: 'app=x' } });
    const scale = await t.get(`${C}/s/scale`);
    expect(scale.status).toBe(200);
    expect(scale.body).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 's', namespace: 'default', uid: cur.metadata.uid, resourceVersion: expect.any(String), creationTimestamp: cur.metadata.creationTimestamp },
      spec: { replicas: 1 },
      status: { replicas: 2, selector: 'app=x' },
    });
    const put = await t.put(`${C}/s/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 's' }, spec: { replicas: 5 } });
    expect(put.status).toBe(200);
    expect(put.body.spec.replicas).toBe(5);
    const patched = await t.patch(`${C}/s/scale`, { spec: { replicas: 7 } }, 'application/merge-patch+json');
    expect(patched.body.spec.replicas).toBe(7);
    const obj = (await t.get(`${C}/s`)).body;
    expect(obj.spec.replicas).toBe(7);
    expect(obj.metadata.generation).toBe(3);
  });

  it('a negative count fails the custom resource validation; a stale resourceVersion is a 409', async () => {
    await t.post(C, cronTab('s'));
    const neg = await t.patch(`${C}/s/scale`, { spec: { replicas: -1 } }, 'application/merge-patch+json');
    expect(neg.status).toBe(422);
    expect(neg.body.message).toBe(
      'CronTab.stable.example.com "s" is invalid: [spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 1, .spec.replicas: Invalid value: -1: should be a non-negative integer]',
    );
    const stale = await t.put(`${C}/s/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 's', resourceVersion: '1' }, spec: { replicas: 2 } });
    expect(stale.status).toBe(409);
  });

  it('GET fails with 500 when the spec replicas field does not exist', async () => {
    // No default for replicas in this CRD, so the field can be absent.
    const crd = cronTabCrd() as { spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: { replicas: { default?: number } } } } } } }[] } };
    delete crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties.replicas.default;
    const t2 = await startTestServer();
    try {
      await createEstablished(t2, crd as unknown as Record<string, unknown>, C);
      await t2.post(C, cronTab('s'));
      const res = await t2.get(`${C}/s/scale`);
      expect(res.status).toBe(500);
      expect(res.body.message).toBe('Internal error occurred: the spec replicas field ".spec.replicas" does not exist');
      const put = await t2.patch(`${C}/s/scale`, { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
      expect(put.status).toBe(400);
      expect(put.body.message).toBe('the spec replicas field ".spec.replicas" cannot be empty');
    } finally {
      await t2.close();
    }
  });
});

describe('Table output from additionalPrinterColumns', () => {
  it('has Name then the columns; cells typed per column, a date column humanised by the server', async () => {
    await t.post(C, cronTab('a', { cronSpec: '* * * * */5', tags: ['x', 'y'] }));
    t.clock.advance(125_000);
    const res = await t.get(C, TABLE);
    expect(res.status).toBe(200);
    expect(res.body.columnDefinitions.map((c: { name: string; type: string; priority: number }) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Spec', 'string', 0],
      ['Replicas', 'integer', 0],
      ['Tags', 'string', 1],
      ['Age', 'date', 0],
    ]);
    expect(res.body.columnDefinitions[1].description).toBe('Custom resource definition column (in JSONPath format): .spec.cronSpec');
    expect(res.body.rows[0].cells).toEqual(['a', '* * * * */5', 1, '["x","y"]', '2m5s']);
    expect(res.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'a' } });
  });

  it('a version without columns gets Age; a missing value is null', async () => {
    const crd = cronTabCrd() as { spec: { versions: { additionalPrinterColumns?: unknown[] }[] } };
    crd.spec.versions[0]!.additionalPrinterColumns = [{ name: 'Phase', type: 'string', jsonPath: '.status.phase' }];
    const t2 = await startTestServer();
    try {
      await createEstablished(t2, crd as Record<string, unknown>, C);
      await t2.post(C, cronTab('a'));
      const res = await t2.get(`${C}/a`, TABLE);
      expect(res.body.rows[0].cells).toEqual(['a', null]);
      delete crd.spec.versions[0]!.additionalPrinterColumns;
      const t3 = await startTestServer();
      try {
        await createEstablished(t3, crd as Record<string, unknown>, C);
        await t3.post(C, cronTab('b'));
        const plain = await t3.get(C, TABLE);
        expect(plain.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Age']);
        expect(plain.body.rows[0].cells).toEqual(['b', '0s']);
      } finally {
        await t3.close();
      }
    } finally {
      await t2.close();
    }
  });
});
