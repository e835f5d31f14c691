// Test helpers for the endpoint and disruption controllers: Nodes, Services
// and Pods created through the API, the pods then made to run (podIP,
// phase, Ready) through pods/status as a kubelet would.

import { expect } from 'vitest';
import type { TestServer } from '../../../../test-support/api-harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;

export const NS = '/api/v1/namespaces/default';
const MERGE = 'application/merge-patch+json';

export async function createNode(ts: TestServer, name: string, zone?: string): Promise<void> {
  const res = await ts.post('/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}) } },
    status: { addresses: [{ type: 'InternalIP', address: '172.18.0.2' }] },
  });
  expect(res.status).toBe(201);
}

export interface PodOptions {
  labels?: Record<string, string>;
  node?: string;
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  hostname?: string;
  subdomain?: string;
  ownerReferences?: unknown[];
}

export async function createPod(ts: TestServer, name: string, o: PodOptions = {}): Promise<Any> {
  const res = await ts.post(`${NS}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: o.labels ?? { app: 'web' }, ...(o.ownerReferences ? { ownerReferences: o.ownerReferences } : {}) },
    spec: {
      nodeName: o.node ?? 'worker',
      ...(o.hostname ? { hostname: o.hostname } : {}),
      ...(o.subdomain ? { subdomain: o.subdomain } : {}),
      containers: [{ name: 'app', image: 'nginx', ...(o.ports ? { ports: o.ports } : {}) }],
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Plays the kubelet: the pod runs with this IP and its Ready condition as given, now on the cluster clock. */
export async function runPod(ts: TestServer, name: string, ip: string, ready: boolean): Promise<Any> {
  const now = new Date(ts.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const res = await ts.patch(
    `${NS}/pods/${name}/status`,
    {
      status: {
        phase: 'Running',
        podIP: ip,
        podIPs: [{ ip }],
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: now, lastProbeTime: null }],
      },
    },
    MERGE,
  );
  expect(res.status).toBe(200);
  return res.body;
}

export async function createService(ts: TestServer, name: string, spec: Record<string, unknown>, labels?: Record<string, string>): Promise<Any> {
  const res = await ts.post(`${NS}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name, ...(labels ? { labels } : {}) }, spec });
  expect(res.status).toBe(201);
  return res.body;
}

export async function getObject(ts: TestServer, path: string): Promise<Any> {
  const res = await ts.get(path);
  return res.status === 200 ? res.body : undefined;
}

export async function slicesOf(ts: TestServer, service: string): Promise<Any[]> {
  const res = await ts.get(`/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3D${service}`);
  return res.body.items;
}
