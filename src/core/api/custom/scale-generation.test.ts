// Issue 16, item 3: a write through the scale subresource of a Deployment,
// ReplicaSet, StatefulSet or ReplicationController that changes
// spec.replicas bumps metadata.generation, as kube's ScaleREST (which
// updates the parent through its own strategy) does; `kubectl rollout
// status` and the controllers' observedGeneration depend on it. A scale
// that leaves the replicas as they are does not.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const CASES: { what: string; path: string; body: Record<string, unknown> }[] = [
  { what: 'Deployment', path: '/apis/apps/v1/namespaces/default/deployments', body: { metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template } } },
  { what: 'ReplicaSet', path: '/apis/apps/v1/namespaces/default/replicasets', body: { metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template } } },
  { what: 'StatefulSet', path: '/apis/apps/v1/namespaces/default/statefulsets', body: { metadata: { name: 'web' }, spec: { replicas: 1, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template } } },
  { what: 'ReplicationController', path: '/api/v1/namespaces/default/replicationcontrollers', body: { metadata: { name: 'web' }, spec: { replicas: 1, selector: { app: 'web' }, template } } },
];

describe('scale subresource and metadata.generation', () => {
  for (const c of CASES) {
    it(`bumps a ${c.what}'s generation when the replicas change (PATCH and PUT), not otherwise`, async () => {
      ts = await startTestServer();
      expect((await ts.post(c.path, c.body)).status).toBe(201);
      const patched = await ts.patch(`${c.path}/web/scale`, { spec: { replicas: 3 } }, 'application/merge-patch+json');
      expect(patched.status).toBe(200);
      expect(patched.body.spec.replicas).toBe(3);
      let parent = (await ts.get(`${c.path}/web`)).body;
      expect(parent.spec.replicas).toBe(3);
      expect(parent.metadata.generation).toBe(2);

      const scale = (await ts.get(`${c.path}/web/scale`)).body;
      expect((await ts.put(`${c.path}/web/scale`, { ...scale, spec: { replicas: 5 } })).status).toBe(200);
      parent = (await ts.get(`${c.path}/web`)).body;
      expect(parent.metadata.generation).toBe(3);

      // The same replica count again: nothing changed, no new generation.
      expect((await ts.patch(`${c.path}/web/scale`, { spec: { replicas: 5 } }, 'application/merge-patch+json')).status).toBe(200);
      parent = (await ts.get(`${c.path}/web`)).body;
      expect(parent.metadata.generation).toBe(3);
    });
  }
});
