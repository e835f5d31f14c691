// podutil.IsPodTerminal and the pod the StatefulSet and DaemonSet
// controllers create from a template (controller.GetPodFromTemplate).
// Readiness and availability come from ../workloads. This podFromTemplate is
// kept apart from workloads' because it differs: it copies an empty labels or
// annotations map as {} and always uses `<owner>-` as generateName, which
// pods created so far show; switching would change what clients see.

import type { KubeObject, OwnerReference } from '../../kinds/types';
import { podPhase } from '../workloads';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** podutil.IsPodTerminal: Failed or Succeeded. */
export function isPodTerminal(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Failed' || phase === 'Succeeded';
}

/** controller.GetPodFromTemplate: labels, annotations and finalizers of the template, `<owner>-` as generateName, the controller reference, the template's spec. */
export function podFromTemplate(template: unknown, ownerName: string, controllerRef: OwnerReference | undefined): KubeObject {
  const t = rec(template);
  const meta = rec(t.metadata);
  const metadata: KubeObject['metadata'] = { generateName: `${ownerName}-` };
  if (meta.labels) metadata.labels = { ...(meta.labels as Record<string, string>) };
  if (meta.annotations) metadata.annotations = { ...(meta.annotations as Record<string, string>) };
  if (Array.isArray(meta.finalizers) && meta.finalizers.length > 0) metadata.finalizers = [...(meta.finalizers as string[])];
  if (controllerRef) metadata.ownerReferences = [{ ...controllerRef }];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(rec(t.spec)) };
}
