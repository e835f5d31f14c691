// The kubelet's rules as pure functions: restart back-off, the pod phase,
// $(VAR) expansion and service-link variables.

import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff';
import { newRecord, type ContainerRecord } from './container-record';
import { expandVars, serviceEnv } from './env';
import { podPhase } from './pod-status';
import { ContainerLog } from '../runtime/container-log';

function exited(name: string, exitCode: number, waiting?: string): ContainerRecord {
  const r = newRecord(name, 'main', { name });
  r.current = { id: 'x', startedAt: 0, log: new ContainerLog('x'), terminated: { exitCode, reason: exitCode ? 'Error' : 'Completed', startedAt: 0, finishedAt: 1, containerID: 'x' } };
  if (waiting) r.waiting = { reason: waiting };
  return r;
}

function running(name: string): ContainerRecord {
  const r = newRecord(name, 'main', { name });
  r.current = { id: 'y', startedAt: 0, log: new ContainerLog('y') };
  return r;
}

describe('restart back-off', () => {
  it('restarts at once, then waits 10 s doubling to 5 minutes, and forgets after 10 quiet minutes', () => {
    const b = new Backoff();
    expect(b.inBackoffSince('k', 0, 0)).toBeUndefined();
    b.next('k', 0);
    expect(b.inBackoffSince('k', 1000, 1000)?.backoffMs).toBe(10_000);
    b.next('k', 11_000);
    expect(b.inBackoffSince('k', 12_000, 12_000)?.backoffMs).toBe(20_000);
    for (let i = 0; i < 10; i++) b.next('k', 20_000 + i);
    expect(b.inBackoffSince('k', 40_000, 40_000)?.backoffMs).toBe(300_000);
    b.next('k', 40_000 + 601_000);
    expect(b.inBackoffSince('k', 641_001, 641_001)?.backoffMs).toBe(10_000);
  });
});

describe('pod phase', () => {
  it('follows the kubelet getPhase rules', () => {
    expect(podPhase([], [running('a')], 'Always', false)).toBe('Running');
    expect(podPhase([], [newRecord('a', 'main', {})], 'Always', false)).toBe('Pending');
    expect(podPhase([], [exited('a', 1, 'CrashLoopBackOff')], 'Always', false)).toBe('Running');
    expect(podPhase([], [exited('a', 0)], 'Never', false)).toBe('Succeeded');
    expect(podPhase([], [exited('a', 2)], 'Never', false)).toBe('Failed');
    expect(podPhase([], [exited('a', 2)], 'OnFailure', false)).toBe('Running');
    expect(podPhase([], [exited('a', 0), running('b')], 'Never', false)).toBe('Running');
    const init = exited('init', 1);
    expect(podPhase([{ ...init, kind: 'init' }], [newRecord('a', 'main', {})], 'Never', false)).toBe('Failed');
    expect(podPhase([{ ...init, kind: 'init' }], [newRecord('a', 'main', {})], 'Always', false)).toBe('Pending');
    // A deleted pod's phase is final: killed by SIGKILL is Failed, a clean exit Succeeded.
    expect(podPhase([], [exited('a', 137)], 'Always', true)).toBe('Failed');
    expect(podPhase([], [exited('a', 0)], 'Always', true)).toBe('Succeeded');
  });
});

describe('environment', () => {
  it('expands $(VAR) as Kubernetes does', () => {
    expect(expandVars('$(A)-$(B)-$$(A)-$(MISSING)', { A: '1', B: '2' })).toBe('1-2-$(A)-$(MISSING)');
  });

  it('writes the docker-links variables of a service', () => {
    const env = Object.fromEntries(serviceEnv({ metadata: { name: 'my-svc' }, spec: { clusterIP: '10.96.1.2', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] } }));
    expect(env).toEqual({
      MY_SVC_SERVICE_HOST: '10.96.1.2',
      MY_SVC_SERVICE_PORT: '80',
      MY_SVC_SERVICE_PORT_HTTP: '80',
      MY_SVC_PORT: 'tcp://10.96.1.2:80',
      MY_SVC_PORT_80_TCP: 'tcp://10.96.1.2:80',
      MY_SVC_PORT_80_TCP_PROTO: 'tcp',
      MY_SVC_PORT_80_TCP_PORT: '80',
      MY_SVC_PORT_80_TCP_ADDR: '10.96.1.2',
    });
    expect(serviceEnv({ metadata: { name: 'headless' }, spec: { clusterIP: 'None', ports: [{ port: 80 }] } })).toEqual([]);
  });
});
