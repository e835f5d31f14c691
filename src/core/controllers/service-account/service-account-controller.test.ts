// Rule (issue 3): the service-account controller keeps a `default` ServiceAccount in every namespace.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

describe('service-account controller', () => {
  it('creates `default` in the built-in namespaces and in a new one, and again after it is deleted', async () => {
    bed = await startControllerTestBed({ enabled: ['serviceaccount-controller'] });
    const { ts } = bed;
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      expect((await ts.get(`/api/v1/namespaces/${ns}/serviceaccounts/default`)).status).toBe(200);
    }
    await ts.post('/api/v1/namespaces', { metadata: { name: 'apps' } });
    await bed.idle();
    const sa = await ts.get('/api/v1/namespaces/apps/serviceaccounts/default');
    expect(sa.status).toBe(200);
    const firstUid = sa.body.metadata.uid;

    expect((await ts.del('/api/v1/namespaces/apps/serviceaccounts/default')).status).toBe(200);
    await bed.idle();
    const again = await ts.get('/api/v1/namespaces/apps/serviceaccounts/default');
    expect(again.status).toBe(200);
    expect(again.body.metadata.uid).not.toBe(firstUid);
  });

  it('does not add service accounts to a terminating namespace', async () => {
    bed = await startControllerTestBed({ enabled: ['serviceaccount-controller'] });
    const { ts } = bed;
    await ts.post('/api/v1/namespaces', { metadata: { name: 'closing' } });
    await bed.idle();
    await ts.del('/api/v1/namespaces/closing');
    await bed.idle();
    await ts.del('/api/v1/namespaces/closing/serviceaccounts/default');
    await bed.idle();
    expect((await ts.get('/api/v1/namespaces/closing/serviceaccounts/default')).status).toBe(404);
    expect(bed.logs.filter((l) => l.includes('error syncing'))).toEqual([]);
  });
});
