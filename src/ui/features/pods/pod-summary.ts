// What the pod list shows of a pod, as `kubectl get pods` prints it: READY
// (ready/total regular containers), STATUS (the phase, or the reason a
// container is waiting or terminated with, Init:… while init containers run,
// Terminating once deleted), RESTARTS, NODE and IP; and the containers a
// log or an exec can name.

import type { KubeObject } from '../../lib/api/types';

interface ContainerState {
  waiting?: { reason?: string };
  running?: Record<string, unknown>;
  terminated?: { reason?: string; exitCode?: number; signal?: number };
}

interface ContainerStatus {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: ContainerState;
}

interface PodView {
  spec?: { nodeName?: string; containers?: { name: string }[]; initContainers?: { name: string; restartPolicy?: string }[]; ephemeralContainers?: { name: string }[] };
  status?: { phase?: string; reason?: string; podIP?: string; containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[] };
}

export interface PodSummary {
  readonly ready: string;
  readonly status: string;
  readonly restarts: number;
  readonly node: string;
  readonly ip: string;
}

/** kubectl's STATUS column (printPod), for the cases a learner meets. */
function statusOf(pod: KubeObject & PodView): string {
  const status = pod.status ?? {};
  let reason = status.reason || status.phase || 'Unknown';
  const inits = status.initContainerStatuses ?? [];
  const initSpecs = pod.spec?.initContainers ?? [];
  let initializing = false;
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i]!;
    const sidecar = initSpecs.find((s) => s.name === c.name)?.restartPolicy === 'Always';
    const t = c.state?.terminated;
    if (t && t.exitCode === 0) continue;
    if (sidecar && c.state?.running) continue;
    if (t) reason = t.reason ? `Init:${t.reason}` : t.signal ? `Init:Signal:${t.signal}` : `Init:ExitCode:${t.exitCode}`;
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') reason = `Init:${c.state.waiting.reason}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    initializing = true;
    break;
  }
  if (!initializing) {
    let running = false;
    for (const c of [...(status.containerStatuses ?? [])].reverse()) {
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
      else if (c.state?.terminated) reason = c.state.terminated.signal ? `Signal:${c.state.terminated.signal}` : `ExitCode:${c.state.terminated.exitCode}`;
      else if (c.state?.running && c.ready) running = true;
    }
    if (reason === 'Completed' && running) reason = 'Running';
  }
  if (pod.metadata?.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

export function summarizePod(object: KubeObject): PodSummary {
  const pod = object as KubeObject & PodView;
  const statuses = pod.status?.containerStatuses ?? [];
  const total = pod.spec?.containers?.length ?? 0;
  return {
    ready: `${statuses.filter((c) => c.ready).length}/${total}`,
    status: statusOf(pod),
    restarts: statuses.reduce((sum, c) => sum + (c.restartCount ?? 0), 0),
    node: pod.spec?.nodeName ?? '<none>',
    ip: pod.status?.podIP ?? '<none>',
  };
}

/** The containers of a pod a log can name (init containers first, as kube lists them) and an exec can run in. */
export function containerNames(object: KubeObject | undefined): { all: string[]; regular: string[] } {
  const spec = (object as (KubeObject & PodView) | undefined)?.spec;
  const regular = (spec?.containers ?? []).map((c) => c.name);
  const all = [...(spec?.initContainers ?? []).map((c) => c.name), ...regular, ...(spec?.ephemeralContainers ?? []).map((c) => c.name)];
  return { all, regular };
}
