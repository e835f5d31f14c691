// The status the ReplicaSet controller writes (replica_set_utils.go):
// replicas (the active pods it owns), fullyLabeledReplicas (those whose
// labels include all of the template's), readyReplicas, availableReplicas
// (Ready for minReadySeconds), and the ReplicaFailure condition — set with
// reason FailedCreate / FailedDelete and the error's text when creating or
// deleting pods failed, removed once a sync manages the pods again.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { errorMessage } from '../client/api-error';
import { arr, deepCopy, int, isPodAvailable, isPodReady, labelsOf, rec, type Obj } from '../workloads';

export const REPLICA_FAILURE = 'ReplicaFailure';

/** Whether every label of the template is on the pod (labels.Set(template).AsSelector().Matches). */
function fullyLabeled(pod: KubeObject, templateLabels: Record<string, string>): boolean {
  const labels = labelsOf(pod);
  return Object.entries(templateLabels).every(([k, v]) => labels[k] === v);
}

/** SetCondition: a condition of the same status and reason is left as it is. */
export function setReplicaCondition(status: Obj, condition: Obj): void {
  const conditions = arr(status.conditions).map(rec);
  const current = conditions.find((c) => c.type === condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  status.conditions = [...conditions.filter((c) => c.type !== condition.type), condition];
}

export function removeReplicaCondition(status: Obj, type: string): void {
  const conditions = arr(status.conditions).map(rec).filter((c) => c.type !== type);
  if (conditions.length > 0) status.conditions = conditions;
  else delete status.conditions;
}

/** calculateStatus: the new status from the claimed active pods and the outcome of managing them. */
export function calculateReplicaStatus(owner: KubeObject, pods: readonly KubeObject[], manageError: unknown, nowMs: number): Obj {
  const spec = rec(owner.spec);
  const status = deepCopy(rec(owner.status));
  const minReadySeconds = int(spec.minReadySeconds);
  const templateLabels = (rec(rec(spec.template).metadata).labels ?? {}) as Record<string, string>;
  let labeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    if (fullyLabeled(pod, templateLabels)) labeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, nowMs)) available++;
    }
  }
  const failure = arr(status.conditions)
    .map(rec)
    .find((c) => c.type === REPLICA_FAILURE);
  if (manageError !== undefined && !failure) {
    const diff = pods.length - int(spec.replicas);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    setReplicaCondition(status, { type: REPLICA_FAILURE, status: 'True', lastTransitionTime: rfc3339(nowMs), reason, message: errorMessage(manageError) });
  } else if (manageError === undefined && failure) {
    removeReplicaCondition(status, REPLICA_FAILURE);
  }
  status.replicas = pods.length;
  status.fullyLabeledReplicas = labeled;
  status.readyReplicas = ready;
  status.availableReplicas = available;
  return status;
}

/** Whether the stored status already says this (updateReplicaSetStatus' early return). */
export function replicaStatusUnchanged(owner: KubeObject, next: Obj): boolean {
  const status = rec(owner.status);
  return (
    int(status.replicas) === int(next.replicas) &&
    int(status.fullyLabeledReplicas) === int(next.fullyLabeledReplicas) &&
    int(status.readyReplicas) === int(next.readyReplicas) &&
    int(status.availableReplicas) === int(next.availableReplicas) &&
    int(owner.metadata?.generation) === int(status.observedGeneration) &&
    JSON.stringify(arr(status.conditions)) === JSON.stringify(arr(next.conditions))
  );
}
