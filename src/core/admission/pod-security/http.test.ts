// PodSecurity as a client sees it through the API (kube-apiserver 1.32's
// built-in pod-security admission, on by default, no exemptions): the 403 of
// an enforced level, Warning headers of the warn level, controllers warned
// but not refused, label validation and the warnings about existing pods.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
  // The ServiceAccount plugin needs the namespace's default account (the controllers are off here).
  await t.post('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
});
afterEach(async () => {
  await t.close();
});

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name, image: 'nginx' }], ...spec },
});
const RESTRICTED_DETAIL = (c: string) =>
  `allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), ` +
  `unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), ` +
  `runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), ` +
  `seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

async function label(ns: string, labels: Record<string, string | null>) {
  return t.patch(`/api/v1/namespaces/${ns}`, { metadata: { labels } }, 'application/merge-patch+json');
}

describe('PodSecurity (pod security admission, 1.32 defaults)', () => {
  it('admits anything in a namespace without labels (privileged:latest by default)', async () => {
    const res = await t.post(PODS, pod('p', { hostPID: true }));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBeNull();
  });

  it('refuses a pod that violates the enforce level with kube\'s 403 Status and stores nothing', async () => {
    expect((await label('default', { 'pod-security.kubernetes.io/enforce': 'restricted' })).status).toBe(200);
    const res = await t.post(PODS, pod('p'));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_DETAIL('p')}`,
      reason: 'Forbidden',
      details: { name: 'p', kind: 'pods' },
      code: 403,
    });
    expect((await t.get(`${PODS}/p`)).status).toBe(404);
  });

  it('names the enforce version label in the message', async () => {
    await label('default', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.30' });
    const res = await t.post(PODS, pod('h', { hostNetwork: true }));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('pods "h" is forbidden: violates PodSecurity "baseline:v1.30": host namespaces (hostNetwork=true)');
  });

  it('warns for the warn level and admits', async () => {
    await label('default', { 'pod-security.kubernetes.io/warn': 'restricted' });
    const res = await t.post(PODS, pod('w'));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe(`299 - "would violate PodSecurity \\"restricted:latest\\": ${RESTRICTED_DETAIL('w').replace(/"/g, '\\"')}"`);
  });

  it('warns on a Deployment template but never refuses it (pod controllers are not enforced)', async () => {
    await label('default', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'baseline' });
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { hostPID: true, containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    const res = await t.post('/apis/apps/v1/namespaces/default/deployments', deployment);
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe('299 - "would violate PodSecurity \\"baseline:latest\\": host namespaces (hostPID=true)"');
  });

  it('refuses invalid policy labels with 422 on metadata.labels[...]', async () => {
    const res = await label('default', { 'pod-security.kubernetes.io/enforce': 'strict' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Namespace "default" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
    expect(res.body.details).toEqual({
      name: 'default',
      kind: 'Namespace',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "strict": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' }],
    });
    const created = await t.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x', labels: { 'pod-security.kubernetes.io/warn-version': '1.2' } } });
    expect(created.status).toBe(422);
    expect(created.body.message).toBe('Namespace "x" is invalid: metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.2": must be "latest" or "v1.x"');
  });

  it('warns about existing pods when the enforce level tightens', async () => {
    await t.post(PODS, pod('a', { hostPID: true }));
    await t.post(PODS, pod('b', { hostPID: true }));
    const res = await label('default', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBe(
      '299 - "existing pods in namespace \\"default\\" violate the new PodSecurity enforce level \\"baseline:latest\\"", 299 - "a (and 1 other pod): host namespaces"',
    );
  });

  it('checks pod updates only when images or containers change', async () => {
    await t.post(PODS, pod('u'));
    await label('default', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const labelled = await t.patch(`${PODS}/u`, { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json');
    expect(labelled.status).toBe(200);
    const image = await t.patch(`${PODS}/u`, { spec: { containers: [{ name: 'u', image: 'nginx:2' }] } }, 'application/strategic-merge-patch+json');
    expect(image.status).toBe(403);
    expect(image.body.message).toBe(`pods "u" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_DETAIL('u')}`);
  });

  it('checks ephemeral containers added through pods/ephemeralcontainers, not status updates', async () => {
    const spec = {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
    };
    await label('default', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const created = await t.post(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'e' }, spec });
    expect(created.status).toBe(201);
    const debug = await t.patch(
      `${PODS}/e/ephemeralcontainers`,
      { spec: { ephemeralContainers: [{ name: 'debugger', image: 'busybox', targetContainerName: 'c' }] } },
      'application/strategic-merge-patch+json',
    );
    expect(debug.status).toBe(403);
    expect(debug.body.message).toBe(
      'pods "e" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "debugger" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "debugger" must set securityContext.capabilities.drop=["ALL"])',
    );
    const status = await t.patch(`${PODS}/e/status`, { status: { phase: 'Running' } }, 'application/merge-patch+json');
    expect(status.status).toBe(200);
  });
});
