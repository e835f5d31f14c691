// The browser host's simulated nodes (issue 13) with the whole controller set
// and memory storage: the topology comes from the configuration document and
// is changed by saving it; a node stopped through the host stays stopped
// across a restart of the worker and goes NotReady when the clock passes the
// node-lifecycle controller's grace period; an exec from the page runs as the
// page's identity through the API (authorization included); a running pod
// survives the worker's restart.

import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, type Clock } from '../../core/clock';
import { createMemoryPersistence } from '../../core/storage/memory-persistence';
import type { ClusterConfiguration } from './cluster-config';
import { ClusterHost } from './cluster-host';
import { resultOf } from './exec-client';
import type { HostSettings } from './host-settings';
import type { ExecSessionMessage } from './messages';

function memorySettings(): HostSettings & { stopped: string[] } {
  let saved: ClusterConfiguration | undefined;
  let offset = 0;
  const s = {
    stopped: [] as string[],
    configuration: async () => saved,
    saveConfiguration: async (c: ClusterConfiguration) => {
      saved = structuredClone(c);
    },
    clockOffset: async () => offset,
    saveClockOffset: async (o: number) => {
      offset = o;
    },
    stoppedNodes: async () => s.stopped,
    saveStoppedNodes: async (names: readonly string[]) => {
      s.stopped = [...names];
    },
  };
  return s;
}

const hosts: ClusterHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.shutdown()));
});

/** One clock for a test's hosts, as the stored offset keeps one cluster time across worker restarts. */
function newHost(settings: HostSettings, persistence: ReturnType<typeof createMemoryPersistence>, clock: Clock): ClusterHost {
  const host = new ClusterHost({ persistence: () => persistence, settings, maxWatchSeconds: 60, clock: () => clock, log: () => {} });
  hosts.push(host);
  return host;
}

async function call(host: ClusterHost, token: string, method: string, path: string, body?: unknown) {
  const init: RequestInit = { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await host.handle(new Request(`http://kubetab.test${path}`, init));
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, text, json: (text.startsWith('{') ? JSON.parse(text) : undefined) as any };
}

/**
 * Lets the cluster finish what it has in hand: waits for idle(), moving the
 * clock 100 ms whenever the work left waits on a timer (a kubelet's pull, a
 * controller's resync). A restart waits for the cluster's start-up to have
 * settled, so the tests settle before each one.
 */
async function settle(host: ClusterHost, clock: Clock): Promise<void> {
  let idle = false;
  const done = (await host.server()).idle().then(() => {
    idle = true;
  });
  for (let i = 0; i < 3000 && !idle; i++) {
    // A few turns of the event loop for the work in flight (idle() needs two quiet ones), then time moves on.
    for (let turn = 0; turn < 8 && !idle; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    if (!idle) clock.advance(100);
  }
  await done;
}

/** Moves the clock a second at a time, letting the cluster settle, until `done` holds (at most `seconds`). */
async function until(host: ClusterHost, clock: Clock, done: () => Promise<boolean>, seconds = 120): Promise<boolean> {
  for (let i = 0; i <= seconds; i++) {
    await settle(host, clock);
    if (await done()) return true;
    clock.advance(1000);
  }
  return false;
}

function nodeReady(node: { status?: { conditions?: { type: string; status: string }[] } }): string | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

/** An exec as the page sends it; collects the output and the final status. */
async function exec(host: ClusterHost, token: string, pod: string, command: string[]) {
  const channel = new MessageChannel();
  let stdout = '';
  let status: unknown;
  const closed = new Promise<void>((resolve) => {
    channel.port1.onmessage = (event: MessageEvent<ExecSessionMessage>) => {
      const m = event.data;
      if (m.kind === 'close') return resolve();
      if (m.data[0] === 1) stdout += new TextDecoder().decode(m.data.subarray(1));
      if (m.data[0] === 3) status = JSON.parse(new TextDecoder().decode(m.data.subarray(1)));
    };
  });
  const outcome = await host.exec('http://kubetab.test', { namespace: 'default', pod, command, headers: [['authorization', `Bearer ${token}`]], session: channel.port2 });
  if (!outcome.start.accepted) {
    channel.port1.close();
    return { start: outcome.start };
  }
  await outcome.finished;
  await closed;
  channel.port1.close();
  return { start: outcome.start, stdout, result: resultOf(status as never) };
}

describe('the browser cluster runs nodes (issue 13)', () => {
  it('takes its topology from the document, runs pods, execs as the page identity, stops nodes and resumes after a restart', { timeout: 120_000 }, async () => {
    const settings = memorySettings();
    const persistence = createMemoryPersistence();
    const clock = manualClock();
    let host = newHost(settings, persistence, clock);
    const state = await host.configurationState();
    const admin = state.administrator!.token;
    const bob = state.document.tokens!.find((t) => t.user === 'bob')!.token;
    await settle(host, clock);

    // A control plane and one bigger worker, instead of kind's three nodes.
    const topology = [{ name: 'kubetab-control-plane', role: 'control-plane' }, { name: 'kubetab-worker', role: 'worker', cpu: '8', memory: '16Gi' }];
    const saved = await host.save({ ...state.document, nodes: topology });
    expect(saved.problems).toEqual([]);
    expect(saved.saved).toBe(true);
    await settle(host, clock);
    const nodes = await host.nodesState();
    expect(nodes.nodes.map((n) => [n.config.name, n.config.role, n.config.cpu, n.stopped, n.running])).toEqual([
      ['kubetab-control-plane', 'control-plane', '4', false, true],
      ['kubetab-worker', 'worker', '8', false, true],
    ]);
    expect(await until(host, clock, async () => (await call(host, admin, 'GET', '/api/v1/nodes')).json.items.filter((n: never) => nodeReady(n) === 'True').length === 2)).toBe(true);
    const worker = (await call(host, admin, 'GET', '/api/v1/nodes/kubetab-worker')).json;
    expect(worker.status.capacity).toMatchObject({ cpu: '8', memory: '16Gi', pods: '110' });

    // An invalid topology is refused with the field it is about; nothing changes.
    const refused = await host.save({ ...saved.state.document, nodes: [{ role: 'worker', cpu: 'lots' }] });
    expect(refused.saved).toBe(false);
    expect(refused.problems).toEqual([{ field: 'nodes[0].cpu', message: 'nodes[0].cpu: "lots" is not a quantity' }]);

    // A pod runs on the worker (the control plane is tainted NoSchedule).
    const created = await call(host, admin, 'POST', '/api/v1/namespaces/default/pods', {
      metadata: { name: 'hello' },
      spec: { containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'echo hi; sleep 3600'] }] },
    });
    expect(created.status, created.text).toBe(201);
    const pod = async () => (await call(host, admin, 'GET', '/api/v1/namespaces/default/pods/hello')).json;
    expect(await until(host, clock, async () => (await pod()).status?.phase === 'Running')).toBe(true);
    const running = await pod();
    expect(running.spec.nodeName).toBe('kubetab-worker');
    expect((await call(host, admin, 'GET', '/api/v1/namespaces/default/pods/hello/log')).text).toBe('hi\n');

    // exec as the administrator: output and exit code through the channel protocol.
    const ok = await exec(host, admin, 'hello', ['sh', '-c', 'echo from exec; exit 3']);
    expect(ok.start).toEqual({ accepted: true, protocol: 'v5.channel.k8s.io' });
    expect(ok.stdout).toBe('from exec\n');
    expect(ok.result).toMatchObject({ exitCode: 3, reason: 'NonZeroExitCode' });
    // bob has no RBAC rights: kube-apiserver's 403 for the exec's GET.
    const denied = await exec(host, bob, 'hello', ['true']);
    expect(denied.start).toMatchObject({ accepted: false, status: 403 });
    expect(JSON.parse((denied.start as { body: string }).body).message).toBe('pods "hello" is forbidden: User "bob" cannot get resource "pods/exec" in API group "" in the namespace "default"');

    // Stopping the control plane: it stays stopped across a restart, and goes Unknown after the grace period.
    expect((await host.stopNode('kubetab-control-plane')).nodes.map((n) => [n.stopped, n.running])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(settings.stopped).toEqual(['kubetab-control-plane']);
    await settle(host, clock);
    await host.shutdown();
    host = newHost(settings, persistence, clock);
    await settle(host, clock);
    expect((await host.nodesState()).nodes.map((n) => [n.stopped, n.running])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(await until(host, clock, async () => nodeReady((await call(host, admin, 'GET', '/api/v1/nodes/kubetab-control-plane')).json) === 'Unknown')).toBe(true);
    expect(nodeReady((await call(host, admin, 'GET', '/api/v1/nodes/kubetab-worker')).json)).toBe('True');

    // The pod kept running through the restart, with the same IP and its log.
    const after = await pod();
    expect(after.status.phase).toBe('Running');
    expect(after.status.podIP).toBe(running.status.podIP);
    expect(after.status.containerStatuses[0].restartCount).toBe(0);
    expect((await call(host, admin, 'GET', '/api/v1/namespaces/default/pods/hello/log')).text).toBe('hi\n');

    // Started again, the node is Ready again.
    expect((await host.startNode('kubetab-control-plane')).nodes.map((n) => [n.stopped, n.running])).toEqual([
      [false, true],
      [false, true],
    ]);
    expect(settings.stopped).toEqual([]);
    expect(await until(host, clock, async () => nodeReady((await call(host, admin, 'GET', '/api/v1/nodes/kubetab-control-plane')).json) === 'True')).toBe(true);

    // Removing the worker from the topology removes its Node (as an operator's kubectl delete node).
    await settle(host, clock);
    const removed = await host.save({ ...saved.state.document, nodes: [topology[0]] });
    expect(removed.saved).toBe(true);
    expect((await call(host, admin, 'GET', '/api/v1/nodes/kubetab-worker')).status).toBe(404);
  });
});
