// What the kubelet knows of one container of a pod: its instances (the
// current one and the one before it, for `kubectl logs --previous` and
// lastState), why it is waiting, its restart count and probe results. The
// pod worker changes these records; pod-status.ts turns them into
// containerStatuses.

import type { ContainerLog } from '../runtime/container-log';
import type { ContainerFileSystem } from '../runtime/container-fs';
import type { SimProcess } from '../runtime/process';

export type ContainerKind = 'init' | 'sidecar' | 'main';

export interface Terminated {
  readonly exitCode: number;
  readonly reason: string;
  readonly message?: string;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly containerID: string;
  readonly signal?: number;
}

export interface Instance {
  readonly id: string;
  readonly startedAt: number;
  readonly log: ContainerLog;
  process?: SimProcess;
  fs?: ContainerFileSystem;
  env?: Readonly<Record<string, string>>;
  terminated?: Terminated;
}

export interface ContainerRecord {
  readonly name: string;
  readonly kind: ContainerKind;
  spec: Record<string, unknown>;
  /** The normalized image and its imageID, once known. */
  image?: string;
  imageID?: string;
  current?: Instance;
  previous?: Instance;
  /** A terminated state seen in the API (a restarted kubelet), shown as lastState. */
  lastTerminated?: Terminated;
  restartCount: number;
  waiting?: { reason: string; message?: string };
  /** An image pull or a start in progress. */
  starting: boolean;
  /** Startup probe passed (or none): `started`. */
  started: boolean;
  /** Readiness probe result (true without a probe). */
  ready: boolean;
  /** Pending restart at this time (back-off). */
  restartAt?: number;
  /** A failed start (config error, image back-off) is not tried again before this time. */
  retryAt?: number;
}

export function newRecord(name: string, kind: ContainerKind, spec: Record<string, unknown>): ContainerRecord {
  return { name, kind, spec, restartCount: 0, starting: false, started: false, ready: false };
}

export function isRunning(r: ContainerRecord): boolean {
  return !!r.current && !r.current.terminated;
}

/** The container's last termination (the current instance's, else the one seen in the API). */
export function lastExit(r: ContainerRecord): Terminated | undefined {
  return r.current?.terminated ?? (r.current ? undefined : r.lastTerminated);
}
