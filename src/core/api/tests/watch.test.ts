// watch: start semantics, event order, resume, 410, bookmarks, initial
// events, selectors, timeouts — as a client reading the stream sees them.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const create = (name: string, labels: Record<string, string> = {}) => t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels } });

describe('watch', () => {
  it('without a resourceVersion starts with ADDED for the current state, then changes in order', async () => {
    await create('a');
    const w = await t.watch(`${CM}?watch=1`);
    expect(w.status).toBe(200);
    expect(w.headers.get('content-type')).toBe('application/json');
    const [initial] = await w.next(1);
    expect(initial!.type).toBe('ADDED');
    expect(initial!.object.metadata.name).toBe('a');
    const b = (await create('b')).body;
    const updated = (await t.put(`${CM}/a`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } })).body;
    await t.del(`${CM}/b`);
    const events = await w.next(3);
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'b'],
      ['MODIFIED', 'a'],
      ['DELETED', 'b'],
    ]);
    expect(events[0]!.object.metadata.resourceVersion).toBe(b.metadata.resourceVersion);
    expect(events[1]!.object.metadata.resourceVersion).toBe(updated.metadata.resourceVersion);
    // The DELETED event carries the revision of the delete.
    expect(Number(events[2]!.object.metadata.resourceVersion)).toBeGreaterThan(Number(updated.metadata.resourceVersion));
    await w.cancel();
  });

  it('from a resourceVersion delivers exactly the changes after it (resume)', async () => {
    const a = (await create('a')).body;
    await create('b');
    await create('c');
    const w = await t.watch(`${CM}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    const events = await w.next(2);
    expect(events.map((e) => e.object.metadata.name)).toEqual(['b', 'c']);
    await expect(w.next(1, 200)).rejects.toThrow();
    await w.cancel();
  });

  it('from a compacted resourceVersion answers 200 with one ERROR event carrying 410 Expired', async () => {
    const a = (await create('a')).body;
    await create('b');
    t.clock.advance(6 * 60_000);
    await create('c');
    const w = await t.watch(`${CM}?watch=1&resourceVersion=${a.metadata.resourceVersion}`);
    expect(w.status).toBe(200);
    const [event] = await w.next(1);
    expect(event!.type).toBe('ERROR');
    expect(event!.object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(event!.object.message).toMatch(new RegExp(`^too old resource version: ${a.metadata.resourceVersion} \\(\\d+\\)$`));
    expect(await w.ended()).toBe(true);
  });

  it('sendInitialEvents=true sends ADDED events, then a BOOKMARK annotated k8s.io/initial-events-end', async () => {
    await create('a');
    await create('b');
    const w = await t.watch(`${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const events = await w.next(3);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
    expect(events[2]!.object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: expect.stringMatching(/^\d+$/), annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    await create('c');
    const [live] = await w.next(1);
    expect(live!.type).toBe('ADDED');
    expect(live!.object.metadata.name).toBe('c');
    await w.cancel();
  });

  it('sendInitialEvents requires resourceVersionMatch=NotOlderThan (422)', async () => {
    const res = await t.get(`${CM}?watch=1&sendInitialEvents=true`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  });

  it('a label selector turns objects that stop matching into DELETED and ones that start matching into ADDED', async () => {
    await create('a', { app: 'x' });
    const w = await t.watch(`${CM}?watch=1&labelSelector=app%3Dx`);
    expect((await w.next(1))[0]!.type).toBe('ADDED');
    await t.put(`${CM}/a`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'y' } } });
    await t.put(`${CM}/a`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'x' } } });
    await create('other', { app: 'y' });
    const events = await w.next(2);
    expect(events.map((e) => e.type)).toEqual(['DELETED', 'ADDED']);
    await expect(w.next(1, 200)).rejects.toThrow();
    await w.cancel();
  });

  it('a watch on one object sees only that object', async () => {
    await create('a');
    const w = await t.watch(`${CM}/a?watch=1`);
    expect((await w.next(1))[0]!.object.metadata.name).toBe('a');
    await create('b');
    await t.del(`${CM}/a`);
    const [deleted] = await w.next(1);
    expect(deleted!.type).toBe('DELETED');
    expect(deleted!.object.metadata.name).toBe('a');
    await w.cancel();
  });

  it('timeoutSeconds ends the stream', async () => {
    const w = await t.watch(`${CM}?watch=1&timeoutSeconds=1`);
    expect(await w.ended(3000)).toBe(true);
  });

  it('a negative timeoutSeconds is a deadline already passed: 200 and the stream ends with no events', async () => {
    await create('present');
    const w = await t.watch(`${CM}?watch=true&timeoutSeconds=-1`);
    expect(w.status).toBe(200);
    expect(await w.ended(2000)).toBe(true);
  });

  it('with bookmarks allowed, a BOOKMARK comes 2 s before the deadline (the cacher\'s pre-timeout bookmark)', async () => {
    await create('present');
    const w = await t.watch(`${CM}?watch=1&allowWatchBookmarks=true&timeoutSeconds=3`);
    const [added, bookmark] = await w.next(2, 2900);
    expect(added!.type).toBe('ADDED');
    expect(bookmark!.type).toBe('BOOKMARK');
    expect(Number(bookmark!.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(added!.object.metadata.resourceVersion));
    expect(await w.ended(3000)).toBe(true);
  });

  it('no event is lost or duplicated under concurrent writes', async () => {
    const w = await t.watch(`${CM}?watch=1&resourceVersion=0`);
    const writes = Array.from({ length: 50 }, (_, i) => create(`n-${i}`));
    const results = await Promise.all(writes);
    const events = await w.next(50, 5000);
    const revisions = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(new Set(events.map((e) => e.object.metadata.name)).size).toBe(50);
    expect([...revisions].sort((x, y) => x - y)).toEqual(revisions);
    expect(new Set(results.map((r) => r.body.metadata.resourceVersion))).toEqual(new Set(revisions.map(String)));
    await w.cancel();
  });
});
