// Managed fields and admission, as kube-apiserver's handlers order them: the
// field manager records the request's changes on the object as decoded and
// defaulted, BEFORE mutating admission and the kind's prepare hooks
// (create.go / update.go / patch.go), so what admission adds (ServiceAccount's
// kube-api-access volume and mounts, DefaultTolerationSeconds, Priority, a
// webhook's patch) and what the strategy adds (a namespace's "kubernetes"
// finalizer) is owned by nobody. Mutating admission is wrapped so that
// managed fields it leaves undecodable are put back, with kube's warning
// (NewManagedFieldsValidatingAdmissionController).

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { jsonPatch, registerWebhook, stubWebhooks, type WebhookStub } from './webhook-stub';
import { createEstablished, cronTab, cronTabCrd } from '../../crd/tests/fixtures';

let t: TestServer | undefined;
let hooks: WebhookStub | undefined;
afterEach(async () => {
  hooks?.restore();
  hooks = undefined;
  await t?.close();
  t = undefined;
});

const KUBECTL = { 'User-Agent': 'kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9' };
const PODS = '/api/v1/namespaces/default/pods';
const CM = '/api/v1/namespaces/default/configmaps';

describe('managed fields of a write that admission mutates', () => {
  it('kubectl run: the pod gets the account volume, tolerations and priority, none of them owned by kubectl-run', async () => {
    t = await startTestServer({ 'enable-admission-plugins': 'ServiceAccount' });
    await t.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    // What `kubectl run p --image=nginx` sends.
    const body = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p', creationTimestamp: null, labels: { run: 'p' } },
      spec: { containers: [{ name: 'p', image: 'nginx', resources: {} }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' },
      status: {},
    };
    const res = await t.post(`${PODS}?fieldManager=kubectl-run`, body, KUBECTL);
    expect(res.status).toBe(201);
    const spec = res.body.spec;
    // Admission did its work…
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.volumes[0].name).toMatch(/^kube-api-access-/);
    expect(spec.tolerations).toHaveLength(2);
    expect(spec.priority).toBe(0);
    // …and the manager owns what the client sent plus the defaults, as kube lists it.
    expect(res.body.metadata.managedFields).toEqual([
      {
        manager: 'kubectl-run',
        operation: 'Update',
        apiVersion: 'v1',
        time: res.body.metadata.creationTimestamp,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"p"}': {
                '.': {},
                'f:image': {},
                'f:imagePullPolicy': {},
                'f:name': {},
                'f:resources': {},
                'f:terminationMessagePath': {},
                'f:terminationMessagePolicy': {},
              },
            },
            'f:dnsPolicy': {},
            'f:enableServiceLinks': {},
            'f:restartPolicy': {},
            'f:schedulerName': {},
            'f:securityContext': {},
            'f:terminationGracePeriodSeconds': {},
          },
        },
      },
    ]);
  });

  it('kubectl create namespace: the "kubernetes" finalizer PrepareForCreate adds is not owned (only the name label is)', async () => {
    t = await startTestServer();
    const res = await t.post('/api/v1/namespaces?fieldManager=kubectl-create', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }, KUBECTL);
    expect(res.status).toBe(201);
    expect(res.body.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(res.body.metadata.managedFields.map((e: { fieldsV1: unknown }) => e.fieldsV1)).toEqual([
      { 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } } },
    ]);
  });

  it('a mutating webhook\'s label is owned by nobody after create, update, merge patch and server-side apply', async () => {
    t = await startTestServer();
    hooks = stubWebhooks((review) => {
      const labels = review.request.object?.metadata?.labels;
      if (labels?.injected) return { allowed: true };
      return { allowed: true, ...jsonPatch([labels ? { op: 'add', path: '/metadata/labels/injected', value: 'yes' } : { op: 'add', path: '/metadata/labels', value: { injected: 'yes' } }]) };
    });
    await registerWebhook(t, 'Mutating', 'inject', [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }]);
    const owned = (obj: { metadata: { managedFields: { manager: string; fieldsV1: unknown }[] } }) =>
      Object.fromEntries(obj.metadata.managedFields.map((e) => [e.manager, e.fieldsV1]));

    const created = await t.post(`${CM}?fieldManager=creator`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } });
    expect(created.status).toBe(201);
    expect(created.body.metadata.labels).toEqual({ injected: 'yes' });
    expect(owned(created.body)).toEqual({ creator: { 'f:data': { '.': {}, 'f:a': {} } } });

    // A PUT without the label: the webhook adds it back; the updater owns only its own change.
    const put = await t.put(`${CM}/c?fieldManager=updater`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', resourceVersion: created.body.metadata.resourceVersion }, data: { a: '1', b: '2' } });
    expect(put.status).toBe(200);
    expect(put.body.metadata.labels).toEqual({ injected: 'yes' });
    expect(owned(put.body)).toEqual({ creator: { 'f:data': { '.': {}, 'f:a': {} } }, updater: { 'f:data': { 'f:b': {} } } });

    const patched = await t.patch(`${CM}/c?fieldManager=patcher`, { metadata: { labels: null }, data: { c: '3' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.labels).toEqual({ injected: 'yes' });
    expect(owned(patched.body).patcher).toEqual({ 'f:data': { 'f:c': {} } });

    const applied = await t.patch(
      `${CM}/applied?fieldManager=applier`,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { x: '1' } },
      'application/apply-patch+yaml',
    );
    expect(applied.status).toBe(201);
    expect(applied.body.metadata.labels).toEqual({ injected: 'yes' });
    expect(owned(applied.body)).toEqual({ applier: { 'f:data': { 'f:x': {} } } });
  });

  it('managed fields a mutating webhook corrupts are put back as they were, with kube\'s warning', async () => {
    t = await startTestServer();
    hooks = stubWebhooks(() => ({
      allowed: true,
      ...jsonPatch([{ op: 'replace', path: '/metadata/managedFields', value: [{ manager: 'evil', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }] }]),
    }));
    await registerWebhook(t, 'Mutating', 'corrupt', [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }]);
    const res = await t.post(`${CM}?fieldManager=creator`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm' }, data: { a: '1' } });
    expect(res.status).toBe(201);
    expect(res.body.metadata.managedFields.map((e: { manager: string; operation: string }) => [e.manager, e.operation])).toEqual([['creator', 'Update']]);
    expect(res.headers.get('warning')).toBe(
      '299 - ".metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: operation must be `Apply` or `Update`"',
    );
  });

  it('custom resources with the status subresource: status sent on create and spec sent to /status are not owned (the strategy resets them)', async () => {
    t = await startTestServer();
    const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    await createEstablished(t, cronTabCrd(), CRONTABS);
    const created = await t.post(`${CRONTABS}?fieldManager=creator`, { ...cronTab('c'), status: { phase: 'Sent' } });
    expect(created.status).toBe(201);
    expect(created.body.status).toBeUndefined();
    const fields = (o: { metadata: { managedFields: { manager: string; subresource?: string; fieldsV1: unknown }[] } }) =>
      o.metadata.managedFields.map((e) => [e.manager, e.subresource ?? '', e.fieldsV1]);
    expect(fields(created.body)).toEqual([['creator', '', { 'f:spec': { '.': {}, 'f:cronSpec': {}, 'f:image': {}, 'f:replicas': {} } }]]);
    const status = await t.put(`${CRONTABS}/c/status?fieldManager=reporter`, {
      ...created.body,
      metadata: { ...created.body.metadata, managedFields: undefined },
      spec: { ...created.body.spec, image: 'changed' },
      status: { phase: 'Running' },
    });
    expect(status.status).toBe(200);
    expect(status.body.spec.image).toBe('my-cron-image');
    expect(fields(status.body)).toEqual([
      ['creator', '', { 'f:spec': { '.': {}, 'f:cronSpec': {}, 'f:image': {}, 'f:replicas': {} } }],
      ['reporter', 'status', { 'f:status': { '.': {}, 'f:phase': {} } }],
    ]);
  });

  it('kubectl scale on a Deployment: the scale manager takes .spec.replicas from the creator (kube\'s ScaleHandler; a new scale entry has no time)', async () => {
    t = await startTestServer();
    const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect((await t.post(`${DEPLOYMENTS}?fieldManager=kubectl-create`, deployment)).status).toBe(201);
    const scaled = await t.patch(`${DEPLOYMENTS}/d/scale?fieldManager=kubectl-scale`, { spec: { replicas: 3 } }, 'application/merge-patch+json');
    expect(scaled.status).toBe(200);
    const got = (await t.get(`${DEPLOYMENTS}/d`)).body;
    expect(got.spec.replicas).toBe(3);
    const entries = got.metadata.managedFields as { manager: string; time?: string; subresource?: string; fieldsV1: { 'f:spec'?: Record<string, unknown> } }[];
    const creator = entries.find((e) => e.manager === 'kubectl-create')!;
    expect(creator.fieldsV1['f:spec']?.['f:replicas']).toBeUndefined();
    expect(creator.fieldsV1['f:spec']?.['f:selector']).toEqual({});
    expect(entries.find((e) => e.manager === 'kubectl-scale')).toEqual({
      manager: 'kubectl-scale',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    });
    // The Scale itself carries no managed fields.
    expect(scaled.body.metadata.managedFields).toBeUndefined();
  });
});
