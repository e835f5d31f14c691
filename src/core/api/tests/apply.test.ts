// Server-side apply over HTTP: what a client sees for create-by-apply,
// shared and conflicting ownership, force, dry run, the status subresource,
// and the bad inputs kube-apiserver refuses.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const APPLY = 'application/apply-patch+yaml';

function deployment(replicas?: number, image = 'nginx:1.25'): string {
  const lines = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'spec:',
    ...(replicas === undefined ? [] : [`  replicas: ${replicas}`]),
    '  selector:',
    '    matchLabels: {app: web}',
    '  template:',
    '    metadata:',
    '      labels: {app: web}',
    '    spec:',
    '      containers:',
    '      - name: nginx',
    `        image: ${image}`,
  ];
  return lines.join('\n') + '\n';
}

const managers = (obj: { metadata: { managedFields?: { manager: string; operation: string }[] } }) =>
  (obj.metadata.managedFields ?? []).map((m) => `${m.manager}/${m.operation}`);

describe('server-side apply', () => {
  it('creates the object (201) with an Apply entry in managedFields', async () => {
    const res = await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(2), APPLY);
    expect(res.status).toBe(201);
    expect(res.body.spec.replicas).toBe(2);
    expect(managers(res.body)).toEqual(['alice/Apply']);
    const entry = res.body.metadata.managedFields[0];
    expect(entry).toMatchObject({ manager: 'alice', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1' });
    expect(entry.fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect(entry.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']).toEqual({ '.': {}, 'f:image': {}, 'f:name': {} });
  });

  it('a different value from another manager is a 409 naming the field, and nothing changes', async () => {
    await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(2), APPLY);
    const before = (await t.get(`${DEPLOY}/web`)).body;
    const res = await t.patch(`${DEPLOY}/web?fieldManager=bob`, deployment(3), APPLY);
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('Conflict');
    expect(res.body.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    expect(res.body.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' }]);
    const after = (await t.get(`${DEPLOY}/web`)).body;
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it('the same value is shared ownership; force takes sole ownership', async () => {
    await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(2), APPLY);
    const shared = await t.patch(`${DEPLOY}/web?fieldManager=bob`, deployment(2), APPLY);
    expect(shared.status).toBe(200);
    // bob's apply changed nothing, so 1.32 writes his new entry without a time, which sorts it first (kubernetes#127938).
    expect(managers(shared.body)).toEqual(['bob/Apply', 'alice/Apply']);
    expect(shared.body.metadata.managedFields[0].time).toBeUndefined();
    const forced = await t.patch(`${DEPLOY}/web?fieldManager=carol&force=true`, deployment(5), APPLY);
    expect(forced.status).toBe(200);
    expect(forced.body.spec.replicas).toBe(5);
    const owners = forced.body.metadata.managedFields.filter((m: { fieldsV1: { 'f:spec'?: Record<string, unknown> } }) => m.fieldsV1['f:spec']?.['f:replicas']);
    expect(owners.map((m: { manager: string }) => m.manager)).toEqual(['carol']);
  });

  it('an update (PUT) never conflicts and takes ownership as an Update entry', async () => {
    await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(2), APPLY);
    const current = (await t.get(`${DEPLOY}/web`)).body;
    const put = await t.put(`${DEPLOY}/web?fieldManager=editor`, { ...current, spec: { ...current.spec, replicas: 7 } });
    expect(put.status).toBe(200);
    expect(managers(put.body)).toEqual(['alice/Apply', 'editor/Update']);
    // alice applying her old value now conflicts with the updater.
    const again = await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(2), APPLY);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^Apply failed with 1 conflict: conflict with "editor" using apps\/v1( at [0-9TZ:-]+)?: \.spec\.replicas$/);
  });

  it('a field the applier drops is removed when no one else owns it (and reset to its default)', async () => {
    await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(4), APPLY);
    const dropped = await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(undefined), APPLY);
    expect(dropped.status).toBe(200);
    expect(dropped.body.spec.replicas).toBe(1);
  });

  it('dryRun=All answers what would be stored and stores nothing', async () => {
    const res = await t.patch(`${DEPLOY}/web?fieldManager=alice&dryRun=All`, deployment(2), APPLY);
    expect(res.status).toBe(201);
    expect((await t.get(`${DEPLOY}/web`)).status).toBe(404);
  });

  it('refuses an apply without fieldManager, with managedFields, or with force on another patch type', async () => {
    const noManager = await t.patch(`${DEPLOY}/web`, deployment(2), APPLY);
    expect(noManager.status).toBe(422);
    expect(noManager.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const withManaged = await t.patch(`${DEPLOY}/web?fieldManager=a`, deployment(2).replace('  name: web', '  name: web\n  managedFields: [{manager: x}]'), APPLY);
    expect(withManaged.status).toBe(400);
    expect(withManaged.body.message).toBe('metadata.managedFields must be nil');
    const forceMerge = await t.patch(`${DEPLOY}/web?force=true`, '{}', 'application/merge-patch+json');
    expect(forceMerge.status).toBe(422);
    expect(forceMerge.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    expect((await t.get(`${DEPLOY}/web`)).status).toBe(404);
  });

  it('applies to the status subresource under its own entry', async () => {
    await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(2), APPLY);
    const status = await t.patch(
      `${DEPLOY}/web/status?fieldManager=controller`,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nstatus:\n  replicas: 2\n  readyReplicas: 1\n',
      APPLY,
    );
    expect(status.status).toBe(200);
    expect(status.body.status.readyReplicas).toBe(1);
    const entry = status.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'controller');
    expect(entry).toMatchObject({ operation: 'Apply', subresource: 'status' });
    expect(status.body.spec.replicas).toBe(2);
  });

  it('clears managedFields with a merge patch of [{}] and only then', async () => {
    await t.patch(`${DEPLOY}/web?fieldManager=alice`, deployment(2), APPLY);
    const empty = await t.patch(`${DEPLOY}/web`, { metadata: { managedFields: [] } }, 'application/merge-patch+json', { 'User-Agent': 'tester/1.0' });
    expect(empty.body.metadata.managedFields.length).toBeGreaterThan(0);
    const cleared = await t.patch(`${DEPLOY}/web`, { metadata: { managedFields: [{}] } }, 'application/merge-patch+json', { 'User-Agent': 'tester/1.0' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.metadata.managedFields).toBeUndefined();
  });
});
