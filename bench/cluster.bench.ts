// Under Node: the simulated cluster at work (issues 13 and 14's benchmarks).
//   pods:        1,000 pods created on 3 nodes, until the last one is Running
//   deployment:  a Deployment of 1,000 replicas, until all are available
// Each scenario runs on a fresh `npm run serve` in a child process (--open,
// in memory): kind's three nodes (a control plane and two workers) with
// maxPods 500 each, and kube-controller-manager's --node-cidr-mask-size 22
// (1,021 pod addresses a node). A kind cluster's defaults, 110 pods and a /24
// (253 addresses) a node, with the control plane tainted, hold 220 such pods;
// the benchmark's pods tolerate the control plane's taint, so all three nodes
// run them, as a kind cluster configured the same way would.
//
// Figures: the wall time from the first create to the watch event that shows
// the last pod Running (the Deployment with all replicas available), the same
// span on the cluster's clock (creationTimestamp of the first object to a
// timestamp the server gives right after the last event: to the second), and
// the p50 of a get and a create (one in flight, in alternating batches with
// the bare node:http floor of the Node benchmark) while the pods start, as
// ratios to the same p50s on the same server idle before the workload (the
// cluster up, its nodes Ready and kube-system Running) and to the floor.
//
//   npm run bench -- cluster            both scenarios
//   BENCH_QUICK=1                       100 pods / replicas, fewer idle samples
//   BENCH_CLUSTER=pods|deployment       one scenario
//   BENCH_CLUSTER_PODS=N                N pods / replicas
//   BENCH_CLUSTER_IMAGE=IMAGE           the pods' image (default registry.k8s.io/pause:3.10)
//   BENCH_TIME_SCALE=N                  the server's --time-scale (default 1)

import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from './support/build';
import { startServer } from './support/child-server';
import { clusterSeconds, deploymentAvailable, RunningPods, watchCollection, type KubeObjectLike } from './support/cluster-watch';
import { expectStatus, httpClient, type HttpClient } from './support/http-client';
import { BATCH, GAP_MS, probeRounds, probeUntil, type ProbeTargets, type Samples } from './support/latency-probe';
import { ms, p50, ratio, table, type Row } from './support/stats';

const QUICK = process.env.BENCH_QUICK === '1';
const COUNT = Number(process.env.BENCH_CLUSTER_PODS ?? (QUICK ? 100 : 1000));
const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 1);
const SCENARIOS = (process.env.BENCH_CLUSTER ?? 'pods,deployment').split(',').map((s) => s.trim());
const IDLE_ROUNDS = QUICK ? 6 : 40;
const WARM_UP_ROUNDS = 3;
/** Creates of the workload in flight at once (as the Node benchmark fills its namespace). */
const CREATES_IN_FLIGHT = 16;
const NODES = [
  { role: 'control-plane', maxPods: 500 },
  { role: 'worker', maxPods: 500 },
  { role: 'worker', maxPods: 500 },
];
const NODE_CIDR_MASK_SIZE = 22;
/** The benchmark gives up on a workload after this long (wall time). */
const WORKLOAD_TIMEOUT_MS = 30 * 60_000;
const TARGET = '≤ 1.2x';

const CONTROL_PLANE_TOLERATION = { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' };
/**
 * The pods' image: kind's preloaded pause image by default, as the density tests of kube's own
 * clusterloader2 run, so the figures are the control plane's and the kubelets' work rather than the
 * simulated pulls (BENCH_CLUSTER_IMAGE=nginx:1.27 adds them: one pull after another on each node).
 */
const IMAGE = process.env.BENCH_CLUSTER_IMAGE ?? 'registry.k8s.io/pause:3.10';
const POD_SPEC = { containers: [{ name: 'web', image: IMAGE }], tolerations: [CONTROL_PLANE_TOLERATION] };

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));
const namespace = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

interface Cluster {
  readonly url: string;
  readonly child: ChildProcess;
}

async function startCluster(tmp: string): Promise<Cluster> {
  const nodesFile = join(tmp, 'nodes.json');
  writeFileSync(nodesFile, JSON.stringify(NODES));
  const args = ['--import', 'tsx', 'src/platform/node/cli.ts', '--port', '0', '--open', '--nodes-config', nodesFile, `--node-cidr-mask-size=${NODE_CIDR_MASK_SIZE}`];
  if (TIME_SCALE !== 1) args.push('--time-scale', String(TIME_SCALE));
  return startServer(args);
}

/** Waits (polling, wall time) until every node is Ready and kube-system's pods are all Running, twice in a row. */
async function waitForCluster(client: HttpClient, url: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  let settled = 0;
  while (settled < 2) {
    if (Date.now() > deadline) throw new Error('the cluster did not come up in 180 s');
    await sleep(1000);
    const nodes = JSON.parse(await expectStatus(client, 200, 'GET', `${url}/api/v1/nodes`)) as { items: KubeObjectLike[] };
    const ready = nodes.items.filter((n) => ((n.status?.['conditions'] ?? []) as { type: string; status: string }[]).some((c) => c.type === 'Ready' && c.status === 'True'));
    const pods = JSON.parse(await expectStatus(client, 200, 'GET', `${url}/api/v1/namespaces/kube-system/pods`)) as { items: KubeObjectLike[] };
    const running = pods.items.filter((p) => p.status?.['phase'] === 'Running');
    settled = ready.length === NODES.length && pods.items.length > 0 && running.length === pods.items.length ? settled + 1 : 0;
  }
}

/** The cluster's clock now, as the server stamps a new object (to the second). */
async function clusterNow(client: HttpClient, url: string): Promise<string> {
  const body = await expectStatus(client, 201, 'POST', `${url}/api/v1/namespaces/bench/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `clock-${Date.now()}` } }));
  return (JSON.parse(body) as KubeObjectLike).metadata!.creationTimestamp!;
}

/** The probes' objects on KubeTab, and the floor serving KubeTab's own answers to them. */
async function startProbes(tmp: string, client: HttpClient, url: string): Promise<{ targets: ProbeTargets; floor: ChildProcess; close(): void }> {
  await expectStatus(client, 201, 'POST', `${url}/api/v1/namespaces`, namespace('bench'));
  const getUrl = `${url}/api/v1/namespaces/bench/configmaps/one`;
  const createUrl = `${url}/api/v1/namespaces/bench/configmaps`;
  // Names of its own, not generateName: 5 random characters collide by the birthday bound
  // (about once in 20,000 names), and a collision would be a 409 here.
  let probes = 0;
  const createBody = () => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `probe-${probes++}`, labels: { bench: 'kubetab' } }, data: { k: 'v' } });
  await expectStatus(client, 201, 'POST', createUrl, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' }, data: { k: 'v' } }));
  writeFileSync(join(tmp, 'get.json'), await expectStatus(client, 200, 'GET', getUrl));
  writeFileSync(join(tmp, 'create.json'), await expectStatus(client, 201, 'POST', createUrl, createBody()));
  const floor = await startServer([join('bench', 'bare-node-server.mjs'), join(tmp, 'get.json'), join(tmp, 'get.json'), join(tmp, 'create.json')]);
  const probeClient = httpClient(1);
  const floorClient = httpClient(1);
  const targets: ProbeTargets = {
    kubetab: {
      get: async () => void (await expectStatus(probeClient, 200, 'GET', getUrl)),
      create: async () => void (await expectStatus(probeClient, 201, 'POST', createUrl, createBody())),
    },
    floor: {
      get: async () => void (await expectStatus(floorClient, 200, 'GET', `${floor.url}/get`)),
      create: async () => void (await expectStatus(floorClient, 201, 'POST', `${floor.url}/create`, createBody())),
    },
  };
  return {
    targets,
    floor: floor.child,
    close() {
      probeClient.close();
      floorClient.close();
    },
  };
}

/** Sends `count` creates, `CREATES_IN_FLIGHT` at a time; resolves with the earliest creationTimestamp. */
async function createAll(client: HttpClient, url: string, count: number, body: (i: number) => string): Promise<string> {
  let next = 0;
  let first = '';
  await Promise.all(
    Array.from({ length: Math.min(CREATES_IN_FLIGHT, count) }, async () => {
      while (next < count) {
        const created = JSON.parse(await expectStatus(client, 201, 'POST', url, body(next++))) as KubeObjectLike;
        const stamp = created.metadata!.creationTimestamp!;
        if (!first || stamp < first) first = stamp;
      }
    }),
  );
  return first;
}

interface Outcome {
  readonly wallMs: number;
  readonly simulatedS: number;
  readonly idle: Samples;
  readonly during: Samples;
}

/** Resolves when `reached()` holds after a watch event, logging progress every 10 s. */
function waitFor(reached: () => boolean, progress: () => string): { promise: Promise<void>; check: () => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const started = Date.now();
  const ticker = setInterval(() => {
    console.log(`  ${((Date.now() - started) / 1000).toFixed(0)} s: ${progress()}`);
    if (Date.now() - started > WORKLOAD_TIMEOUT_MS) reject(new Error(`gave up after ${WORKLOAD_TIMEOUT_MS / 60_000} min: ${progress()}`));
  }, 10_000);
  void promise.finally(() => clearInterval(ticker)).catch(() => {});
  return {
    promise,
    check: () => {
      if (reached()) resolve();
    },
  };
}

/** Brings a cluster up, samples it idle, runs the workload while probing, and tears everything down. */
async function runScenario(name: string, workload: (client: HttpClient, url: string) => Promise<{ wallMs: number; firstCreated: string }>): Promise<Outcome> {
  const probing = { done: false };
  const tmp = mkdtempSync(join(tmpdir(), `kubetab-cluster-bench-${name}-`));
  const children: ChildProcess[] = [];
  const client = httpClient(CREATES_IN_FLIGHT + 2);
  const closers: (() => void)[] = [];
  try {
    console.log(`${name}: starting a cluster of ${NODES.length} nodes…`);
    const cluster = await startCluster(tmp);
    children.push(cluster.child);
    await waitForCluster(client, cluster.url);
    const { targets, floor, close } = await startProbes(tmp, client, cluster.url);
    children.push(floor);
    closers.push(close);
    await probeRounds(targets, WARM_UP_ROUNDS); // JIT and connections
    const idle = await probeRounds(targets, IDLE_ROUNDS);
    console.log(`${name}: idle get p50 ${ms(p50(idle.kubetab.get))}, create p50 ${ms(p50(idle.kubetab.create))} (${idle.kubetab.get.length} samples each)`);
    const probe = probeUntil(targets, () => probing.done);
    // A probe's failure ends the run at once rather than after the workload.
    const probeFailure = probe.finished.then(() => new Promise<never>(() => {}));
    const { wallMs, firstCreated } = await Promise.race([workload(client, cluster.url), probeFailure]).finally(() => {
      probing.done = true;
    });
    const end = await clusterNow(client, cluster.url);
    await probe.finished;
    return { wallMs, simulatedS: clusterSeconds(firstCreated, end), idle, during: probe.samples };
  } finally {
    client.close();
    for (const close of closers) close();
    for (const child of children) child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function podsWorkload(client: HttpClient, url: string): Promise<{ wallMs: number; firstCreated: string }> {
  await expectStatus(client, 201, 'POST', `${url}/api/v1/namespaces`, namespace('bench-pods'));
  const running = new RunningPods();
  const goal = waitFor(
    () => running.count >= COUNT,
    () => `${running.count} of ${COUNT} pods Running`,
  );
  const watch = watchCollection(url, '/api/v1/namespaces/bench-pods/pods', (type, pod) => {
    running.observe(type, pod);
    goal.check();
  });
  try {
    await watch.listed;
    const started = performance.now();
    const pod = (i: number) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `web-${String(i).padStart(4, '0')}`, labels: { app: 'bench' } }, spec: POD_SPEC });
    const firstCreated = await createAll(client, `${url}/api/v1/namespaces/bench-pods/pods`, COUNT, pod);
    await goal.promise;
    return { wallMs: performance.now() - started, firstCreated };
  } finally {
    watch.stop();
  }
}

async function deploymentWorkload(client: HttpClient, url: string): Promise<{ wallMs: number; firstCreated: string }> {
  await expectStatus(client, 201, 'POST', `${url}/api/v1/namespaces`, namespace('bench-deploy'));
  let latest: KubeObjectLike | undefined;
  const goal = waitFor(
    () => latest !== undefined && deploymentAvailable(latest, COUNT),
    () => `${Number(latest?.status?.['availableReplicas'] ?? 0)} of ${COUNT} replicas available`,
  );
  const watch = watchCollection(url, '/apis/apps/v1/namespaces/bench-deploy/deployments?fieldSelector=metadata.name%3Dweb', (type, deployment) => {
    latest = type === 'DELETED' ? undefined : deployment;
    goal.check();
  });
  try {
    await watch.listed;
    const started = performance.now();
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: COUNT, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: POD_SPEC } },
    };
    const created = JSON.parse(await expectStatus(client, 201, 'POST', `${url}/apis/apps/v1/namespaces/bench-deploy/deployments`, JSON.stringify(deployment))) as KubeObjectLike;
    await goal.promise;
    return { wallMs: performance.now() - started, firstCreated: created.metadata!.creationTimestamp! };
  } finally {
    watch.stop();
  }
}

function rows(label: string, outcome: Outcome): Row[] {
  const { idle, during } = outcome;
  const latency = (operation: 'get' | 'create', what: string): Row[] => {
    const k = p50(during.kubetab[operation]);
    const kIdle = p50(idle.kubetab[operation]);
    const f = p50(during.floor[operation]);
    return [
      { figure: `${what}, p50 while ${label} (${during.kubetab[operation].length} samples)`, kubetab: ms(k), floor: `${ms(kIdle)} (same server, idle)`, ratio: ratio(k / kIdle), target: TARGET, met: Number.isFinite(k / kIdle) ? k / kIdle <= 1.2 : undefined },
      {
        figure: `${what}, p50 while ${label}, against the bare node:http floor`,
        kubetab: ms(k),
        floor: `${ms(f)} (idle server: ${ratio(kIdle / p50(idle.floor[operation]))})`,
        ratio: ratio(k / f),
        target: '',
        met: undefined,
      },
    ];
  };
  const seconds = (value: number) => `${value.toFixed(1)} s`;
  return [
    { figure: `${label}: wall time (first create → the watch shows the last)`, kubetab: seconds(outcome.wallMs / 1000), floor: '', ratio: '', target: '', met: undefined },
    { figure: `${label}: simulated time (cluster clock, to the second${TIME_SCALE !== 1 ? `; --time-scale ${TIME_SCALE}` : ''})`, kubetab: `${outcome.simulatedS.toFixed(0)} s`, floor: '', ratio: '', target: '', met: undefined },
    ...latency('get', 'get of one object'),
    ...latency('create', 'create'),
  ];
}

async function main(): Promise<void> {
  const all: Row[] = [];
  const count = COUNT.toLocaleString('en-US');
  if (SCENARIOS.includes('pods')) {
    const outcome = await runScenario('pods', podsWorkload);
    all.push(...rows(`${count} pods start (3 nodes) until Running`, outcome));
  }
  if (SCENARIOS.includes('deployment')) {
    const outcome = await runScenario('deployment', deploymentWorkload);
    all.push(...rows(`a Deployment of ${count} replicas becomes available`, outcome));
  }
  console.log(
    `\nCluster benchmark (Node host in a child process, --open, in memory, --time-scale ${TIME_SCALE}; ${NODES.length} nodes with maxPods ${NODES[0]!.maxPods}, --node-cidr-mask-size ${NODE_CIDR_MASK_SIZE}; image ${IMAGE}; probes one request in flight, ${GAP_MS} ms apart, batches of ${BATCH} alternating with the floor; idle: ${IDLE_ROUNDS} rounds before the workload):\n`,
  );
  console.log(table(all));
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'cluster.json'), JSON.stringify({ at: new Date().toISOString(), quick: QUICK, count: COUNT, timeScale: TIME_SCALE, rows: all }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
