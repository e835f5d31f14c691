// Helpers for the batch controllers' integration tests: a server with only
// the controllers under test, and what a kubelet would do to a pod (finish
// it with an exit code, through pods/status).

import { rfc3339 } from '../../clock';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';

export interface BatchTestBed extends ControllerTestBed {
  job(name: string, ns?: string): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  pods(selector: string, ns?: string): Promise<any[]>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Ends a pod as a kubelet reports it: phase Succeeded (exit 0) or Failed, its container terminated. */
  finishPod(name: string, exitCode: number, ns?: string, extra?: { conditions?: unknown[] }): Promise<void>;
  events(ns?: string): Promise<{ reason: string; message: string; type: string; source: { component: string }; involvedObject: { kind: string; name: string } }[]>;
  advance(ms: number): Promise<void>;
}

export async function startBatchTestBed(controllers: string[]): Promise<BatchTestBed> {
  const bed = await startControllerTestBed({ enabled: controllers, asInternalClients: true });
  const { ts } = bed;
  const self: BatchTestBed = {
    ...bed,
    async job(name, ns = 'default') {
      return (await ts.get(`/apis/batch/v1/namespaces/${ns}/jobs/${name}`)).body;
    },
    async pods(selector, ns = 'default') {
      const res = await ts.get(`/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`);
      return (res.body.items ?? []).sort((a: { metadata: { creationTimestamp: string; name: string } }, b: { metadata: { creationTimestamp: string; name: string } }) =>
        a.metadata.name < b.metadata.name ? -1 : 1,
      );
    },
    async finishPod(name, exitCode, ns = 'default', extra = {}) {
      const pod = (await ts.get(`/api/v1/namespaces/${ns}/pods/${name}`)).body;
      const now = rfc3339(ts.clock.now());
      const containers = (pod.spec.containers as { name: string; image: string }[]).map((c) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        restartCount: 0,
        started: false,
        state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: now, finishedAt: now } },
      }));
      pod.status = {
        ...pod.status,
        phase: exitCode === 0 ? 'Succeeded' : 'Failed',
        conditions: [{ type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: now, reason: 'PodCompleted' }, ...(extra.conditions ?? [])],
        containerStatuses: containers,
      };
      const res = await ts.put(`/api/v1/namespaces/${ns}/pods/${name}/status`, pod);
      if (res.status !== 200) throw new Error(`pods/status ${name}: ${res.status} ${res.text}`);
      await bed.idle();
    },
    async events(ns = 'default') {
      return (await ts.get(`/api/v1/namespaces/${ns}/events`)).body.items;
    },
    async advance(ms) {
      ts.clock.advance(ms);
      // Due timers fire after the current task; then the controllers work.
      await new Promise<void>((r) => setTimeout(r, 0));
      await bed.idle();
    },
  };
  return self;
}

export const jobManifest = (name: string, spec: Record<string, unknown> = {}, template: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    ...spec,
    template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }], ...template } },
  },
});
