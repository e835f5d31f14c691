// A restarted kubelet takes its pods back from the API's state, as the real
// one finds its containers still running in containerd: the pod's IP and
// start time, each container's restart count and last termination, and
// its back-off (from the CrashLoopBackOff message and lastState's
// finishedAt). Containers that were running are replayed from their
// startedAt with the same ID (their processes are deterministic, so their
// logs reappear); see PodWorker.resume.

import { arr, rec, str } from '../../kinds/builtin/common/table';
import { INITIAL_BACKOFF_MS } from './backoff';
import type { ContainerRecord, Terminated } from './container-record';
import { ContainerLog } from '../runtime/container-log';
import type { PodWorker } from './pod-worker';

function time(value: unknown): number {
  const t = Date.parse(str(value));
  return Number.isFinite(t) ? t : 0;
}

function terminatedFrom(t: Record<string, unknown>): Terminated {
  return {
    exitCode: Number(t.exitCode ?? 0),
    reason: str(t.reason) || (Number(t.exitCode ?? 0) === 0 ? 'Completed' : 'Error'),
    ...(str(t.message) ? { message: str(t.message) } : {}),
    startedAt: time(t.startedAt),
    finishedAt: time(t.finishedAt),
    containerID: str(t.containerID),
  };
}

/** Parses "back-off 40s restarting …" (Go durations of whole seconds or minutes). */
function backoffFromMessage(message: string): number | undefined {
  const m = /^back-off (?:(\d+)m)?(?:(\d+)s)?/.exec(message);
  if (!m || (!m[1] && !m[2])) return undefined;
  return (Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 1000;
}

/** Fills the worker's records from the pod's status; returns the running containers to replay. */
export function restoreRecords(worker: PodWorker): { record: ContainerRecord; id: string; startedAt: number }[] {
  const status = rec(worker.pod.status);
  const replay: { record: ContainerRecord; id: string; startedAt: number }[] = [];
  const podIP = str(status.podIP);
  if (podIP && (worker.hostNetwork || worker.ctx.ips.reserve(worker.uid, podIP))) worker.podIP = podIP;
  if (status.startTime) worker.startTime = time(status.startTime);
  const ready = arr(status.conditions).map(rec).find((c) => c.type === 'PodReadyToStartContainers');
  if (ready?.status === 'True' && worker.podIP) worker.sandboxReady = true;
  const phase = str(status.phase);
  const statuses = [...arr(status.initContainerStatuses), ...arr(status.containerStatuses)].map(rec);
  for (const r of worker.records()) {
    const s = statuses.find((x) => x.name === r.name);
    if (!s) continue;
    r.restartCount = Number(s.restartCount ?? 0);
    if (str(s.imageID)) {
      r.image = str(s.image);
      r.imageID = str(s.imageID);
    }
    const state = rec(s.state);
    const last = rec(rec(s.lastState).terminated);
    if (Object.keys(last).length > 0) r.lastTerminated = terminatedFrom(last);
    if (state.running && str(s.containerID)) {
      replay.push({ record: r, id: str(s.containerID), startedAt: time(rec(state.running).startedAt) });
    } else if (state.terminated) {
      const t = terminatedFrom(rec(state.terminated));
      const log = new ContainerLog(t.containerID);
      log.end(t.finishedAt);
      r.current = { id: t.containerID, startedAt: t.startedAt, log, terminated: t };
    } else if (state.waiting && r.lastTerminated && str(rec(state.waiting).reason) !== 'ContainerCreating') {
      // Waiting to restart: the last instance is the current one, its back-off continues.
      const t = r.lastTerminated;
      const log = new ContainerLog(t.containerID);
      log.end(t.finishedAt);
      r.current = { id: t.containerID, startedAt: t.startedAt, log, terminated: t };
      r.lastTerminated = undefined;
      const waiting = rec(state.waiting);
      const backoff = backoffFromMessage(str(waiting.message)) ?? Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, r.restartCount - 1), 300_000);
      if (str(waiting.reason) === 'CrashLoopBackOff') worker.ctx.restartBackoff.restore(`${worker.uid}/${r.name}`, backoff, t.finishedAt);
      r.waiting = { reason: str(waiting.reason), ...(str(waiting.message) ? { message: str(waiting.message) } : {}) };
    }
  }
  if (phase === 'Succeeded' || phase === 'Failed') worker.finished = true;
  return replay;
}
