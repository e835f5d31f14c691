// Boolean query parameters as kube-apiserver reads them: "0" and "false" in any
// case are false, every other value true (the Python client sends "True").

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { queryBool } from '../query-bool';

const CM = '/api/v1/namespaces/default/configmaps';

describe('boolean query parameters', () => {
  let ts: TestServer;
  beforeEach(async () => {
    ts = await startTestServer();
  });
  afterEach(async () => {
    await ts.close();
  });

  it('reads 0 and false (any case) as false and anything else as true', () => {
    for (const v of ['0', 'false', 'False', 'FALSE', 'fAlSe']) expect(queryBool(v)).toBe(false);
    for (const v of ['1', 'true', 'True', 'TRUE', 't', 'yes', '']) expect(queryBool(v)).toBe(true);
    expect(queryBool(null)).toBeUndefined();
  });

  it('watch=True opens a watch stream (the Python client watch)', async () => {
    const w = await ts.watch(`${CM}?watch=True`);
    expect(w.status).toBe(200);
    await ts.post(CM, { metadata: { name: 'one' } });
    const [event] = await w.next(1);
    expect(event!.type).toBe('ADDED');
    expect(event!.object.metadata.name).toBe('one');
    await w.cancel();
  });

  it('watch=False and watch=0 list', async () => {
    for (const v of ['False', '0']) {
      const res = await ts.get(`${CM}?watch=${v}`);
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('ConfigMapList');
    }
  });

  it('force=True applies with force (no strconv.ParseBool error)', async () => {
    const apply = (manager: string, value: string, force: string) =>
      ts.patch(`${CM}/applied?fieldManager=${manager}&force=${force}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { k: value } }, 'application/apply-patch+yaml');
    expect((await apply('a', '1', 'False')).status).toBe(201);
    const conflict = await apply('b', '2', 'False');
    expect(conflict.status).toBe(409);
    const forced = await apply('b', '2', 'True');
    expect(forced.status).toBe(200);
    expect(forced.body.data.k).toBe('2');
  });

  it('orphanDependents=True on a delete is read as true', async () => {
    await ts.post(CM, { metadata: { name: 'owner' } });
    const res = await ts.del(`${CM}/owner?orphanDependents=True&propagationPolicy=Background`);
    // Both set: kube's validation refuses the pair, which proves orphanDependents was read.
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('orphanDependents and deletionPropagation cannot be both set');
  });

  it('ignoreStoreReadErrorWithClusterBreakingPotential is read from the query too', async () => {
    const gated = await startTestServer({ 'feature-gates': 'AllowUnsafeMalformedObjectDeletion=true' });
    try {
      await gated.post(CM, { metadata: { name: 'fine' } });
      // Read from the query, the option meets dryRun's validation, as kube's DeleteOptions decoding does.
      const res = await gated.del(`${CM}/fine?ignoreStoreReadErrorWithClusterBreakingPotential=True&dryRun=All`);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(
        'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun',
      );
      expect((await gated.get(`${CM}/fine`)).status).toBe(200);
    } finally {
      await gated.close();
    }
  });
});
