// TTL after finished: a finished Job with ttlSecondsAfterFinished is deleted,
// with its pods, once that much cluster time has passed since it finished.

import { afterEach, describe, expect, it } from 'vitest';
import { jobManifest, startBatchTestBed, type BatchTestBed } from '../job/job-test-support';
import { expiresAt } from './ttl-after-finished-controller';

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
let bed: BatchTestBed | undefined;
afterEach(async () => {
  expect(bed?.logs.filter((l) => /error|failed/i.test(l)) ?? []).toEqual([]);
  await bed?.close();
  bed = undefined;
});

describe('ttl-after-finished controller', () => {
  it('deletes a finished Job and its pods when its TTL has passed on the Clock', async () => {
    const b = (bed = await startBatchTestBed(['job', 'ttl-after-finished', 'garbagecollector']));
    await b.ts.post(JOBS, jobManifest('short', { ttlSecondsAfterFinished: 60 }));
    await b.ts.post(JOBS, jobManifest('kept'));
    await b.idle();
    for (const name of ['short', 'kept']) {
      const [pod] = await b.pods(`job-name=${name}`);
      await b.finishPod(pod.metadata.name, 0);
    }
    expect((await b.job('short')).status.conditions.some((c: { type: string }) => c.type === 'Complete')).toBe(true);
    await b.advance(59_000);
    expect((await b.ts.get(`${JOBS}/short`)).status).toBe(200);
    await b.advance(1_000);
    expect((await b.ts.get(`${JOBS}/short`)).status).toBe(404);
    expect(await b.pods('job-name=short')).toHaveLength(0);
    expect((await b.ts.get(`${JOBS}/kept`)).status).toBe(200);
    expect(await b.pods('job-name=kept')).toHaveLength(1);
  });

  it('reads the expiry from the finished condition', () => {
    const job = {
      spec: { ttlSecondsAfterFinished: 10 },
      status: { conditions: [{ type: 'Failed', status: 'True', lastTransitionTime: '2024-12-11T12:00:00Z' }] },
    };
    expect(expiresAt(job)).toBe(Date.UTC(2024, 11, 11, 12, 0, 10));
    expect(expiresAt({ spec: {}, status: job.status })).toBeUndefined();
    expect(expiresAt({ spec: job.spec, status: {} })).toBeUndefined();
  });
});
