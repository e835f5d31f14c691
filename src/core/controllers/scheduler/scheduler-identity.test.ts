// The scheduler acts as kube-scheduler does in a kubeadm cluster (issue 5,
// controllers' own identities): as system:kube-scheduler, allowed by the
// default system:kube-scheduler role alone — a pod gets bound under
// Node,RBAC and the audit log names the scheduler's user for the binding.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test-support/api-harness';
import { secureCluster } from '../../api/access/test-cluster';

describe('scheduler identity', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await secureCluster({ 'disable-admission-plugins': 'ServiceAccount' }, { controllers: ['scheduler'] });
  });
  afterAll(() => ts.close());

  it('binds pods as system:kube-scheduler', async () => {
    const size = { cpu: '4', memory: '8Gi', pods: '110' };
    const ready = { capacity: size, allocatable: size, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] };
    expect((await ts.post('/api/v1/nodes', { metadata: { name: 'worker' }, status: ready })).status).toBe(201);
    expect((await ts.post('/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).toBe(201);
    let nodeName: string | undefined;
    for (let i = 0; i < 150 && !nodeName; i++) {
      await ts.server.idle();
      nodeName = (await ts.get('/api/v1/namespaces/default/pods/p')).body.spec.nodeName;
      if (!nodeName) await new Promise((r) => setTimeout(r, 20));
    }
    expect(nodeName).toBe('worker');
    const audit = (await ts.get('/kubetab/v1/audit?limit=500')).body.items as { event: Record<string, any> }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const binding = audit.find((i) => i.event.objectRef?.subresource === 'binding');
    expect(binding?.event.user).toEqual({ username: 'system:kube-scheduler', groups: ['system:authenticated'] });
    expect(binding?.event.responseStatus.code).toBe(201);
  });
});
