// Pods whose containers run commands in KubeTab's shell: output in the log,
// exit codes as reasons, init containers in order, environment and volumes
// as the container sees them, signals as PID 1 gets them, exec.

import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { startKubeletTestBed, NODE_NAME, type KubeletTestBed } from './testing/kubelet-harness';

let bed: KubeletTestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const st = (p: KubeObject): any => p.status;
const pod = (name: string, containers: unknown[], spec: Record<string, unknown> = {}) => ({ metadata: { name, labels: { app: name } }, spec: { nodeName: NODE_NAME, containers, ...spec } });
const busybox = (name: string, script: string, extra: Record<string, unknown> = {}) => ({ name, image: 'busybox:1.37', command: ['sh', '-c', script], ...extra });

async function exec(b: KubeletTestBed, name: string, container: string, command: string[]): Promise<{ out: string; code: number }> {
  const session = await b.manager.connection.exec(await b.ref(name), { container, command, stdin: false, tty: false });
  let out = '';
  session.onOutput((_s, d) => (out += new TextDecoder().decode(d)));
  const { exitCode } = await session.done;
  return { out, code: exitCode };
}

describe('pods running shell commands', () => {
  it('runs a one-shot command to Succeeded (Completed) and keeps its output', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('hello', [busybox('c', 'echo hello from $HOSTNAME; exit 0')], { restartPolicy: 'Never' }));
    await b.advance(3000);
    expect(await b.until(async () => st(await b.pod('hello')).phase === 'Succeeded')).toBe(true);
    const s = st(await b.pod('hello'));
    expect(s.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(s.conditions.find((c: { type: string }) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(s.conditions.find((c: { type: string }) => c.type === 'PodReadyToStartContainers').status).toBe('False');
    expect(await b.logText('hello', { container: 'c' })).toBe('hello from hello\n');
  });

  it('fails a pod whose command exits 3 with restartPolicy Never', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('bad', [busybox('c', 'echo oops >&2; exit 3')], { restartPolicy: 'Never' }));
    await b.advance(3000);
    expect(await b.until(async () => st(await b.pod('bad')).phase === 'Failed')).toBe(true);
    expect(st(await b.pod('bad')).containerStatuses[0].state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
  });

  it('runs init containers one after another before the app, sharing an emptyDir', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(
      pod('init', [busybox('app', 'cat /work/msg; sleep 3600', { volumeMounts: [{ name: 'w', mountPath: '/work' }] })], {
        volumes: [{ name: 'w', emptyDir: {} }],
        initContainers: [
          busybox('first', 'echo one > /work/msg; sleep 5', { volumeMounts: [{ name: 'w', mountPath: '/work' }] }),
          busybox('second', 'echo two >> /work/msg', { volumeMounts: [{ name: 'w', mountPath: '/work' }] }),
        ],
      }),
    );
    await b.advance(3000);
    let s = st(await b.pod('init'));
    expect(s.phase).toBe('Pending');
    expect(s.conditions.find((c: { type: string }) => c.type === 'Initialized')).toMatchObject({ status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [first second]' });
    expect(s.containerStatuses[0].state.waiting.reason).toBe('PodInitializing');
    await b.advance(6000);
    expect(await b.until(async () => st(await b.pod('init')).phase === 'Running')).toBe(true);
    s = st(await b.pod('init'));
    expect(s.initContainerStatuses.map((c: { state: { terminated?: { reason: string } } }) => c.state.terminated?.reason)).toEqual(['Completed', 'Completed']);
    expect(await b.logText('init', { container: 'app' })).toBe('one\ntwo\n');
  });

  it('gives the container its env, envFrom, downward API, service links and volume files', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.ts.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cfg' }, data: { key: 'value-1', COLOR: 'blue' } });
    await b.ts.post('/api/v1/namespaces/default/secrets', { metadata: { name: 'sec' }, stringData: { password: 's3cret' } });
    await b.ts.post('/api/v1/namespaces/default/services', { metadata: { name: 'web-svc' }, spec: { ports: [{ name: 'http', port: 80 }] } });
    await b.createPod(
      pod('env', [
        busybox('c', 'sleep 3600', {
          env: [
            { name: 'GREETING', value: 'hi $(COLOR)' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'PASS', valueFrom: { secretKeyRef: { name: 'sec', key: 'password' } } },
            { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
          ],
          envFrom: [{ configMapRef: { name: 'cfg' } }],
          resources: { limits: { memory: '64Mi' } },
          volumeMounts: [
            { name: 'config', mountPath: '/etc/config' },
            { name: 'info', mountPath: '/etc/podinfo' },
          ],
        }),
      ], {
        volumes: [
          { name: 'config', configMap: { name: 'cfg' } },
          { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
        ],
      }),
    );
    await b.advance(3000);
    expect(await b.until(async () => st(await b.pod('env')).phase === 'Running')).toBe(true);
    const env = (await exec(b, 'env', 'c', ['env'])).out;
    expect(env).toContain('GREETING=hi blue\n');
    expect(env).toContain('POD_NAME=env\n');
    expect(env).toContain('POD_IP=10.244.1.2\n');
    expect(env).toContain('PASS=s3cret\n');
    expect(env).toContain('MEM=64\n');
    expect(env).toContain('key=value-1\n');
    expect(env).toMatch(/WEB_SVC_SERVICE_HOST=\d+\.\d+\.\d+\.\d+\n/);
    expect(env).toContain('WEB_SVC_SERVICE_PORT_HTTP=80\n');
    expect(await exec(b, 'env', 'c', ['cat', '/etc/config/key'])).toEqual({ out: 'value-1', code: 0 });
    expect((await exec(b, 'env', 'c', ['cat', '/etc/podinfo/labels'])).out).toBe('app="env"');
    expect((await exec(b, 'env', 'c', ['cat', '/etc/hostname'])).out).toBe('env\n');
    expect((await exec(b, 'env', 'c', ['sh', '-c', 'echo x > /etc/config/new'])).code).not.toBe(0);
  });

  it('kills `sleep` as PID 1 at the end of the grace period, since it ignores SIGTERM', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('sleeper', [busybox('c', 'sleep 3600')], { terminationGracePeriodSeconds: 20 }));
    await b.advance(3000);
    expect(await b.until(async () => st(await b.pod('sleeper')).phase === 'Running')).toBe(true);
    await b.ts.del('/api/v1/namespaces/default/pods/sleeper');
    await b.advance(10_000);
    expect((await b.ts.get('/api/v1/namespaces/default/pods/sleeper')).status).toBe(200);
    await b.advance(11_000);
    expect(await b.until(async () => (await b.ts.get('/api/v1/namespaces/default/pods/sleeper')).status === 404)).toBe(true);
  });

  it('reports a command the image does not have as StartError / RunContainerError', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('nocmd', [{ name: 'c', image: 'busybox', command: ['foo'] }]));
    await b.advance(3000);
    expect(await b.until(async () => (st(await b.pod('nocmd')).containerStatuses?.[0]?.lastState?.terminated?.reason ?? '') === 'StartError')).toBe(true);
    const c = st(await b.pod('nocmd')).containerStatuses[0];
    expect(c.lastState.terminated.exitCode).toBe(128);
    expect(c.lastState.terminated.message).toContain('exec: "foo": executable file not found in $PATH: unknown');
    expect(['RunContainerError', 'CrashLoopBackOff']).toContain(c.state.waiting.reason);
  });

  it('fast-forwards a logging loop with the Clock: each line stamped with its own time', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('loop', [busybox('c', 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 5; done')]));
    await b.advance(3000);
    expect(await b.until(async () => st(await b.pod('loop')).phase === 'Running')).toBe(true);
    b.clock.advance(60_000);
    expect(await b.until(async () => (await b.logText('loop', { container: 'c' })).includes('tick 13\n'))).toBe(true);
    const stamped = (await b.logText('loop', { container: 'c', timestamps: true })).trim().split('\n');
    const times = stamped.map((l) => Date.parse(l.split(' ')[0]!));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(4999);
    expect(times[1]! - times[0]!).toBeLessThan(5001);
  });
});
