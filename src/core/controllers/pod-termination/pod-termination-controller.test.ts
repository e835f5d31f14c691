// The kubelet stand-in of docs/decisions/0140: a Terminating pod on a node is
// removed once its grace period has passed on the server clock, not before;
// pods that are not terminating are left alone.

import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { graceLeftMs, RECHECK_MS } from './pod-termination-controller';

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function until(check: () => Promise<boolean>, ms = RECHECK_MS * 3): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('pod-termination', () => {
  it('removes a Terminating pod when its grace period has passed on the server clock', async () => {
    s = await startTestServer({}, manualClock(), ['pod-termination']);
    await s.post(PODS, pod('p', { nodeName: 'node-1', terminationGracePeriodSeconds: 20 }));
    await s.post(PODS, pod('other', { nodeName: 'node-1' }));
    await s.del(`${PODS}/p`);
    await s.server.idle();
    s.clock.advance(19_000);
    // Still within its grace: a re-check does not remove it.
    await new Promise((r) => setTimeout(r, RECHECK_MS + 300));
    expect((await s.get(`${PODS}/p`)).status).toBe(200);
    s.clock.advance(1_000);
    expect(await until(async () => (await s!.get(`${PODS}/p`)).status === 404)).toBe(true);
    // A pod nobody deleted stays.
    expect((await s.get(`${PODS}/other`)).status).toBe(200);
  });

  it('knows how long a pod has left', () => {
    const now = Date.parse('2024-12-11T12:00:00Z');
    const terminating = { metadata: { deletionTimestamp: '2024-12-11T12:00:30Z', deletionGracePeriodSeconds: 30 } };
    expect(graceLeftMs(terminating, now)).toBe(30_000);
    expect(graceLeftMs({ metadata: { deletionTimestamp: '2024-12-11T12:00:00Z', deletionGracePeriodSeconds: 0 } }, now)).toBeUndefined();
    expect(graceLeftMs({ metadata: {} }, now)).toBeUndefined();
  });
});
