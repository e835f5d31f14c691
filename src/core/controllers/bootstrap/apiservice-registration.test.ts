// kube-apiserver's APIService objects through the real server: one Local
// APIService per served group-version with kube's labels, priorities and
// Available condition (what `kubectl get apiservices` lists on a 1.32
// cluster), metrics.k8s.io's as KubeTab serves it, the CRD groups' coming
// and going with their CRDs, put back when deleted, and metrics-server's
// aggregated reader role.

import { afterEach, describe, expect, it } from 'vitest';
import { KubeletConnections } from '../../kubelet/connection';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { APISERVICE_REGISTRATION_CONTROLLER } from './apiservice-registration';

const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
let bed: ControllerTestBed | undefined;
afterEach(async () => {
  expect(bed?.logs ?? []).toEqual([]);
  await bed?.close();
  bed = undefined;
});

async function start(withKubelets = true): Promise<ControllerTestBed> {
  bed = await startControllerTestBed({
    enabled: [APISERVICE_REGISTRATION_CONTROLLER],
    asInternalClients: true,
    ...(withKubelets ? { server: { kubeletConnections: new KubeletConnections(), nodes: [] } } : {}),
  });
  await bed.idle();
  return bed;
}

/** What kubectl get apiservices prints: NAME, SERVICE, AVAILABLE. */
async function table(b: ControllerTestBed): Promise<string[]> {
  const res = await b.ts.get(APISERVICES, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  return (res.body.rows as { cells: string[] }[]).map((r) => `${r.cells[0]} ${r.cells[1]} ${r.cells[2]}`);
}

describe('APIService registration', () => {
  it('lists one Local, available APIService per served group-version, as a 1.32 cluster with metrics does', async () => {
    const b = await start();
    expect(await table(b)).toEqual([
      'v1. Local True',
      'v1.admissionregistration.k8s.io Local True',
      'v1.apiextensions.k8s.io Local True',
      'v1.apiregistration.k8s.io Local True',
      'v1.apps Local True',
      'v1.authentication.k8s.io Local True',
      'v1.authorization.k8s.io Local True',
      'v1.autoscaling Local True',
      'v1.batch Local True',
      'v1.certificates.k8s.io Local True',
      'v1.coordination.k8s.io Local True',
      'v1.discovery.k8s.io Local True',
      'v1.events.k8s.io Local True',
      'v1.flowcontrol.apiserver.k8s.io Local True',
      'v1.networking.k8s.io Local True',
      'v1.node.k8s.io Local True',
      'v1.policy Local True',
      'v1.rbac.authorization.k8s.io Local True',
      'v1.scheduling.k8s.io Local True',
      'v1.storage.k8s.io Local True',
      'v1beta1.metrics.k8s.io Local True',
      'v2.autoscaling Local True',
    ]);
    const apps = (await b.ts.get(`${APISERVICES}/v1.apps`)).body;
    expect(apps.metadata.labels).toEqual({ 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
    expect(apps.spec).toEqual({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    expect(apps.status.conditions).toEqual([
      { type: 'Available', status: 'True', lastTransitionTime: expect.any(String), reason: 'Local', message: 'Local APIServices are always available' },
    ]);
    expect((await b.ts.get(`${APISERVICES}/v1.`)).body.spec).toEqual({ version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
    expect((await b.ts.get(`${APISERVICES}/v2.autoscaling`)).body.spec).toMatchObject({ groupPriorityMinimum: 17500, versionPriority: 30 });
    const metrics = (await b.ts.get(`${APISERVICES}/v1beta1.metrics.k8s.io`)).body;
    expect(metrics.metadata.labels).toEqual({ 'k8s-app': 'metrics-server' });
    expect(metrics.spec).toEqual({ group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100 });
  });

  it('registers no metrics.k8s.io on a server without kubelets', async () => {
    const b = await start(false);
    expect((await b.ts.get(`${APISERVICES}/v1beta1.metrics.k8s.io`)).status).toBe(404);
    expect((await b.ts.get('/apis/rbac.authorization.k8s.io/v1/clusterroles/system:aggregated-metrics-reader')).status).toBe(404);
  });

  it('puts back a deleted APIService and sets right an automanaged spec', async () => {
    const b = await start();
    expect((await b.ts.del(`${APISERVICES}/v1.batch`)).status).toBe(200);
    await b.idle();
    expect((await b.ts.get(`${APISERVICES}/v1.batch`)).status).toBe(200);
    const policy = (await b.ts.get(`${APISERVICES}/v1.policy`)).body;
    policy.spec.groupPriorityMinimum = 5;
    expect((await b.ts.put(`${APISERVICES}/v1.policy`, policy)).status).toBe(200);
    await b.idle();
    expect((await b.ts.get(`${APISERVICES}/v1.policy`)).body.spec.groupPriorityMinimum).toBe(17100);
  });

  it('follows the served versions of CustomResourceDefinitions', async () => {
    const b = await start();
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.stable.example.com' },
      spec: {
        group: 'stable.example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
          { name: 'v1beta1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    };
    expect((await b.ts.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    await b.idle();
    const registered = (await b.ts.get(`${APISERVICES}/v1.stable.example.com`)).body;
    expect(registered.metadata.labels).toEqual({ 'kube-aggregator.kubernetes.io/automanaged': 'true' });
    expect(registered.spec).toEqual({ group: 'stable.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    expect(registered.status.conditions[0]).toMatchObject({ type: 'Available', status: 'True', reason: 'Local' });
    expect((await b.ts.get(`${APISERVICES}/v1beta1.stable.example.com`)).status).toBe(404);
    expect((await b.ts.del('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.stable.example.com')).status).toBe(200);
    await b.idle();
    for (let i = 0; i < 50 && (await b.ts.get(`${APISERVICES}/v1.stable.example.com`)).status === 200; i++) {
      await new Promise((r) => setTimeout(r, 10));
      await b.idle();
    }
    expect((await b.ts.get(`${APISERVICES}/v1.stable.example.com`)).status).toBe(404);
  });

  it('marks a Local APIService a user creates available', async () => {
    const b = await start();
    const res = await b.ts.post(APISERVICES, {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1alpha1.example.com' },
      spec: { group: 'example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15 },
    });
    expect(res.status).toBe(201);
    await b.idle();
    expect((await b.ts.get(`${APISERVICES}/v1alpha1.example.com`)).body.status.conditions[0]).toMatchObject({ status: 'True', reason: 'Local' });
  });

  it("creates metrics-server's aggregated reader role for view, edit and admin", async () => {
    const b = await start();
    const role = (await b.ts.get('/apis/rbac.authorization.k8s.io/v1/clusterroles/system:aggregated-metrics-reader')).body;
    expect(role.metadata.labels).toEqual({
      'k8s-app': 'metrics-server',
      'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
      'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    });
    expect(role.rules).toEqual([{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }]);
  });
});
