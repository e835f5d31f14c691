// getExpectedScale of kube's disruption controller: the pods a budget
// selects are counted by the scale of their controllers — a
// ReplicationController, a Deployment (through its ReplicaSet), a
// ReplicaSet not owned by a Deployment, a StatefulSet, from the informers'
// caches; any other controller through its scale subresource. Each
// controller counts once; pods without a controller are reported as
// unmanaged; a pod whose controller cannot be found is an error.

import type { KubeObject, OwnerReference } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { isNotFound } from '../client/api-error';
import { resourceForKind, type DiscoveredResource } from '../client/discovery';
import type { Informer } from '../client/informer';
import { parseApiVersion } from '../client/resource-path';
import { controllerRefOf, int, rec } from '../workloads';

export interface ScaleSources {
  readonly client: ApiClient;
  readonly replicationControllers: Informer;
  readonly replicaSets: Informer;
  readonly deployments: Informer;
  readonly statefulSets: Informer;
  /** The served resources, for the REST mapping of other controllers' kinds. */
  readonly discover: () => Promise<readonly DiscoveredResource[]>;
}

interface Found {
  readonly uid: string;
  readonly scale: number;
}

function groupOf(ref: OwnerReference): string {
  return parseApiVersion(ref.apiVersion ?? '').group;
}

function replicas(obj: KubeObject): number {
  // spec.replicas is defaulted to 1 by the API server.
  const r = rec(obj.spec).replicas;
  return typeof r === 'number' ? r : 1;
}

function fromCache(informer: Informer, ref: OwnerReference, namespace: string): KubeObject | undefined {
  const obj = informer.get(namespace, ref.name);
  return obj && obj.metadata?.uid === ref.uid ? obj : undefined;
}

/** The controller of a pod and its scale, trying kube's finders in order. */
async function findController(s: ScaleSources, ref: OwnerReference, namespace: string): Promise<Found | undefined> {
  const group = groupOf(ref);
  // getPodReplicationController
  if (ref.kind === 'ReplicationController' && group === '') {
    const rc = fromCache(s.replicationControllers, ref, namespace);
    if (rc) return { uid: rc.metadata!.uid!, scale: replicas(rc) };
  }
  if (ref.kind === 'ReplicaSet' && (group === 'apps' || group === 'extensions')) {
    const rs = fromCache(s.replicaSets, ref, namespace);
    if (rs) {
      const owner = controllerRefOf(rs);
      // getPodDeployment: a ReplicaSet of a Deployment counts as the Deployment.
      if (owner && owner.kind === 'Deployment') {
        const g = groupOf(owner);
        if (g === 'apps' || g === 'extensions') {
          const d = fromCache(s.deployments, owner, namespace);
          if (d) return { uid: d.metadata!.uid!, scale: replicas(d) };
        }
      } else {
        // getPodReplicaSet
        return { uid: rs.metadata!.uid!, scale: replicas(rs) };
      }
    }
  }
  // getPodStatefulSet
  if (ref.kind === 'StatefulSet' && group === 'apps') {
    const ss = fromCache(s.statefulSets, ref, namespace);
    if (ss) return { uid: ss.metadata!.uid!, scale: replicas(ss) };
  }
  return scaleController(s, ref, namespace);
}

/** getScaleController: any other kind through its scale subresource. */
async function scaleController(s: ScaleSources, ref: OwnerReference, namespace: string): Promise<Found | undefined> {
  const { group, version } = parseApiVersion(ref.apiVersion ?? '');
  const resources = await s.discover();
  const mapping = resourceForKind(resources, ref.apiVersion ?? '', ref.kind);
  if (!mapping) throw new Error(`no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(group ? `${group}/${version}` : version)}`);
  const groupResource = mapping.group ? `${mapping.resource}.${mapping.group}` : mapping.resource;
  let scale: KubeObject;
  try {
    scale = await s.client.get(mapping, namespace, ref.name, 'scale');
  } catch (err) {
    if (!isNotFound(err)) throw err;
    // Not found: the object is gone, or its kind has no scale subresource (implementsScale asks discovery).
    if (await implementsScale(s, mapping)) return undefined;
    throw new Error(`${groupResource} does not implement the scale subresource`);
  }
  if (scale.metadata?.uid !== ref.uid) return undefined;
  return { uid: ref.uid, scale: int(rec(scale.spec).replicas) };
}

/** implementsScale: the group version's discovery lists "<resource>/scale" of kind Scale. */
async function implementsScale(s: ScaleSources, mapping: DiscoveredResource): Promise<boolean> {
  const path = mapping.group ? `/apis/${mapping.group}/${mapping.version}` : `/api/${mapping.version}`;
  const list = await s.client.call<{ resources?: { name?: string; kind?: string }[] }>('GET', path);
  return (list.resources ?? []).some((r) => r.name === `${mapping.resource}/scale` && r.kind === 'Scale');
}

/** The summed scale of the pods' controllers, and the pods that have none. */
export async function expectedScale(s: ScaleSources, pods: readonly KubeObject[]): Promise<{ expectedCount: number; unmanagedPods: string[] }> {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerRefOf(pod);
    if (!ref) {
      unmanagedPods.push(pod.metadata?.name ?? '');
      continue;
    }
    if (scales.has(ref.uid)) continue;
    const found = await findController(s, ref, pod.metadata?.namespace ?? '');
    if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata?.name ?? '')}`);
    scales.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const n of scales.values()) expectedCount += n;
  return { expectedCount, unmanagedPods };
}

