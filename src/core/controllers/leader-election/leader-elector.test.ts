// The leader election on a manual Clock, against a server with RBAC on (the
// candidates act as system:kube-controller-manager): what a client sees of
// the kube-system Lease and its events as candidates acquire, renew, lose
// and take over — and that two never lead at once.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { identityForUserAgent } from '../../api/access/internal-identities';
import { ClockTimers } from '../../util/clock-timers';
import { ApiClient } from '../client/api-client';
import { EventRecorder } from '../runtime/event-recorder';
import { DEFAULT_LEADER_ELECTION } from './control-plane-leaders';
import { LeaderElector } from './leader-elector';
import { LeaseLock } from './lease-lock';

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

interface Candidate {
  readonly elector: LeaderElector;
  readonly identity: string;
  leading: boolean;
  /** Makes every request of this candidate fail, as if its process had been killed. */
  crash(): void;
}

let ts: TestServer;
const timers: ClockTimers[] = [];
const candidates: Candidate[] = [];
let leaderships: string[] = [];

async function setup(): Promise<void> {
  ts = await startTestServer({ 'authorization-mode': 'Node,RBAC' });
  leaderships = [];
}

function candidate(identity: string, options: { soleCandidate?: boolean } = {}): Candidate {
  let crashed = false;
  const client = new ApiClient({
    send: (r) => (crashed ? Promise.reject(new Error('connection refused')) : ts.server.handleAs(r, identityForUserAgent(r.headers.get('user-agent')))),
    userAgent: 'kube-controller-manager/v1.32.0 (kubetab) kubernetes/kubetab/leader-election',
  });
  const t = new ClockTimers(ts.clock);
  timers.push(t);
  const lock = new LeaseLock(client, 'kube-system', 'kube-controller-manager', identity, new EventRecorder(client, ts.clock, { component: 'kube-controller-manager' }));
  const c: Candidate = {
    identity,
    leading: false,
    crash: () => (crashed = true),
    elector: new LeaderElector({
      lock,
      clock: ts.clock,
      timers: t,
      ...DEFAULT_LEADER_ELECTION,
      jitter: () => 0,
      ...(options.soleCandidate ? { soleCandidate: true } : {}),
      onStartedLeading: () => {
        // Never two leaders: whoever starts finds nobody else running.
        expect(candidates.filter((o) => o.leading).map((o) => o.identity)).toEqual([]);
        c.leading = true;
        leaderships.push(identity);
      },
      onStoppedLeading: () => {
        c.leading = false;
      },
    }),
  };
  candidates.push(c);
  return c;
}

/** Moves the Clock by `ms` in retry-period steps, letting every election finish its attempt after each. */
async function pass(ms: number, step = DEFAULT_LEADER_ELECTION.retryPeriodMs): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    ts.clock.advance(Math.min(step, ms - done));
    await Promise.all(candidates.map((c) => c.elector.idle()));
    expect(candidates.filter((c) => c.leading).length).toBeLessThanOrEqual(1);
  }
}

async function lease(): Promise<{ spec: Record<string, unknown> }> {
  const res = await ts.get(LEASE);
  expect(res.status).toBe(200);
  return res.body;
}

afterEach(async () => {
  await Promise.all(candidates.map((c) => c.elector.stop()));
  candidates.length = 0;
  timers.splice(0).forEach((t) => t.stop());
  await ts?.close();
});

describe('leader election on a Lease', () => {
  it('acquires a missing Lease at once and records "became leader" on it', async () => {
    await setup();
    const a = candidate('kubetab-control-plane_a');
    await a.elector.start();
    expect(a.leading).toBe(true);
    const { spec } = await lease();
    expect(spec).toMatchObject({ holderIdentity: 'kubetab-control-plane_a', leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(spec['acquireTime']).toMatch(MICRO_TIME);
    expect(spec['renewTime']).toBe(spec['acquireTime']);
    await expect
      .poll(async () => (await ts.get('/api/v1/namespaces/kube-system/events')).body.items.map((e: any) => [e.reason, e.message, e.involvedObject.kind, e.involvedObject.name, e.source.component]))
      .toEqual([['LeaderElection', 'kubetab-control-plane_a became leader', 'Lease', 'kube-controller-manager', 'kube-controller-manager']]);
  });

  it('renews every retry period while another candidate waits, and never lets it in', async () => {
    await setup();
    const a = candidate('host_a');
    await a.elector.start();
    const acquired = (await lease()).spec['acquireTime'];
    const b = candidate('host_b');
    await b.elector.start();
    expect(b.leading).toBe(false);
    await pass(60_000);
    const { spec } = await lease();
    expect(spec).toMatchObject({ holderIdentity: 'host_a', acquireTime: acquired, leaseTransitions: 0 });
    expect(Date.parse(spec['renewTime'] as string)).toBeGreaterThanOrEqual(ts.clock.now() - 2_000);
    expect(leaderships).toEqual(['host_a']);
  });

  it('a leader that cannot renew stops after the renew deadline; another takes over after the lease duration', async () => {
    await setup();
    const a = candidate('host_a');
    await a.elector.start();
    const b = candidate('host_b');
    await b.elector.start();
    await pass(4_000);
    a.crash();
    await pass(10_000);
    expect(a.leading).toBe(false);
    expect(b.leading).toBe(false);
    await pass(8_000);
    expect(b.leading).toBe(true);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'host_b', leaseTransitions: 1 });
    expect(leaderships).toEqual(['host_a', 'host_b']);
  });

  it('a killed leader (no renewals, no release) is replaced within 15–20 s', async () => {
    await setup();
    const a = candidate('host_a');
    await a.elector.start();
    const b = candidate('host_b');
    await b.elector.start();
    await pass(2_000);
    a.crash();
    // A's own loop gives up on its own; what matters is B's view.
    let waited = 0;
    while (!b.leading) {
      await pass(1_000, 1_000);
      waited += 1_000;
    }
    expect(waited).toBeGreaterThanOrEqual(14_000);
    expect(waited).toBeLessThanOrEqual(20_000);
  });

  it('moving the Clock forward by an hour keeps a healthy leader leading', async () => {
    await setup();
    const a = candidate('host_a');
    await a.elector.start();
    const b = candidate('host_b');
    await b.elector.start();
    for (let i = 0; i < 3; i++) await pass(3_600_000, 3_600_000);
    await pass(20_000);
    expect(a.leading).toBe(true);
    expect(b.leading).toBe(false);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'host_a', leaseTransitions: 0 });
  });

  it('a stopped leader releases the Lease and another takes it over within seconds', async () => {
    await setup();
    const a = candidate('host_a');
    await a.elector.start();
    const b = candidate('host_b');
    await b.elector.start();
    await a.elector.stop();
    expect((await lease()).spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0 });
    await pass(4_000);
    expect(b.leading).toBe(true);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'host_b', leaseDurationSeconds: 15, leaseTransitions: 1 });
    const messages = (await ts.get('/api/v1/namespaces/kube-system/events')).body.items.map((e: any) => e.message);
    expect(messages).toEqual(expect.arrayContaining(['host_a became leader', 'host_a stopped leading', 'host_b became leader']));
  });

  it('a sole candidate takes over a Lease left by its earlier run at once; a shared one waits', async () => {
    await setup();
    const old = candidate('host_old');
    await old.elector.start();
    old.crash();
    const shared = candidate('host_shared');
    await shared.elector.start();
    expect(shared.leading).toBe(false);
    await shared.elector.stop();
    candidates.splice(candidates.indexOf(shared), 1);
    // The crashed one still believes it leads until its deadline: leave it out of the two-leaders check.
    candidates.splice(candidates.indexOf(old), 1);
    await old.elector.stop();
    const restarted = candidate('host_new', { soleCandidate: true });
    await restarted.elector.start();
    expect(restarted.leading).toBe(true);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'host_new', leaseTransitions: 1 });
  });
});
