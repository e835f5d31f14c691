// Issue 13, Tests and measurements: kubectl 1.32 against the Node server in
// its default set-up (kind's three nodes, kubeadm's security), driving pods as
// a learner does and asserting what kubectl prints and what the API holds:
// nodes, run + logs, wait, describe's events, exec (with a ConfigMap volume
// and with stdin), cp, port-forward, top, logs -f and attach, image pull
// errors, CrashLoopBackOff through its back-offs,
// a pod that fits no node, and deletion (fast for nginx; a `sleep` killed at
// the end of its grace period). Long waits move the cluster's clock.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl } from './testing/kubectl-runner';
import { startClusterKubectl, type ClusterKubectl } from './testing/cluster-kubectl';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-cluster-pods.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let cluster: ClusterKubectl;
const ok = (args: string[], input?: string) => cluster.ok(args, input);
const kubectl = (args: string[], input?: string) => cluster.run(args, input);

/** A pod field through kubectl's jsonpath. */
const field = (pod: string, path: string) => ok(['get', 'pod', pod, '-o', `jsonpath={${path}}`]);

/** The rows of `kubectl describe`'s Events table as [type, reason, from, message]. */
function describedEvents(described: string): string[][] {
  const table = described.split('\nEvents:\n')[1] ?? '';
  return table
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [type, reason, , from, ...message] = line.trim().split(/\s{2,}/);
      return [type!, reason!, from!, message.join('  ')];
    });
}

function httpGet(port: number, path = '/'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(!KUBECTL)('kubectl 1.32 and the pods of the simulated cluster', () => {
  beforeAll(async () => {
    cluster = await startClusterKubectl(KUBECTL!, 'kubetab-cluster-pods-');
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('get nodes: three Ready nodes as kind shows them', async () => {
    // As after `kind create cluster --wait`: a fresh node is NotReady until its pod network is up.
    const waited = await cluster.fastForward(ok(['wait', '--for=condition=Ready', 'nodes', '--all', '--timeout=60s']));
    expect(waited).toBe('node/kubetab-control-plane condition met\nnode/kubetab-worker condition met\nnode/kubetab-worker2 condition met\n');
    const lines = (await ok(['get', 'nodes'])).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).filter((_, i) => i !== 3))).toEqual([
      ['kubetab-control-plane', 'Ready', 'control-plane', 'v1.32.0'],
      ['kubetab-worker', 'Ready', '<none>', 'v1.32.0'],
      ['kubetab-worker2', 'Ready', '<none>', 'v1.32.0'],
    ]);
    for (const line of lines.slice(1)) expect(line.split(/\s+/)[3]).toMatch(/^\d+s$/);
  });

  it('run -- echo, then logs prints what the container wrote; the pod is Completed', async () => {
    expect(await ok(['run', 'hello', '--image=busybox:1.36', '--restart=Never', '--', 'echo', 'hello from KubeTab'])).toBe('pod/hello created\n');
    expect(await ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/hello', '--timeout=30s'])).toBe('pod/hello condition met\n');
    expect(await ok(['logs', 'hello'])).toBe('hello from KubeTab\n');
    expect(await ok(['get', 'pod', 'hello'])).toMatch(/^hello\s+0\/1\s+Completed\s+0\s+\S+\n$/m);
    expect(await field('hello', '.status.containerStatuses[0].state.terminated.reason')).toBe('Completed');
    expect(await field('hello', '.status.containerStatuses[0].state.terminated.exitCode')).toBe('0');
  });

  it('wait --for=condition=Ready returns once nginx runs; describe shows the pod\'s events in order', async () => {
    expect(await ok(['run', 'web', '--image=nginx:1.27', '--labels=app=web'])).toBe('pod/web created\n');
    expect(await cluster.fastForward(ok(['wait', '--for=condition=Ready', 'pod/web', '--timeout=30s']))).toBe('pod/web condition met\n');
    expect(await ok(['get', 'pod', 'web'])).toMatch(/^web\s+1\/1\s+Running\s+0\s+\S+$/m);
    const node = await field('web', '.spec.nodeName');
    expect(['kubetab-worker', 'kubetab-worker2']).toContain(node);
    expect(await field('web', '.status.podIP')).toMatch(/^10\.244\.[12]\.\d+$/);
    const described = await ok(['describe', 'pod', 'web']);
    expect(described).toMatch(/^Status:\s+Running$/m);
    expect(described).toMatch(/^QoS Class:\s+BestEffort$/m);
    expect(described).toMatch(/^Events:\n {2}Type\s+Reason\s+Age\s+From\s+Message\n {2}----\s+------\s+----\s+----\s+-------\n/m);
    const events = describedEvents(described);
    expect(events.map(([type, reason, from]) => [type, reason, from])).toEqual([
      ['Normal', 'Scheduled', 'default-scheduler'],
      ['Normal', 'Pulling', 'kubelet'],
      ['Normal', 'Pulled', 'kubelet'],
      ['Normal', 'Created', 'kubelet'],
      ['Normal', 'Started', 'kubelet'],
    ]);
    expect(events[0]![3]).toBe(`Successfully assigned default/web to ${node}`);
    expect(events[1]![3]).toBe('Pulling image "nginx:1.27"');
    expect(events[2]![3]).toMatch(/^Successfully pulled image "nginx:1\.27" in [\d.]+m?s \([\d.]+m?s including waiting\)\. Image size: \d+ bytes\.$/);
    expect(events[3]![3]).toBe('Created container: web');
    expect(events[4]![3]).toBe('Started container web');
  });

  it('exec cat reads a ConfigMap mounted as a volume; exec -i sh runs stdin and passes on its exit code', async () => {
    await ok(['create', 'configmap', 'app-config', '--from-literal=key=value-from-configmap']);
    await ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata:
  name: shell
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "3600"]
    env:
    - name: GREETING
      value: hello
    volumeMounts:
    - name: config
      mountPath: /etc/config
  volumes:
  - name: config
    configMap:
      name: app-config
`,
    );
    await ok(['wait', '--for=condition=Ready', 'pod/shell', '--timeout=30s']);
    expect(await ok(['exec', 'shell', '--', 'cat', '/etc/config/key'])).toBe('value-from-configmap');
    expect(await ok(['exec', 'shell', '--', 'hostname'])).toBe('shell\n');

    const missing = await kubectl(['exec', 'shell', '--', 'cat', '/etc/config/nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cat: can\'t open \'/etc/config/nope\': No such file or directory');
    expect(missing.stderr).toContain('command terminated with exit code 1');

    const session = await kubectl(['exec', '-i', 'shell', '--', 'sh'], 'echo "$GREETING from $(hostname)"\nls /etc/config\nexit 3\n');
    expect(session.stdout).toBe('hello from shell\nkey\n');
    expect(session.code).toBe(3);
    expect(session.stderr.trim()).toBe('command terminated with exit code 3');
  });

  it('cp copies a file and a directory into a container and back out (tar over exec)', async () => {
    const local = join(cluster.server.dir, 'cp');
    mkdirSync(join(local, 'site', 'css'), { recursive: true });
    writeFileSync(join(local, 'notes.txt'), 'copied in\n');
    writeFileSync(join(local, 'site', 'index.html'), '<h1>hi</h1>\n');
    writeFileSync(join(local, 'site', 'css', 'main.css'), 'h1 { color: teal; }\n');
    expect(await ok(['cp', join(local, 'notes.txt'), 'shell:/tmp/notes.txt'])).toBe('');
    expect(await ok(['exec', 'shell', '--', 'cat', '/tmp/notes.txt'])).toBe('copied in\n');
    await ok(['cp', join(local, 'site'), 'shell:/tmp/site']);
    expect(await ok(['exec', 'shell', '--', 'cat', '/tmp/site/index.html', '/tmp/site/css/main.css'])).toBe('<h1>hi</h1>\nh1 { color: teal; }\n');

    await ok(['exec', 'shell', '--', 'sh', '-c', 'echo "made in the pod" > /tmp/out.txt']);
    const copied = await kubectl(['cp', 'shell:/tmp/out.txt', join(local, 'out.txt')]);
    expect(copied.code).toBe(0);
    // tar's warning on stderr may or may not arrive before kubectl has read the archive and ended.
    expect(copied.stderr).toMatch(/^(tar: removing leading '\/' from member names\n)?$/);
    expect(readFileSync(join(local, 'out.txt'), 'utf8')).toBe('made in the pod\n');
    await ok(['cp', 'shell:/tmp/site', join(local, 'site-back')]);
    expect(readFileSync(join(local, 'site-back', 'css', 'main.css'), 'utf8')).toBe('h1 { color: teal; }\n');
  });

  it('port-forward reaches the nginx container: an HTTP GET answers with nginx\'s page', async () => {
    const forward = cluster.background(['port-forward', 'pod/web', ':80']);
    try {
      const match = await forward.waitForOutput(/^Forwarding from 127\.0\.0\.1:(\d+) -> 80$/m);
      const response = await httpGet(Number(match[1]));
      expect(response.status).toBe(200);
      expect(response.headers.server).toMatch(/^nginx\//);
      expect(response.body).toContain('<title>Welcome to nginx!</title>');
      await forward.waitForOutput(/^Handling connection for \d+$/m);
    } finally {
      await forward.stop();
    }
  });

  it('top nodes and top pods print the simulated usage', async () => {
    const nodes = (await ok(['top', 'nodes'])).trimEnd().split('\n');
    expect(nodes[0]).toMatch(/^NAME\s+CPU\(cores\)\s+CPU%?\s*\(?%?\)?\s+MEMORY\(bytes\)\s+MEMORY%?\s*\(?%?\)?\s*$/);
    expect(nodes.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['kubetab-control-plane', 'kubetab-worker', 'kubetab-worker2']);
    for (const line of nodes.slice(1)) expect(line).toMatch(/^\S+\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%\s*$/);
    const pods = await ok(['top', 'pods']);
    expect(pods).toMatch(/^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/m);
    expect(pods).toMatch(/^web\s+\d+m\s+\d+Mi\s*$/m);
    expect(pods).toMatch(/^shell\s+\d+m\s+\d+Mi\s*$/m);
  });

  it('CrashLoopBackOff: each restart waits out a back-off that doubles, passed by moving the clock', async () => {
    expect(await ok(['run', 'crash', '--image=busybox:1.36', '--', 'sh', '-c', 'echo dying; exit 1'])).toBe('pod/crash created\n');
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=CrashLoopBackOff', 'pod/crash', '--timeout=30s']);
    const restarts = async () => Number(await field('crash', '.status.containerStatuses[0].restartCount'));
    expect(await restarts()).toBe(1);
    expect(await field('crash', '.status.containerStatuses[0].lastState.terminated.reason')).toBe('Error');
    expect(await field('crash', '.status.containerStatuses[0].lastState.terminated.exitCode')).toBe('1');
    expect(await ok(['get', 'pod', 'crash'])).toMatch(/^crash\s+0\/1\s+CrashLoopBackOff\s+1 \(\d+s ago\)\s+\S+$/m);
    expect(await ok(['logs', 'crash', '--previous'])).toBe('dying\n');

    // Back-offs of 10 s, 20 s and 40 s: restarts at about 10 s, 30 s and 70 s
    // from now, each checked a few seconds before and after.
    const expected: [number, number][] = [[7000, 1], [13_000, 2], [26_000, 2], [34_000, 3], [66_000, 3], [74_000, 4]];
    let moved = 0;
    for (const [at, count] of expected) {
      await cluster.advance(at - moved);
      moved = at;
      expect(await restarts(), `restarts ${at / 1000} s into the back-off`).toBe(count);
    }

    const events = describedEvents(await ok(['describe', 'pod', 'crash']));
    const backOff = events.find(([, reason]) => reason === 'BackOff');
    expect(backOff?.[0]).toBe('Warning');
    expect(backOff?.[3]).toMatch(/^Back-off restarting failed container crash in pod crash_default\([0-9a-f-]{36}\)$/);
    const started = (await ok(['describe', 'pod', 'crash'])).match(/Normal\s+Started\s+\S+ \(x(\d+) over \S+\)\s+kubelet/);
    expect(Number(started?.[1])).toBe(5);
  });

  it('logs -f follows a container until it ends, as the clock moves its sleeps along; attach streams a running one', async () => {
    await ok(['run', 'counter', '--image=busybox:1.36', '--restart=Never', '--', 'sh', '-c', 'for i in 1 2 3; do echo "count $i"; sleep 10; done; echo done']);
    await ok(['wait', '--for=condition=Ready', 'pod/counter', '--timeout=30s']);
    const follow = cluster.background(['logs', '-f', 'counter']);
    try {
      await follow.waitForOutput(/^count 1$/m);
      expect(follow.stdout()).toBe('count 1\n');
      await cluster.advance(10_000);
      await follow.waitForOutput(/^count 2$/m);
      await cluster.advance(20_000);
      expect(await follow.exited()).toBe(0);
      expect(follow.stdout()).toBe('count 1\ncount 2\ncount 3\ndone\n');
    } finally {
      await follow.stop();
    }
    await ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/counter', '--timeout=10s']);

    await ok(['run', 'ticker', '--image=busybox:1.36', '--', 'sh', '-c', 'while true; do echo tick; sleep 5; done']);
    await ok(['wait', '--for=condition=Ready', 'pod/ticker', '--timeout=30s']);
    const attach = cluster.background(['attach', 'ticker']);
    try {
      // attach shows what the container writes from now on: the next tick comes within its 5 s sleep.
      await cluster.fastForward(attach.waitForOutput(/^tick$/m), 500);
      const before = (attach.stdout().match(/^tick$/gm) ?? []).length;
      await cluster.advance(10_000);
      await attach.waitForOutput(new RegExp(`^(tick\n){${before + 2}}`, 'm'));
    } finally {
      await attach.stop();
    }
  });

  it('an image tag that does not exist: ErrImagePull, then ImagePullBackOff with the kubelet\'s events', async () => {
    await ok(['run', 'bad-image', '--image=nginx:does-not-exist']);
    await cluster.fastForward(ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=ImagePullBackOff', 'pod/bad-image', '--timeout=30s']));
    expect(await ok(['get', 'pod', 'bad-image'])).toMatch(/^bad-image\s+0\/1\s+ImagePullBackOff\s+0\s+\S+$/m);
    const events = describedEvents(await ok(['describe', 'pod', 'bad-image'])).map(([type, reason, , message]) => `${type} ${reason}: ${message}`);
    expect(events).toContain(
      'Warning Failed: Failed to pull image "nginx:does-not-exist": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:does-not-exist": failed to resolve reference "docker.io/library/nginx:does-not-exist": docker.io/library/nginx:does-not-exist: not found',
    );
    expect(events).toContain('Warning Failed: Error: ErrImagePull');
    expect(events).toContain('Normal BackOff: Back-off pulling image "nginx:does-not-exist"');
    expect(events).toContain('Warning Failed: Error: ImagePullBackOff');
  });

  it('a pod that fits no node stays Pending with kube-scheduler\'s FailedScheduling message', async () => {
    await ok(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata:
  name: too-big
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: "100"
`,
    );
    await ok(['wait', '--for=condition=PodScheduled=false', 'pod/too-big', '--timeout=30s']);
    expect(await ok(['get', 'pod', 'too-big'])).toMatch(/^too-big\s+0\/1\s+Pending\s+0\s+\S+$/m);
    expect(await field('too-big', '.status.conditions[?(@.type=="PodScheduled")].reason')).toBe('Unschedulable');
    const message =
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. ' +
      'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';
    expect(await field('too-big', '.status.conditions[?(@.type=="PodScheduled")].message')).toBe(message);
    const events = describedEvents(await ok(['describe', 'pod', 'too-big']));
    expect(events[0]).toEqual(['Warning', 'FailedScheduling', 'default-scheduler', message]);
  });

  it('delete pod of nginx returns at once; a `sleep` that ignores SIGTERM is killed at the end of its grace period', async () => {
    const started = Date.now();
    expect(await ok(['delete', 'pod', 'web'])).toBe('pod "web" deleted\n');
    expect(Date.now() - started).toBeLessThan(5000);
    const gone = await kubectl(['get', 'pod', 'web']);
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): pods "web" not found');

    expect(await ok(['delete', 'pod', 'shell', '--wait=false'])).toBe('pod "shell" deleted\n');
    // Still ready: the container runs until its grace period ends.
    expect(await ok(['get', 'pod', 'shell'])).toMatch(/^shell\s+1\/1\s+Terminating\s+0\s+\S+$/m);
    expect(await field('shell', '.metadata.deletionGracePeriodSeconds')).toBe('30');
    await cluster.advance(25_000);
    expect((await kubectl(['get', 'pod', 'shell'])).code).toBe(0);
    const killed = await cluster.advanceUntil(async () => (await kubectl(['get', 'pod', 'shell'])).code !== 0, 10_000);
    expect(killed).toBe(true);
    expect((await kubectl(['get', 'pod', 'shell'])).stderr.trim()).toBe('Error from server (NotFound): pods "shell" not found');
    const killing = await ok(['get', 'events', '--field-selector', 'involvedObject.name=shell,reason=Killing', '-o', 'jsonpath={.items[*].message}']);
    expect(killing).toBe('Stopping container app');
  });
});
