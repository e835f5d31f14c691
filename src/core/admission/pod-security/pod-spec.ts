// Where a pod spec lives in the resources PodSecurity looks at (kube's
// DefaultPodSpecExtractor): pods themselves, and the pod templates of
// replicationcontrollers, podtemplates, replicasets, deployments,
// statefulsets, daemonsets, jobs and cronjobs.

import type { KubeObject } from '../../kinds/types';
import { obj, type PodMetadata, type PodSpec } from './check-types';

const POD_CONTROLLERS: Readonly<Record<string, readonly string[]>> = {
  '': ['replicationcontrollers', 'podtemplates'],
  apps: ['replicasets', 'deployments', 'statefulsets', 'daemonsets'],
  batch: ['jobs', 'cronjobs'],
};

export function isPodController(group: string, resource: string): boolean {
  return POD_CONTROLLERS[group]?.includes(resource) ?? false;
}

export interface ExtractedPod {
  readonly metadata: PodMetadata;
  readonly spec: PodSpec;
}

function fromTemplate(template: unknown): ExtractedPod | undefined {
  const t = obj(template);
  if (!t) return undefined;
  return { metadata: obj(t.metadata) ?? {}, spec: obj(t.spec) ?? {} };
}

/** The pod (template) of a pod or pod controller; undefined when the object carries none. */
export function extractPod(resource: string, object: KubeObject): ExtractedPod | undefined {
  const o = object as Record<string, unknown>;
  const spec = obj(o.spec);
  switch (resource) {
    case 'pods':
      return { metadata: obj(o.metadata) ?? {}, spec: spec ?? {} };
    case 'podtemplates':
      return fromTemplate(o.template);
    case 'cronjobs':
      return fromTemplate(obj(obj(spec?.jobTemplate)?.spec)?.template);
    default:
      return fromTemplate(spec?.template);
  }
}
