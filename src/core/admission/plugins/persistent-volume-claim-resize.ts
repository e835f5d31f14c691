// PersistentVolumeClaimResize: a claim's storage request may grow only when
// the claim is Bound and its StorageClass has allowVolumeExpansion: true.

import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { isObj } from './pod-helpers';
import { milliValue, resourceList } from './quantities';

const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

function storageOf(pvc: unknown): number {
  const spec = isObj(pvc) && isObj(pvc['spec']) ? pvc['spec'] : {};
  return milliValue(resourceList(isObj(spec['resources']) ? spec['resources']['requests'] : undefined)['storage']) ?? 0;
}

function classOf(pvc: AdmissionAttributes['object']): string {
  const annotated = pvc?.metadata?.annotations?.[BETA_CLASS_ANNOTATION];
  if (annotated !== undefined) return annotated;
  const spec = isObj(pvc?.['spec']) ? (pvc['spec'] as Record<string, unknown>) : {};
  return typeof spec['storageClassName'] === 'string' ? spec['storageClassName'] : '';
}

async function validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'persistentvolumeclaims' || attrs.subresource) return;
  if (!attrs.object || !attrs.oldObject) return;
  if (storageOf(attrs.object) <= storageOf(attrs.oldObject)) return;
  const phase = isObj(attrs.oldObject['status']) ? attrs.oldObject['status']['phase'] : undefined;
  if (phase !== 'Bound') throw admissionForbidden(attrs, 'Only bound persistent volume claims can be expanded');
  const className = classOf(attrs.object);
  const sc = className && className === classOf(attrs.oldObject) ? await ctx.reader.get({ group: 'storage.k8s.io', resource: 'storageclasses' }, '', className) : undefined;
  if (sc?.['allowVolumeExpansion'] !== true) {
    throw admissionForbidden(attrs, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
  }
}

export function persistentVolumeClaimResize(): AdmissionPlugin {
  return { name: 'PersistentVolumeClaimResize', handles: (op) => op === 'UPDATE', validate };
}
