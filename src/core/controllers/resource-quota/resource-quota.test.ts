// Rule (ResourceQuota): the resourcequota controller keeps status.hard and
// status.used, and the ResourceQuota admission plugin refuses what would
// exceed a hard limit with kube-apiserver's "exceeded quota" message.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

const NS = '/api/v1/namespaces/default';
const pod = (name: string, cpu?: string) => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx', ...(cpu ? { resources: { requests: { cpu, memory: '64Mi' }, limits: { cpu, memory: '64Mi' } } } : {}) }] },
});

describe('resourcequota', () => {
  it('shows hard and used in status and follows creates and deletes', async () => {
    bed = await startControllerTestBed({ enabled: ['resourcequota-controller'] });
    const { ts } = bed;
    await ts.post(`${NS}/configmaps`, { metadata: { name: 'one' } });
    expect((await ts.post(`${NS}/resourcequotas`, { metadata: { name: 'counts' }, spec: { hard: { pods: '2', configmaps: '5', 'count/secrets': '3' } } })).status).toBe(201);
    await bed.idle();
    let quota = (await ts.get(`${NS}/resourcequotas/counts`)).body;
    expect(quota.status).toEqual({ hard: { 'count/secrets': '3', configmaps: '5', pods: '2' }, used: { 'count/secrets': '0', configmaps: '1', pods: '0' } });
    await ts.post(`${NS}/pods`, pod('a'));
    await bed.idle();
    quota = (await ts.get(`${NS}/resourcequotas/counts`)).body;
    expect(quota.status.used.pods).toBe('1');
    await ts.del(`${NS}/configmaps/one`);
    await bed.idle();
    expect((await ts.get(`${NS}/resourcequotas/counts`)).body.status.used.configmaps).toBe('0');
  });

  it("refuses a create past a hard limit with kube's message, and a pod that does not state tracked resources", async () => {
    bed = await startControllerTestBed({ enabled: ['resourcequota-controller'] });
    const { ts } = bed;
    await ts.post(`${NS}/resourcequotas`, { metadata: { name: 'compute' }, spec: { hard: { pods: '2', 'requests.cpu': '1', 'limits.memory': '1Gi' } } });
    await bed.idle();
    expect((await ts.post(`${NS}/pods`, pod('a', '600m'))).status).toBe(201);
    const over = await ts.post(`${NS}/pods`, pod('b', '600m'));
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({
      reason: 'Forbidden',
      code: 403,
      message: 'pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1',
      details: { name: 'b', kind: 'pods' },
    });
    const bare = await ts.post(`${NS}/pods`, pod('c'));
    expect(bare.status).toBe(403);
    expect(bare.body.message).toBe('pods "c" is forbidden: failed quota: compute: must specify limits.memory for: app; requests.cpu for: app');
    expect((await ts.post(`${NS}/pods`, pod('d', '400m'))).status).toBe(201);
    await bed.idle();
    expect((await ts.get(`${NS}/resourcequotas/compute`)).body.status.used).toEqual({ 'limits.memory': '128Mi', pods: '2', 'requests.cpu': '1' });
    const third = await ts.post(`${NS}/pods`, pod('e', '1m'));
    expect(third.body.message).toBe(
      'pods "e" is forbidden: exceeded quota: compute, requested: pods=1,requests.cpu=1m, used: pods=2,requests.cpu=1, limited: pods=2,requests.cpu=1',
    );
  });

  it('checks on a dry run too, and does not count what a dry run would have created', async () => {
    bed = await startControllerTestBed({ enabled: ['resourcequota-controller'] });
    const { ts } = bed;
    await ts.post(`${NS}/resourcequotas`, { metadata: { name: 'one' }, spec: { hard: { 'count/configmaps': '1' } } });
    await bed.idle();
    expect((await ts.post(`${NS}/configmaps?dryRun=All`, { metadata: { name: 'x' } })).status).toBe(201);
    expect((await ts.post(`${NS}/configmaps`, { metadata: { name: 'y' } })).status).toBe(201);
    const refused = await ts.post(`${NS}/configmaps?dryRun=All`, { metadata: { name: 'z' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'configmaps "z" is forbidden: exceeded quota: one, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1',
    );
  });
});
