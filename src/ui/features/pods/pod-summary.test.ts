import { describe, expect, it } from 'vitest';
import { containerNames, summarizePod } from './pod-summary';

const base = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } };

describe('summarizePod (kubectl get pods columns)', () => {
  it('shows a running pod as kubectl does', () => {
    const pod = {
      ...base,
      spec: { nodeName: 'kubetab-worker', containers: [{ name: 'a' }, { name: 'b' }] },
      status: { phase: 'Running', podIP: '10.244.1.2', containerStatuses: [{ name: 'a', ready: true, restartCount: 1, state: { running: {} } }, { name: 'b', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } }] },
    };
    expect(summarizePod(pod)).toEqual({ ready: '1/2', status: 'CrashLoopBackOff', restarts: 3, node: 'kubetab-worker', ip: '10.244.1.2' });
  });

  it('shows Pending, Init:n/m, Completed and Terminating', () => {
    expect(summarizePod({ ...base, spec: { containers: [{ name: 'a' }] }, status: { phase: 'Pending' } }).status).toBe('Pending');
    const init = { ...base, spec: { initContainers: [{ name: 'i1' }, { name: 'i2' }], containers: [{ name: 'a' }] }, status: { phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 0, reason: 'Completed' } } }, { name: 'i2', state: { running: {} } }], containerStatuses: [{ name: 'a', state: { waiting: { reason: 'PodInitializing' } } }] } };
    expect(summarizePod(init).status).toBe('Init:1/2');
    expect(summarizePod({ ...base, spec: { containers: [{ name: 'a' }] }, status: { phase: 'Succeeded', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] } }).status).toBe('Completed');
    expect(summarizePod({ ...base, metadata: { ...base.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' }, spec: { containers: [{ name: 'a' }] }, status: { phase: 'Running' } }).status).toBe('Terminating');
  });

  it('lists init containers before the regular ones', () => {
    expect(containerNames({ ...base, spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'a' }, { name: 'b' }] } })).toEqual({ all: ['i', 'a', 'b'], regular: ['a', 'b'] });
  });
});
