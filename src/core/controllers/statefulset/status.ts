// A StatefulSet's status as the controller computes it from its pods: how
// many exist, are Running and Ready, available (ready for minReadySeconds),
// at the current revision and at the update revision; a rolling update is
// complete when every replica is updated and ready (currentRevision then
// becomes the update revision). Fields kube leaves out when zero
// (omitempty) are left out here too.

import type { KubeObject } from '../../kinds/types';
import { isCreated, isRunningAndAvailable, isRunningAndReady, isTerminating, podRevision, rec, replicasOf } from './identity';

export interface SetStatus {
  observedGeneration: number;
  replicas: number;
  readyReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
}

/** updateStatus/computeReplicaStatus: the pod counts of `status`, recomputed from these pods. */
export function countPods(status: SetStatus, pods: readonly KubeObject[], minReadySeconds: number, nowMs: number): void {
  status.replicas = 0;
  status.readyReplicas = 0;
  status.availableReplicas = 0;
  status.currentReplicas = 0;
  status.updatedReplicas = 0;
  for (const pod of pods) {
    if (isCreated(pod)) status.replicas++;
    if (isRunningAndReady(pod)) {
      status.readyReplicas++;
      if (isRunningAndAvailable(pod, minReadySeconds, nowMs)) status.availableReplicas++;
    }
    if (isCreated(pod) && !isTerminating(pod)) {
      if (podRevision(pod) === status.currentRevision) status.currentReplicas++;
      if (podRevision(pod) === status.updateRevision) status.updatedReplicas++;
    }
  }
}

/** completeRollingUpdate: all replicas updated and ready under RollingUpdate, so the update revision is now current. */
export function completeRollingUpdate(set: KubeObject, status: SetStatus): void {
  const replicas = replicasOf(set);
  if (
    rec(rec(set.spec).updateStrategy).type === 'RollingUpdate' &&
    status.updatedReplicas === replicas &&
    status.readyReplicas === replicas &&
    status.replicas === replicas
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** inconsistentStatus: whether the computed status differs from the set's (so it must be written). */
export function statusChanged(set: KubeObject, status: SetStatus): boolean {
  const s = rec(set.status);
  return (
    status.observedGeneration > n(s.observedGeneration) ||
    status.replicas !== n(s.replicas) ||
    status.currentReplicas !== n(s.currentReplicas) ||
    status.readyReplicas !== n(s.readyReplicas) ||
    status.updatedReplicas !== n(s.updatedReplicas) ||
    status.currentRevision !== (s.currentRevision ?? '') ||
    status.availableReplicas !== n(s.availableReplicas) ||
    status.updateRevision !== (s.updateRevision ?? '')
  );
}

/** The status object as kube serializes StatefulSetStatus (omitempty fields dropped when zero), keeping conditions. */
export function statusObject(set: KubeObject, status: SetStatus): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (status.observedGeneration) out.observedGeneration = status.observedGeneration;
  out.replicas = status.replicas;
  if (status.readyReplicas) out.readyReplicas = status.readyReplicas;
  if (status.currentReplicas) out.currentReplicas = status.currentReplicas;
  if (status.updatedReplicas) out.updatedReplicas = status.updatedReplicas;
  if (status.currentRevision) out.currentRevision = status.currentRevision;
  if (status.updateRevision) out.updateRevision = status.updateRevision;
  out.collisionCount = status.collisionCount;
  const conditions = rec(set.status).conditions;
  if (Array.isArray(conditions) && conditions.length > 0) out.conditions = conditions;
  out.availableReplicas = status.availableReplicas;
  return out;
}
