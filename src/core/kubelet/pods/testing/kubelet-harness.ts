// A test server with one simulated node's pod manager running against it
// as that node's kubelet (identity system:node:<name>, from its
// User-Agent, as the hosts serve it), on a manual Clock: tests create pods
// bound to the node, move the Clock and read status, events and logs
// through the API and the kubelet's connection.

import { manualClock, type Clock } from '../../../clock';
import { startTestServer, type TestServer } from '../../../../test-support/api-harness';
import { identityForUserAgent } from '../../../api/access/internal-identities';
import { ApiClient } from '../../../controllers/client/api-client';
import { Activity } from '../../../controllers/runtime/activity';
import { EventRecorder } from '../../../controllers/runtime/event-recorder';
import { ClockTimers } from '../../../util/clock-timers';
import type { KubeObject } from '../../../kinds/types';
import type { LogOptions, PodRef } from '../../connection';
import { DEFAULT_NODE_SIZE, type NodeConfig } from '../../topology';
import { startPodManager, type PodManager } from '../pod-manager';

export const NODE_NAME = 'kubetab-worker';
export const NODE_IP = '172.18.0.3';
export const POD_CIDR = '10.244.1.0/24';

export interface KubeletTestBed {
  readonly ts: TestServer;
  readonly clock: Clock;
  readonly logs: string[];
  manager: PodManager;
  /** Waits until the kubelet has no work in hand. */
  idle(): Promise<void>;
  /** Moves the Clock forward in steps (each step lets the fired timers' work finish). */
  advance(ms: number, stepMs?: number): Promise<void>;
  createPod(pod: KubeObject, namespace?: string): Promise<KubeObject>;
  pod(name: string, namespace?: string): Promise<KubeObject>;
  /** Messages of the pod's events as "Reason: message" (in creation order). */
  events(name: string, namespace?: string): Promise<string[]>;
  logText(name: string, options: LogOptions, namespace?: string): Promise<string>;
  ref(name: string, namespace?: string): Promise<PodRef>;
  /** Polls until the check passes (real time, bounded), advancing nothing. */
  until(check: () => Promise<boolean>, timeoutMs?: number): Promise<boolean>;
  /** Restarts the kubelet (a host restart): a new pod manager reading the API's state. */
  restartKubelet(): Promise<void>;
  close(): Promise<void>;
}

export const TEST_NODE: NodeConfig = { name: NODE_NAME, role: 'worker', ...DEFAULT_NODE_SIZE };

export async function startKubeletTestBed(clock: Clock = manualClock()): Promise<KubeletTestBed> {
  const ts = await startTestServer({}, clock);
  const node = await ts.post('/api/v1/nodes', {
    metadata: { name: NODE_NAME, labels: { 'kubernetes.io/hostname': NODE_NAME, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' } },
    spec: { podCIDR: POD_CIDR, podCIDRs: [POD_CIDR] },
  });
  if (node.status !== 201) throw new Error(`node: ${node.text}`);
  const userAgent = `kubelet/v1.32.0 (linux/amd64) kubernetes/kubetab/system:node:${NODE_NAME}`;
  const client = new ApiClient({ send: (r, ua) => ts.server.handleAs(r, identityForUserAgent(ua ?? r.headers.get('user-agent'))), userAgent });
  const logs: string[] = [];
  let activity = new Activity();
  let timers = new ClockTimers(clock, (err) => logs.push(`timer: ${String(err)}`));
  const start = () =>
    startPodManager({
      client,
      clock,
      timers,
      activity,
      node: TEST_NODE,
      nodeIP: NODE_IP,
      podCIDR: POD_CIDR,
      recorder: new EventRecorder(client, clock, { component: 'kubelet', host: NODE_NAME }, (m) => logs.push(m)),
      log: (m) => logs.push(m),
    });
  const bed: KubeletTestBed = {
    ts,
    clock,
    logs,
    manager: start(),
    idle: () => activity.idle(),
    async advance(ms, stepMs = 1000) {
      for (let left = ms; left > 0; left -= stepMs) {
        clock.advance(Math.min(stepMs, left));
        await activity.idle();
      }
    },
    async createPod(pod, namespace = 'default') {
      const res = await ts.post(`/api/v1/namespaces/${namespace}/pods`, pod);
      if (res.status !== 201) throw new Error(`create pod: ${res.text}`);
      return res.body as KubeObject;
    },
    async pod(name, namespace = 'default') {
      return (await ts.get(`/api/v1/namespaces/${namespace}/pods/${name}`)).body as KubeObject;
    },
    async events(name, namespace = 'default') {
      const list = (await ts.get(`/api/v1/namespaces/${namespace}/events?fieldSelector=involvedObject.name=${name}`)).body as { items: KubeObject[] };
      return list.items.map((e) => `${String(e.reason)}: ${String(e.message)}`);
    },
    async ref(name, namespace = 'default') {
      const p = await bed.pod(name, namespace);
      return { namespace, name, uid: p.metadata?.uid ?? '' };
    },
    async logText(name, options, namespace = 'default') {
      const stream = await bed.manager.connection.containerLog(await bed.ref(name, namespace), options);
      return new Response(stream).text();
    },
    async until(check, timeoutMs = 3000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        if (await check()) return true;
        if (Date.now() > end) return false;
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async restartKubelet() {
      await bed.manager.stop();
      timers.stop();
      activity = new Activity();
      timers = new ClockTimers(clock, (err) => logs.push(`timer: ${String(err)}`));
      bed.manager = start();
      await activity.idle();
    },
    async close() {
      await bed.manager.stop();
      timers.stop();
      await ts.close();
    },
  };
  await activity.idle();
  return bed;
}
