// events.k8s.io/v1 Events are core v1 Events in storage: one object, two
// shapes, whichever API wrote it (kube-apiserver stores both in one place).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

describe('events in two groups', () => {
  it('an event written through events.k8s.io/v1 reads back through core v1 with the renamed fields', async () => {
    const created = await t.post('/apis/events.k8s.io/v1/namespaces/default/events', {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e1' },
      eventTime: '2024-12-11T12:00:00.000000Z',
      reportingController: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      action: 'Scale',
      reason: 'Scaled',
      type: 'Normal',
      note: 'scaled up',
      regarding: { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
    });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('events.k8s.io/v1');
    const core = await t.get('/api/v1/namespaces/default/events/e1');
    expect(core.status).toBe(200);
    expect(core.body.apiVersion).toBe('v1');
    expect(core.body.kind).toBe('Event');
    expect(core.body.involvedObject).toMatchObject({ kind: 'Deployment', name: 'web' });
    expect(core.body.message).toBe('scaled up');
    const list = await t.get('/apis/events.k8s.io/v1/namespaces/default/events');
    expect(list.body.items.map((e: { note: string }) => e.note)).toEqual(['scaled up']);
    expect(list.body.items[0].apiVersion).toBeUndefined();
  });
});
