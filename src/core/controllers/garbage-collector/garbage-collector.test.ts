// The garbage collector against a real KubeTab server, observed as a client would.
// Rule (issue 3 and the specification's deletion section): dependents of a deleted owner
// (ownerReferences) go away with Background propagation, block the owner with Foreground
// (foregroundDeletion finalizer, blockOwnerDeletion) and stay with Orphan.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

const NS = '/api/v1/namespaces/default';
const MERGE = 'application/merge-patch+json';

async function owner(name: string): Promise<{ apiVersion: string; kind: string; name: string; uid: string }> {
  const res = await bed.ts.post(`${NS}/configmaps`, { metadata: { name }, data: { role: 'owner' } });
  expect(res.status).toBe(201);
  return { apiVersion: 'v1', kind: 'ConfigMap', name, uid: res.body.metadata.uid };
}

async function dependent(kind: 'configmaps' | 'secrets', name: string, ownerReferences: unknown[], finalizers?: string[]): Promise<void> {
  const metadata: Record<string, unknown> = { name, ownerReferences };
  if (finalizers) metadata['finalizers'] = finalizers;
  const res = await bed.ts.post(`${NS}/${kind}`, { metadata });
  expect(res.status).toBe(201);
}

const status = async (path: string) => (await bed.ts.get(path)).status;

describe('garbage collector', () => {
  it('Background: the owner goes at once, its dependents after it', async () => {
    bed = await startControllerTestBed({ enabled: ['garbage-collector-controller'] });
    const ref = await owner('bg-owner');
    await dependent('configmaps', 'bg-dep-cm', [ref]);
    await dependent('secrets', 'bg-dep-secret', [ref]);
    await bed.idle();
    expect(await status(`${NS}/configmaps/bg-dep-cm`)).toBe(200);

    const del = await bed.ts.del(`${NS}/configmaps/bg-owner`, { propagationPolicy: 'Background' });
    expect(del.status).toBe(200);
    expect(await status(`${NS}/configmaps/bg-owner`)).toBe(404);
    await bed.idle();
    expect(await status(`${NS}/configmaps/bg-dep-cm`)).toBe(404);
    expect(await status(`${NS}/secrets/bg-dep-secret`)).toBe(404);
  });

  it('Foreground: the owner waits, Terminating with foregroundDeletion, for dependents that block it', async () => {
    bed = await startControllerTestBed({ enabled: ['garbage-collector-controller'] });
    const ref = await owner('fg-owner');
    await dependent('configmaps', 'fg-blocking', [{ ...ref, blockOwnerDeletion: true }], ['example.com/hold']);
    await dependent('secrets', 'fg-plain', [ref]);
    await bed.idle();

    const del = await bed.ts.del(`${NS}/configmaps/fg-owner`, { propagationPolicy: 'Foreground' });
    expect(del.status).toBe(200);
    expect(del.body.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(del.body.metadata.deletionTimestamp).toBeDefined();
    await bed.idle();

    // Every dependent was deleted; the blocking one is held by its own finalizer, so the owner waits.
    expect(await status(`${NS}/secrets/fg-plain`)).toBe(404);
    const blocking = await bed.ts.get(`${NS}/configmaps/fg-blocking`);
    expect(blocking.body.metadata.deletionTimestamp).toBeDefined();
    const waiting = await bed.ts.get(`${NS}/configmaps/fg-owner`);
    expect(waiting.status).toBe(200);
    expect(waiting.body.metadata.finalizers).toEqual(['foregroundDeletion']);

    // Releasing the blocking dependent lets the owner go.
    expect((await bed.ts.patch(`${NS}/configmaps/fg-blocking`, { metadata: { finalizers: null } }, MERGE)).status).toBe(200);
    await bed.idle();
    expect(await status(`${NS}/configmaps/fg-blocking`)).toBe(404);
    expect(await status(`${NS}/configmaps/fg-owner`)).toBe(404);
  });

  it('Foreground: a dependent without blockOwnerDeletion does not hold the owner', async () => {
    bed = await startControllerTestBed({ enabled: ['garbage-collector-controller'] });
    const ref = await owner('fg2-owner');
    await dependent('configmaps', 'fg2-held', [ref], ['example.com/hold']);
    await bed.idle();
    await bed.ts.del(`${NS}/configmaps/fg2-owner`, { propagationPolicy: 'Foreground' });
    await bed.idle();
    expect(await status(`${NS}/configmaps/fg2-owner`)).toBe(404);
    const held = await bed.ts.get(`${NS}/configmaps/fg2-held`);
    expect(held.status).toBe(200);
    expect(held.body.metadata.deletionTimestamp).toBeDefined();
  });

  it('Orphan: the dependents stay and lose their reference to the owner', async () => {
    bed = await startControllerTestBed({ enabled: ['garbage-collector-controller'] });
    const ref = await owner('or-owner');
    const other = await owner('or-other');
    await dependent('configmaps', 'or-dep', [ref, other]);
    await dependent('secrets', 'or-dep-secret', [ref]);
    await bed.idle();

    const del = await bed.ts.del(`${NS}/configmaps/or-owner`, { propagationPolicy: 'Orphan' });
    expect(del.status).toBe(200);
    expect(del.body.metadata.finalizers).toEqual(['orphan']);
    await bed.idle();

    expect(await status(`${NS}/configmaps/or-owner`)).toBe(404);
    const dep = await bed.ts.get(`${NS}/configmaps/or-dep`);
    expect(dep.status).toBe(200);
    expect(dep.body.metadata.ownerReferences).toEqual([other]);
    const secret = await bed.ts.get(`${NS}/secrets/or-dep-secret`);
    expect(secret.status).toBe(200);
    expect(secret.body.metadata.ownerReferences).toBeUndefined();
  });

  it('a dependent with one owner left keeps living and loses the reference to the absent owner', async () => {
    bed = await startControllerTestBed({ enabled: ['garbage-collector-controller'] });
    const gone = await owner('two-gone');
    const alive = await owner('two-alive');
    await dependent('configmaps', 'two-dep', [gone, alive]);
    await bed.idle();
    await bed.ts.del(`${NS}/configmaps/two-gone`);
    await bed.idle();
    const dep = await bed.ts.get(`${NS}/configmaps/two-dep`);
    expect(dep.status).toBe(200);
    expect(dep.body.metadata.ownerReferences).toEqual([alive]);
  });

  it('a reference to an owner that does not exist, or with another uid, is dangling: the dependent is collected', async () => {
    bed = await startControllerTestBed({ enabled: ['garbage-collector-controller'] });
    const real = await owner('real-owner');
    await dependent('configmaps', 'wrong-uid', [{ ...real, uid: '00000000-0000-0000-0000-000000000000' }]);
    await dependent('secrets', 'no-owner', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never-was', uid: '11111111-1111-1111-1111-111111111111' }]);
    await bed.idle();
    expect(await status(`${NS}/configmaps/wrong-uid`)).toBe(404);
    expect(await status(`${NS}/secrets/no-owner`)).toBe(404);
    expect(await status(`${NS}/configmaps/real-owner`)).toBe(200);
  });

  it('a chain of owners in the background: grandchildren go too', async () => {
    bed = await startControllerTestBed({ enabled: ['garbage-collector-controller'] });
    const top = await owner('chain-top');
    const mid = await bed.ts.post(`${NS}/configmaps`, { metadata: { name: 'chain-mid', ownerReferences: [top] } });
    const midRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'chain-mid', uid: mid.body.metadata.uid };
    await dependent('secrets', 'chain-leaf', [midRef]);
    await bed.idle();
    await bed.ts.del(`${NS}/configmaps/chain-top`);
    await bed.idle();
    expect(await status(`${NS}/configmaps/chain-mid`)).toBe(404);
    expect(await status(`${NS}/secrets/chain-leaf`)).toBe(404);
  });
});
