// kube's RealPodControl (pkg/controller/controller_utils.go): pods made from
// a workload's template — generateName "<owner>-", the template's labels,
// annotations and finalizers, the owner's controller reference
// (controller=true, blockOwnerDeletion=true) — and deleted by name, each
// with the owner's event: SuccessfulCreate "Created pod: <name>",
// FailedCreate "Error creating: <error>" (none while the namespace is being
// terminated), SuccessfulDelete "Deleted pod: <name>", FailedDelete
// "Error deleting: <error>".

import type { KubeObject, OwnerReference } from '../../kinds/types';
import { nameIsDNSSubdomain } from '../../kinds/validation/names';
import type { ApiClient } from '../client/api-client';
import { ApiError, errorMessage, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { EventRecorder } from '../runtime/event-recorder';
import { deepCopy, rec } from './objects';

export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };

export const FAILED_CREATE_POD_REASON = 'FailedCreate';
export const SUCCESSFUL_CREATE_POD_REASON = 'SuccessfulCreate';
export const FAILED_DELETE_POD_REASON = 'FailedDelete';
export const SUCCESSFUL_DELETE_POD_REASON = 'SuccessfulDelete';

/** The Status cause a create gets in a namespace being deleted (v1.NamespaceTerminatingCause). */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/** apierrors.HasStatusCause. */
export function hasStatusCause(err: unknown, type: string): boolean {
  if (!(err instanceof ApiError)) return false;
  const causes = (err.status?.details as { causes?: { type?: string }[] } | undefined)?.causes ?? [];
  return causes.some((c) => c.type === type);
}

/** getPodsPrefix: "<owner>-", or the bare name when the dash would make an invalid name. */
export function podNamePrefix(ownerName: string): string {
  const prefix = `${ownerName}-`;
  return nameIsDNSSubdomain(prefix, true).length === 0 ? prefix : ownerName;
}

/** GetPodFromTemplate: the pod a workload's template describes, not yet named. */
export function podFromTemplate(template: unknown, ownerName: string, controllerRef?: OwnerReference): KubeObject {
  const t = rec(template);
  const meta = rec(t.metadata);
  const metadata: Record<string, unknown> = { generateName: podNamePrefix(ownerName) };
  if (meta.labels && Object.keys(rec(meta.labels)).length > 0) metadata.labels = deepCopy(meta.labels);
  if (meta.annotations && Object.keys(rec(meta.annotations)).length > 0) metadata.annotations = deepCopy(meta.annotations);
  if (Array.isArray(meta.finalizers) && meta.finalizers.length > 0) metadata.finalizers = [...(meta.finalizers as string[])];
  if (controllerRef) metadata.ownerReferences = [{ ...controllerRef }];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: deepCopy(rec(t.spec)) };
}

export class PodControl {
  constructor(
    private readonly client: ApiClient,
    private readonly recorder: EventRecorder,
  ) {}

  /**
   * CreatePods: one pod from the template, owned by `owner`; records the
   * owner's event and resolves with the created pod, or throws the API's error.
   * `mutate` lets a controller add what is its own (a Job's index, a
   * StatefulSet's name) before the pod is sent.
   */
  async createPod(namespace: string, template: unknown, owner: KubeObject, controllerRef: OwnerReference | undefined, mutate?: (pod: KubeObject) => void): Promise<KubeObject> {
    const pod = podFromTemplate(template, owner.metadata?.name ?? '', controllerRef);
    mutate?.(pod);
    if (Object.keys(pod.metadata?.labels ?? {}).length === 0) throw new Error('unable to create pods, no labels');
    let created: KubeObject;
    try {
      created = await this.client.create(PODS, namespace, pod);
    } catch (err) {
      if (!hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
        await this.recorder.record(owner, { type: 'Warning', reason: FAILED_CREATE_POD_REASON, message: `Error creating: ${errorMessage(err)}` });
      }
      throw err;
    }
    await this.recorder.record(owner, { type: 'Normal', reason: SUCCESSFUL_CREATE_POD_REASON, message: `Created pod: ${created.metadata?.name ?? ''}` });
    return created;
  }

  /** DeletePod: a NotFound is thrown without an event (the pod is gone already). */
  async deletePod(namespace: string, name: string, owner: KubeObject): Promise<void> {
    try {
      await this.client.delete(PODS, namespace, name);
    } catch (err) {
      if (isNotFound(err)) throw err;
      await this.recorder.record(owner, { type: 'Warning', reason: FAILED_DELETE_POD_REASON, message: `Error deleting: ${errorMessage(err)}` });
      throw new Error(`unable to delete pods: ${errorMessage(err)}`);
    }
    await this.recorder.record(owner, { type: 'Normal', reason: SUCCESSFUL_DELETE_POD_REASON, message: `Deleted pod: ${name}` });
  }
}
