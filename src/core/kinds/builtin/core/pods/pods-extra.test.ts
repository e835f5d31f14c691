// More of the Pod behaviour of a 1.32 server: nested defaults (probes,
// volumes, env field refs, host-network ports), scheduling gates, the
// ephemeralcontainers subresource, and the STATUS/RESTARTS logic of printPod.

import { describe, expect, it } from 'vitest';
import { create, stored, update } from '../../common/testing';
import { podsResource } from './index';

const pods = podsResource();
const NOW = Date.parse('2024-12-11T12:10:00Z');
const base = (spec: Record<string, unknown>) => ({ metadata: { name: 'p', namespace: 'd' }, spec });
const cells = (pod: unknown) => pods.versions[0]!.table!.cells(pod as any, NOW);

describe('pod defaults beyond the top level', () => {
  it('defaults probes, HTTP handlers, field refs and volume sources', async () => {
    const { obj, errors } = await create(
      pods,
      base({
        containers: [
          {
            name: 'c',
            image: 'nginx:1',
            livenessProbe: { httpGet: { port: 80 } },
            env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
            volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }, { name: 'scratch', mountPath: '/tmp' }],
          },
        ],
        volumes: [{ name: 'cfg', configMap: { name: 'settings' } }, { name: 'scratch' }, { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }],
      }),
    );
    expect(errors).toEqual([]);
    const spec = obj.spec as any;
    expect(spec.containers[0].livenessProbe).toEqual({ httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(spec.containers[0].env[0].valueFrom.fieldRef.apiVersion).toBe('v1');
    expect(spec.volumes[0].configMap.defaultMode).toBe(420);
    expect(spec.volumes[1].emptyDir).toEqual({});
    expect(spec.volumes[2].projected).toEqual({ sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }], defaultMode: 420 });
  });

  it('sets hostPort = containerPort on host-network pods', async () => {
    const { obj } = await create(pods, base({ hostNetwork: true, containers: [{ name: 'c', image: 'nginx:1', ports: [{ containerPort: 8080 }] }] }));
    expect((obj.spec as any).containers[0].ports[0]).toEqual({ containerPort: 8080, protocol: 'TCP', hostPort: 8080 });
  });

  it('reports a mount of an unknown volume as not found', async () => {
    const { errors } = await create(pods, base({ containers: [{ name: 'c', image: 'nginx:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] }));
    expect(errors).toEqual(['spec.containers[0].volumeMounts[0].name: Not found: "data"']);
  });

  it('refuses requests above limits', async () => {
    const { errors } = await create(pods, base({ containers: [{ name: 'c', image: 'nginx:1', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] }));
    expect(errors).toEqual(['spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1']);
  });

  it('names a duplicate container', async () => {
    const { errors } = await create(pods, base({ containers: [{ name: 'c', image: 'a' }, { name: 'c', image: 'b' }] }));
    expect(errors).toEqual(['spec.containers[1].name: Duplicate value: "c"']);
  });
});

describe('scheduling gates and ephemeral containers', () => {
  it('starts gated pods with PodScheduled=False SchedulingGated and prints SchedulingGated', async () => {
    const pod = await stored(pods, base({ schedulingGates: [{ name: 'example.com/wait' }], containers: [{ name: 'c', image: 'nginx:1' }] }));
    expect((pod.status as any).conditions).toEqual([{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }]);
    expect(cells(pod)[2]).toBe('SchedulingGated');
  });

  it('forbids ephemeral containers on create and adds them through the subresource only', async () => {
    const onCreate = await create(pods, base({ containers: [{ name: 'c', image: 'nginx:1' }], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }));
    expect(onCreate.errors).toEqual(['spec.ephemeralContainers: Forbidden: cannot be set on create']);
    const old = await stored(pods, base({ containers: [{ name: 'c', image: 'nginx:1' }] }));
    const next = JSON.parse(JSON.stringify(old));
    next.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }];
    next.spec.containers[0].image = 'changed';
    const { obj, errors } = await update(pods, next, old, 'ephemeralcontainers');
    expect(errors).toEqual([]);
    expect((obj.spec as any).containers[0].image).toBe('nginx:1');
    expect((obj.spec as any).ephemeralContainers[0].name).toBe('debug');
  });
});

describe('printPod STATUS and RESTARTS', () => {
  const running = (extra: Record<string, unknown> = {}) => ({
    metadata: { name: 'p', creationTimestamp: '2024-12-11T12:00:00Z' },
    spec: { containers: [{ name: 'c' }], nodeName: 'n1' },
    status: {
      phase: 'Running',
      podIPs: [{ ip: '10.244.0.5' }],
      containerStatuses: [{ name: 'c', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { finishedAt: '2024-12-11T12:07:00Z', exitCode: 1 } } }],
      ...extra,
    },
  });

  it('shows a running pod with restarts and when the last one was', () => {
    expect(cells(running())).toEqual(['p', '1/1', 'Running', '2 (3m ago)', '10m', '10.244.0.5', 'n1', '<none>', '<none>']);
  });

  it('shows the waiting reason of a container', () => {
    const pod = running({ phase: 'Pending', containerStatuses: [{ name: 'c', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } }] });
    expect(cells(pod).slice(1, 4)).toEqual(['0/1', 'ImagePullBackOff', '0']);
  });

  it('shows Init:N/M while init containers run', () => {
    const pod = {
      metadata: { name: 'p', creationTimestamp: '2024-12-11T12:00:00Z' },
      spec: { initContainers: [{ name: 'i1' }, { name: 'i2' }], containers: [{ name: 'c' }] },
      status: { phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 0 } } }, { name: 'i2', state: { running: {} } }] },
    };
    expect(cells(pod).slice(1, 3)).toEqual(['0/1', 'Init:1/2']);
  });

  it('shows Terminating for a pod being deleted and Completed for a finished one', () => {
    const deleting = running();
    (deleting.metadata as any).deletionTimestamp = '2024-12-11T12:09:00Z';
    expect(cells(deleting)[2]).toBe('Terminating');
    const done = running({ phase: 'Succeeded', containerStatuses: [{ name: 'c', ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0 } } }] });
    expect(cells(done).slice(1, 3)).toEqual(['0/1', 'Completed']);
  });
});
