// controller.RealPodControl for the Job controller: pods made from the
// Job's template (its labels, annotations and finalizers, generateName
// "<job>-", the Job as controller owner) and deleted, each recorded on the
// Job as kube records it (SuccessfulCreate "Created pod: x", FailedCreate
// "Error creating: …", SuccessfulDelete "Deleted pod: x", FailedDelete
// "Error deleting: …"); the tracking finalizer's removal patch; adoption and
// release of pods by their controller reference.
// Not workloads' PodControl: this one takes the Job's generateName ("<job>-<index>-"), adopts with the tracking finalizer, and records FailedCreate even in a terminating namespace.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { errorMessage, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { EventRecorder } from '../runtime/event-recorder';
import { JOB_TRACKING_FINALIZER } from './job-model';
import { clone, rec, type Obj } from './json';

export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const SMP = 'application/strategic-merge-patch+json';

/** metav1.NewControllerRef for a batch/v1 Job. */
export function jobControllerRef(job: KubeObject) {
  return { apiVersion: 'batch/v1', kind: 'Job', name: job.metadata?.name ?? '', uid: job.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true };
}

export class PodControl {
  constructor(
    private readonly client: ApiClient,
    private readonly recorder: EventRecorder,
  ) {}

  /** Creates a pod from `template` for the Job; throws what the API answered (after the FailedCreate event). */
  async create(job: KubeObject, template: Obj, generateName: string): Promise<KubeObject> {
    const meta = rec(template.metadata);
    const labels = { ...(rec(meta.labels) as Record<string, string>) };
    const namespace = job.metadata?.namespace ?? '';
    if (Object.keys(labels).length === 0) throw new Error('unable to create pods, no labels');
    const metadata: Obj = { labels, generateName, ownerReferences: [jobControllerRef(job)] };
    const annotations = rec(meta.annotations);
    if (Object.keys(annotations).length > 0) metadata.annotations = { ...annotations };
    const finalizers = Array.isArray(meta.finalizers) ? [...(meta.finalizers as string[])] : [];
    if (finalizers.length > 0) metadata.finalizers = finalizers;
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: metadata as KubeObject['metadata'], spec: clone(rec(template.spec)) };
    try {
      const created = await this.client.create(PODS, namespace, pod);
      this.recorder.emit(job, { type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${created.metadata?.name ?? ''}` });
      return created;
    } catch (err) {
      this.recorder.emit(job, { type: 'Warning', reason: 'FailedCreate', message: `Error creating: ${errorMessage(err)}` });
      throw err;
    }
  }

  /** Deletes a pod of the Job (its finalizers kept); NotFound is thrown without an event, as kube. */
  async delete(job: KubeObject, pod: KubeObject): Promise<void> {
    const name = pod.metadata?.name ?? '';
    try {
      await this.client.delete(PODS, pod.metadata?.namespace ?? '', name);
    } catch (err) {
      if (!isNotFound(err)) this.recorder.emit(job, { type: 'Warning', reason: 'FailedDelete', message: `Error deleting: ${errorMessage(err)}` });
      throw err;
    }
    this.recorder.emit(job, { type: 'Normal', reason: 'SuccessfulDelete', message: `Deleted pod: ${name}` });
  }

  /** Removes the tracking finalizer (a no-op for a pod without it). */
  async removeTrackingFinalizer(pod: KubeObject): Promise<void> {
    if (!(pod.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) return;
    await this.client.patch(PODS, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', { metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER] } }, SMP);
  }

  /** Adopts an orphan: the Job as its controller, with the tracking finalizer. */
  async adopt(job: KubeObject, pod: KubeObject): Promise<KubeObject> {
    const patch = { metadata: { ownerReferences: [jobControllerRef(job)], uid: pod.metadata?.uid, finalizers: [JOB_TRACKING_FINALIZER] } };
    return this.client.patch(PODS, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', patch, SMP);
  }

  /** Releases a pod that no longer matches the selector: drops the Job's owner reference. */
  async release(job: KubeObject, pod: KubeObject): Promise<void> {
    const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: job.metadata?.uid }], uid: pod.metadata?.uid } };
    await this.client.patch(PODS, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', patch, SMP);
  }
}
