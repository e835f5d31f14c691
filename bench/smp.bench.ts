// Cost of a strategic merge patch of a 50-container Pod, in the core, under
// Node (issue "Server-side apply, managed fields and every patch type":
// measurements). Run: node --import tsx bench/smp.bench.ts
//
// Cases: a kubectl-set-image style patch (one container's image), a kubectl
// apply style patch (all 50 containers changed, with $setElementOrder), and
// the whole request step (body decoding included) through applyPatch.
// BENCH_QUICK=1 runs fewer iterations.

import { builtinSchemaRef, getBuiltinSchemaTable } from '../src/core/schema/builtin-table';
import { strategicMergePatch } from '../src/core/patch/strategic-merge-patch';
import { applyPatch } from '../src/core/patch/apply-patch';
import type { KubeObject } from '../src/core/kinds/types';

const CONTAINERS = 50;
const QUICK = process.env['BENCH_QUICK'] === '1';

function container(i: number, image: string) {
  return {
    name: `c${i}`,
    image,
    args: ['--port', String(8000 + i), '--verbose'],
    ports: [
      { name: 'http', containerPort: 8000 + i, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9000 + i, protocol: 'TCP' },
    ],
    env: [
      { name: 'INDEX', value: String(i) },
      { name: 'MODE', value: 'prod' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    ],
    resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '64Mi' } },
    volumeMounts: [{ name: 'data', mountPath: `/data/${i}` }],
    imagePullPolicy: 'IfNotPresent',
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  };
}

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'big', namespace: 'default', labels: { app: 'big' }, uid: '0b0d5d1e-5c1a-4c52-9a5e-6d3c2b1a0f9e', resourceVersion: '42' },
  spec: {
    containers: Array.from({ length: CONTAINERS }, (_, i) => container(i, `registry.example/app-${i}:1.0`)),
    volumes: [{ name: 'data', emptyDir: {} }],
    restartPolicy: 'Always',
    dnsPolicy: 'ClusterFirst',
  },
};

const schema = { node: builtinSchemaRef('', 'v1', 'Pod'), table: getBuiltinSchemaTable() };

const setImage = { spec: { containers: [{ name: 'c25', image: 'registry.example/app-25:2.0' }] } };
const applyStyle = {
  spec: {
    '$setElementOrder/containers': Array.from({ length: CONTAINERS }, (_, i) => ({ name: `c${CONTAINERS - 1 - i}` })),
    containers: Array.from({ length: CONTAINERS }, (_, i) => {
      const n = CONTAINERS - 1 - i;
      return { name: `c${n}`, image: `registry.example/app-${n}:2.0`, env: [{ name: 'MODE', value: 'canary' }, { name: 'INDEX', $patch: 'delete' }] };
    }),
  },
};
const setImageBody = JSON.stringify(setImage);

function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function measure(label: string, fn: () => unknown, iterations: number): { label: string; medianUs: number; p99Us: number } {
  for (let i = 0; i < Math.min(200, iterations); i++) fn(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn();
    samples.push((performance.now() - t0) * 1000);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { label, medianUs: median(samples), p99Us: sorted[Math.floor(sorted.length * 0.99)]! };
}

const iterations = QUICK ? 300 : 3000;
const results = [
  measure('strategicMergePatch, one image (set image)', () => strategicMergePatch(pod, setImage, schema), iterations),
  measure('strategicMergePatch, 50 containers + order (apply)', () => strategicMergePatch(pod, applyStyle, schema), iterations),
  measure('applyPatch(strategic), one image, body decoded', () => applyPatch('strategic', pod, setImageBody, schema), iterations),
];

console.log(`Strategic merge patch of a ${CONTAINERS}-container Pod (${JSON.stringify(pod).length} bytes of JSON)`);
for (const r of results) console.log(`  ${r.label.padEnd(52)} median ${r.medianUs.toFixed(1)} µs   p99 ${r.p99Us.toFixed(1)} µs`);
