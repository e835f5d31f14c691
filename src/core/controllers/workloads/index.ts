// Shared pieces of the workload controllers (ReplicaSet, ReplicationController,
// Deployment, and any other controller that runs pods: Job, StatefulSet,
// DaemonSet): pod readiness and availability, controller references and
// adoption, expectations, pods from templates with their events, kube's
// deletion order, slow-start batches and requeues on the cluster's clock.
// This API is kept stable: other controllers import it.

export { rec, arr, int, keyOf, splitKey, deepCopy, labelsOf, timeMs, type Obj } from './objects';
export { podReadyCondition, isPodReady, podPhase, isPodActive, filterActivePods, isPodAvailable, availableAtMs } from './pod-readiness';
export { controllerRefOf, newControllerRef, isControlledBy, ControllerRefManager, CannotAdoptError, type ControllerRefManagerOptions } from './controller-ref';
export { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS } from './expectations';
export { CountingExpectations } from './counting-expectations';
export {
  PODS,
  PodControl,
  podFromTemplate,
  podNamePrefix,
  hasStatusCause,
  NAMESPACE_TERMINATING_CAUSE,
  FAILED_CREATE_POD_REASON,
  SUCCESSFUL_CREATE_POD_REASON,
  FAILED_DELETE_POD_REASON,
  SUCCESSFUL_DELETE_POD_REASON,
} from './pod-control';
export { podsToDelete, deleteBefore, ranksByRelatedPodsOnSameNode, podDeletionCost, maxContainerRestarts, POD_DELETION_COST_ANNOTATION } from './pod-deletion-order';
export { slowStartBatch, SLOW_START_INITIAL_BATCH_SIZE, type SlowStartResult } from './slow-start';
export { ClockRequeue } from './clock-requeue';
export { structuredSelector, mapSelector, selectorMatchesForLookup } from './selectors';
export { RecentWrites } from './recent-writes';
