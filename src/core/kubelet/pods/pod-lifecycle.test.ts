// The life of a pod on a simulated node, seen through the API as on kind:
// status, conditions, events and logs as the kubelet reports them.

import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { startKubeletTestBed, NODE_IP, NODE_NAME, type KubeletTestBed } from './testing/kubelet-harness';

let bed: KubeletTestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const st = (p: KubeObject): any => p.status;
const pod = (name: string, containers: unknown[], spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { nodeName: NODE_NAME, containers, ...spec } });

async function phaseOf(b: KubeletTestBed, name: string): Promise<string> {
  return st(await b.pod(name)).phase;
}

describe('pod lifecycle', () => {
  it('runs an nginx pod to Running with the status, events and log of a real kubelet', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('web', [{ name: 'nginx', image: 'nginx' }]));
    await b.idle();
    // Pulling: the container waits in ContainerCreating.
    let p = await b.pod('web');
    expect(st(p).phase).toBe('Pending');
    expect(st(p).containerStatuses[0].state.waiting.reason).toBe('ContainerCreating');
    expect(st(p).hostIP).toBe(NODE_IP);
    await b.advance(5000);
    expect(await b.until(async () => (await phaseOf(b, 'web')) === 'Running')).toBe(true);
    p = await b.pod('web');
    const s = st(p);
    expect(s.podIP).toBe('10.244.1.2');
    expect(s.podIPs).toEqual([{ ip: '10.244.1.2' }]);
    expect(s.hostIPs).toEqual([{ ip: NODE_IP }]);
    expect(s.qosClass).toBe('BestEffort');
    expect(s.startTime).toBeTruthy();
    const c = s.containerStatuses[0];
    expect(c.name).toBe('nginx');
    expect(c.ready).toBe(true);
    expect(c.started).toBe(true);
    expect(c.restartCount).toBe(0);
    expect(c.image).toBe('docker.io/library/nginx:latest');
    expect(c.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(c.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(c.state.running.startedAt).toBeTruthy();
    const conditions = Object.fromEntries(s.conditions.map((x: { type: string; status: string }) => [x.type, x.status]));
    expect(conditions).toMatchObject({ PodReadyToStartContainers: 'True', Initialized: 'True', Ready: 'True', ContainersReady: 'True' });
    expect(s.conditions.map((x: { type: string }) => x.type).slice(0, 4)).toEqual(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady']);
    const events = await b.events('web');
    expect(events).toContain('Pulling: Pulling image "nginx"');
    expect(events.find((e) => e.startsWith('Pulled: Successfully pulled image "nginx" in '))).toMatch(/including waiting\)\. Image size: \d+ bytes\.$/);
    expect(events).toContain('Created: Created container: nginx');
    expect(events).toContain('Started: Started container nginx');
    const log = await b.logText('web', { container: 'nginx' });
    expect(log).toContain('/docker-entrypoint.sh: Configuration complete; ready for start up');
    expect(log).toContain('[notice] 1#1: start worker processes');
    const stamped = await b.logText('web', { container: 'nginx', timestamps: true, tailLines: 1 });
    expect(stamped).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z .*start worker process 30\n$/);
  });

  it('ends a deleted nginx pod at once: Killing, SIGTERM, then the pod is removed', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('web', [{ name: 'nginx', image: 'nginx', imagePullPolicy: 'IfNotPresent' }]));
    await b.advance(5000);
    expect(await b.until(async () => (await phaseOf(b, 'web')) === 'Running')).toBe(true);
    const del = await b.ts.del('/api/v1/namespaces/default/pods/web');
    expect(del.status).toBe(200);
    expect(await b.until(async () => (await b.ts.get('/api/v1/namespaces/default/pods/web')).status === 404)).toBe(true);
    expect(await b.events('web')).toContain('Killing: Stopping container nginx');
  });

  it('kills a process that ignores SIGTERM at the end of its grace period', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    // The pause image's process runs as PID 1 of a shell-less image and handles SIGTERM; a `sleep` does not (see shell tests).
    await b.createPod(pod('p', [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }], { terminationGracePeriodSeconds: 10 }));
    await b.advance(1000);
    expect(await b.until(async () => (await phaseOf(b, 'p')) === 'Running')).toBe(true);
    expect(await b.events('p')).toContain('Pulled: Container image "registry.k8s.io/pause:3.10" already present on machine');
  });

  it('keeps a terminating container ready until it stops: a `sleep` ignoring SIGTERM runs out its grace period', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('sleeper', [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }], { terminationGracePeriodSeconds: 10 }));
    await b.advance(5000);
    expect(await b.until(async () => (await phaseOf(b, 'sleeper')) === 'Running')).toBe(true);
    expect((await b.ts.del('/api/v1/namespaces/default/pods/sleeper')).status).toBe(200);
    await b.advance(5000);
    const terminating = await b.pod('sleeper');
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();
    expect(st(terminating).containerStatuses[0]).toMatchObject({ ready: true, started: true });
    expect(st(terminating).containerStatuses[0].state.running).toBeDefined();
    expect(st(terminating).conditions.find((c: { type: string }) => c.type === 'Ready').status).toBe('True');
    await b.advance(6000);
    expect(await b.until(async () => (await b.ts.get('/api/v1/namespaces/default/pods/sleeper')).status === 404)).toBe(true);
    expect(await b.events('sleeper')).toContain('Killing: Stopping container app');
  });

  it('reports a crashing container as Error, restarts it at once, then CrashLoopBackOff with the kubelet back-off', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    // postgres without POSTGRES_PASSWORD exits 1 at once, as its entrypoint does.
    await b.createPod(pod('db', [{ name: 'postgres', image: 'postgres:17', imagePullPolicy: 'IfNotPresent' }]));
    await b.advance(8000);
    expect(await b.until(async () => st(await b.pod('db')).containerStatuses[0].state.waiting?.reason === 'CrashLoopBackOff')).toBe(true);
    let c = st(await b.pod('db')).containerStatuses[0];
    expect(c.restartCount).toBe(1);
    expect(c.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(c.state.waiting.message).toMatch(/^back-off 10s restarting failed container=postgres pod=db_default\(/);
    expect(st(await b.pod('db')).phase).toBe('Running');
    const events = await b.events('db');
    expect(events.some((e) => e.startsWith('BackOff: Back-off restarting failed container postgres in pod db_default('))).toBe(true);
    const previous = await b.logText('db', { container: 'postgres', previous: true });
    expect(previous).toContain('Error: Database is uninitialized and superuser password is not specified.');
    // After 10 s it restarts, fails, and waits 20 s.
    await b.advance(10_000);
    expect(await b.until(async () => /^back-off 20s/.test(st(await b.pod('db')).containerStatuses[0].state.waiting?.message ?? ''))).toBe(true);
    c = st(await b.pod('db')).containerStatuses[0];
    expect(c.restartCount).toBe(2);
  });

  it('reports ErrImagePull then ImagePullBackOff for a missing tag, and InvalidImageName for a bad reference', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('missing', [{ name: 'app', image: 'nginx:does-not-exist' }]));
    await b.createPod(pod('bad', [{ name: 'app', image: 'Nginx' }]));
    await b.advance(1000, 500);
    expect(await b.until(async () => st(await b.pod('missing')).containerStatuses[0].state.waiting?.reason === 'ErrImagePull')).toBe(true);
    const waiting = st(await b.pod('missing')).containerStatuses[0].state.waiting;
    expect(waiting.message).toBe('rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:does-not-exist": failed to resolve reference "docker.io/library/nginx:does-not-exist": docker.io/library/nginx:does-not-exist: not found');
    await b.advance(2000, 500);
    expect(await b.until(async () => st(await b.pod('missing')).containerStatuses[0].state.waiting?.reason === 'ImagePullBackOff')).toBe(true);
    expect(st(await b.pod('missing')).containerStatuses[0].state.waiting.message).toBe('Back-off pulling image "nginx:does-not-exist"');
    const events = await b.events('missing');
    expect(events).toContain('Failed: Error: ErrImagePull');
    expect(events).toContain('BackOff: Back-off pulling image "nginx:does-not-exist"');
    const bad = st(await b.pod('bad')).containerStatuses[0].state.waiting;
    expect(bad.reason).toBe('InvalidImageName');
    expect(bad.message).toBe('Failed to apply default image tag "Nginx": couldn\'t parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase');
  });

  it('reports CreateContainerConfigError for a missing ConfigMap key and starts once it exists', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.ts.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cfg' }, data: { other: 'x' } });
    await b.createPod(pod('p', [{ name: 'app', image: 'redis:7', env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode' } } }] }]));
    await b.advance(3000);
    expect(await b.until(async () => st(await b.pod('p')).containerStatuses[0].state.waiting?.reason === 'CreateContainerConfigError')).toBe(true);
    expect(st(await b.pod('p')).containerStatuses[0].state.waiting.message).toBe("couldn't find key mode in ConfigMap default/cfg");
    expect(await b.events('p')).toContain("Failed: Error: couldn't find key mode in ConfigMap default/cfg");
    await b.ts.put('/api/v1/namespaces/default/configmaps/cfg', { metadata: { name: 'cfg' }, data: { mode: 'fast' } });
    await b.advance(10_000);
    expect(await b.until(async () => (await phaseOf(b, 'p')) === 'Running')).toBe(true);
    expect(await b.logText('p', { container: 'app' })).toContain('Ready to accept connections tcp');
  });

  it('waits for an unbound claim and reports FailedMount after the kubelet\'s wait', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('p', [{ name: 'app', image: 'nginx' }], { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] }));
    await b.advance(130_000, 5000);
    expect(st(await b.pod('p')).phase).toBe('Pending');
    const events = await b.events('p');
    expect(events.some((e) => e.startsWith('FailedMount: Unable to attach or mount volumes: unmounted volumes=[data]') && e.includes('persistentvolumeclaims "data" not found'))).toBe(true);
  });

  it('answers httpGet readiness probes from nginx and tcpSocket probes from redis', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('web', [{ name: 'nginx', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 } }]));
    await b.advance(4000);
    expect(await b.until(async () => (await phaseOf(b, 'web')) === 'Running')).toBe(true);
    await b.advance(2000);
    expect(await b.until(async () => st(await b.pod('web')).containerStatuses[0].ready === true)).toBe(true);
    expect(await b.logText('web', { container: 'nginx' })).toMatch(/10\.244\.1\.1 - - \[.*\] "GET \/ HTTP\/1\.1" 200 615 "-" "kube-probe\/1\.32" "-"/);
  });

  it('fails a liveness probe on a port nobody listens on and restarts the container', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('web', [{ name: 'nginx', image: 'nginx:1.27', livenessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 5, failureThreshold: 2 } }]));
    await b.advance(30_000);
    expect(await b.until(async () => st(await b.pod('web')).containerStatuses[0].restartCount >= 1)).toBe(true);
    const events = await b.events('web');
    expect(events.some((e) => /^Unhealthy: Liveness probe failed: dial tcp 10\.244\.1\.2:8080: connect: connection refused$/.test(e))).toBe(true);
    expect(events).toContain('Killing: Container nginx failed liveness probe, will be restarted');
  });

  it('serves previous-log errors and port-forward with nginx\'s page', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('web', [{ name: 'nginx', image: 'nginx:1.27' }]));
    await b.advance(5000);
    expect(await b.until(async () => (await phaseOf(b, 'web')) === 'Running')).toBe(true);
    await expect(b.logText('web', { container: 'nginx', previous: true })).rejects.toThrow('previous terminated container "nginx" in pod "web" not found');
    const stream = await b.manager.connection.portForward(await b.ref('web'), 80);
    let answer = '';
    stream.onData((d) => (answer += new TextDecoder().decode(d)));
    stream.write(new TextEncoder().encode('GET / HTTP/1.1\r\nHost: localhost:8080\r\nUser-Agent: curl/8.5.0\r\n\r\n'));
    await stream.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toContain('<title>Welcome to nginx!</title>');
    await expect(b.manager.connection.portForward(await b.ref('web'), 9090)).rejects.toThrow(/connection refused/);
  });

  it('resumes a running pod after a kubelet restart: same container, log replayed, still Running', async () => {
    bed = await startKubeletTestBed();
    const b = bed;
    await b.createPod(pod('web', [{ name: 'nginx', image: 'nginx:1.27' }]));
    await b.advance(5000);
    expect(await b.until(async () => (await phaseOf(b, 'web')) === 'Running')).toBe(true);
    const before = st(await b.pod('web')).containerStatuses[0];
    await b.restartKubelet();
    await b.advance(1000);
    const after = st(await b.pod('web')).containerStatuses[0];
    expect(after.containerID).toBe(before.containerID);
    expect(after.state.running.startedAt).toBe(before.state.running.startedAt);
    expect(after.restartCount).toBe(0);
    expect(await b.logText('web', { container: 'nginx' })).toContain('start worker processes');
  });
});
