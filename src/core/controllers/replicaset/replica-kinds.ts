// The two kinds the ReplicaSet controller runs: apps/v1 ReplicaSets and core
// v1 ReplicationControllers. kube runs the ReplicationController controller
// as the ReplicaSet controller over converted objects; here the one
// controller takes the kind's differences from this table — where it lives,
// how its selector is written (a LabelSelector or a label map) and the
// names its events and its service account carry.

import type { KubeObject } from '../../kinds/types';
import type { GroupVersionResource } from '../client/resource-path';
import type { LabelSelector } from '../../selectors';
import { mapSelector, rec, structuredSelector } from '../workloads';

export interface ReplicaKind {
  /** kube-controller-manager's controller name. */
  readonly controllerName: string;
  /** The events' source component. */
  readonly component: string;
  readonly gvr: GroupVersionResource;
  readonly apiVersion: string;
  readonly kind: string;
  /** The object's selector, or undefined when it cannot be read. */
  selector(obj: KubeObject): LabelSelector | undefined;
}

export const REPLICASET_CONTROLLER = 'replicaset-controller';
export const REPLICATIONCONTROLLER_CONTROLLER = 'replicationcontroller-controller';

export const REPLICA_SET_KIND: ReplicaKind = {
  controllerName: REPLICASET_CONTROLLER,
  component: 'replicaset-controller',
  gvr: { group: 'apps', version: 'v1', resource: 'replicasets' },
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  selector: (rs) => structuredSelector(rec(rs.spec).selector),
};

export const REPLICATION_CONTROLLER_KIND: ReplicaKind = {
  controllerName: REPLICATIONCONTROLLER_CONTROLLER,
  component: 'replication-controller',
  gvr: { group: '', version: 'v1', resource: 'replicationcontrollers' },
  apiVersion: 'v1',
  kind: 'ReplicationController',
  // The API defaults an RC's selector to its template's labels; a map selects by equality.
  selector: (rc) => (rec(rc.spec).selector ? mapSelector(rec(rc.spec).selector) : undefined),
};
