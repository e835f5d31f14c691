// core/v1 persistentvolumes and persistentvolumeclaims: defaults (Retain,
// Filesystem, Pending), status handling, the spec checks users hit and the
// printer columns (CAPACITY, ACCESS MODES, …, VOLUMEATTRIBUTESCLASS).

import { rfc3339 } from '../../../clock';
import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, rec, str, table, wide } from '../common/table';
import { VOLUME_SOURCE_FIELDS } from './pod-spec/defaults';
import { validateEnum } from './pod-spec/validation';
import { describeSpecDiff } from './pods/update-validation';

const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];
const MODE_ABBREVIATIONS: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };

/** helper.GetAccessModesAsString: fixed order, no duplicates. */
export function accessModesString(modes: unknown): string {
  const present = new Set(arr(modes).map(String));
  return ACCESS_MODES.filter((m) => present.has(m)).map((m) => MODE_ABBREVIATIONS[m]).join(',');
}

function storageClassOf(obj: KubeObject): string {
  return obj.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? str(rec(obj.spec).storageClassName);
}

function validateAccessModes(modes: unknown, path: string): FieldError[] {
  const list = arr(modes);
  if (list.length === 0) return [fieldErrors.required(path, 'at least 1 access mode is required')];
  const errs: FieldError[] = [];
  for (const m of list) if (!ACCESS_MODES.includes(String(m))) errs.push(fieldErrors.notSupported(path, m, ACCESS_MODES));
  if (list.includes('ReadWriteOncePod') && list.length > 1) errs.push(fieldErrors.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

// ---- PersistentVolume ----

function defaultPV(pv: KubeObject): void {
  const spec = rec(pv.spec);
  pv.spec = spec;
  if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = 'Retain';
  if (!spec.volumeMode) spec.volumeMode = 'Filesystem';
  if (pv.status !== undefined && !rec(pv.status).phase) pv.status = { ...rec(pv.status), phase: 'Pending' };
}

function validatePV(pv: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = rec(pv.spec);
  errs.push(...validateAccessModes(spec.accessModes, 'spec.accessModes'));
  if (rec(spec.capacity).storage === undefined) {
    if (Object.keys(rec(spec.capacity)).length === 0) errs.push(fieldErrors.required('spec.capacity'));
    else errs.push(fieldErrors.notSupported('spec.capacity', Object.keys(rec(spec.capacity)), ['storage']));
  }
  errs.push(...validateEnum(spec.persistentVolumeReclaimPolicy, 'spec.persistentVolumeReclaimPolicy', ['Delete', 'Recycle', 'Retain']));
  const sources = VOLUME_SOURCE_FIELDS.filter((s) => !['emptyDir', 'secret', 'configMap', 'downwardAPI', 'projected', 'persistentVolumeClaim', 'gitRepo', 'ephemeral', 'image'].includes(s));
  const present = [...sources, 'local'].filter((s) => spec[s] !== undefined && spec[s] !== null);
  if (present.length === 0) errs.push(fieldErrors.required('spec', 'must specify a volume type'));
  for (const extra of present.slice(1)) errs.push(fieldErrors.forbidden(`spec.${extra}`, 'may not specify more than 1 volume type'));
  if (spec.volumeMode !== undefined) errs.push(...validateEnum(spec.volumeMode, 'spec.volumeMode', ['Block', 'Filesystem']));
  return errs;
}

export const PERSISTENT_VOLUME_TABLE = table(
  [
    col('Capacity'),
    col('Access Modes'),
    col('Reclaim Policy'),
    col('Status'),
    col('Claim'),
    col('StorageClass'),
    col('VolumeAttributesClass'),
    col('Reason'),
    AGE_COLUMN,
    wide('VolumeMode'),
  ],
  (pv, now) => {
    const spec = rec(pv.spec);
    const claimRef = spec.claimRef === undefined || spec.claimRef === null ? undefined : rec(spec.claimRef);
    const phase = pv.metadata?.deletionTimestamp ? 'Terminating' : str(rec(pv.status).phase);
    return [
      String(rec(spec.capacity).storage ?? '0'),
      accessModesString(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      phase,
      claimRef ? `${str(claimRef.namespace)}/${str(claimRef.name)}` : '',
      storageClassOf(pv),
      spec.volumeAttributesClassName === undefined || spec.volumeAttributesClassName === null ? '<unset>' : str(spec.volumeAttributesClassName),
      str(rec(pv.status).reason),
      age(pv, now),
      spec.volumeMode ? str(spec.volumeMode) : '<unset>',
    ];
  },
);

export const persistentVolumesResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'persistentvolumes',
  kind: 'PersistentVolume',
  namespaced: false,
  shortNames: ['pv'],
  versions: [version('v1', 'io.k8s.api.core.v1.PersistentVolume', { table: PERSISTENT_VOLUME_TABLE })],
  subresources: [statusSubresource('PersistentVolume')],
  strategy: standardStrategy({
    namespaced: false,
    statusFields: ['status'],
    default: (o) => defaultPV(o),
    // PersistentVolumeLastPhaseTransitionTime (GA): a new volume is Pending since now.
    initialStatus: (_o, ctx) => ({ phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.clock.now()) }),
    validate: (o) => validatePV(o),
    prepareForStatusUpdate(obj, old, ctx) {
      if (str(rec(obj.status).phase) !== str(rec(old.status).phase)) {
        obj.status = { ...rec(obj.status), lastPhaseTransitionTime: rfc3339(ctx.clock.now()) };
      }
    },
  }),
});

// ---- PersistentVolumeClaim ----

function defaultPVC(pvc: KubeObject): void {
  const spec = rec(pvc.spec);
  pvc.spec = spec;
  if (!spec.volumeMode) spec.volumeMode = 'Filesystem';
  if (pvc.status !== undefined && !rec(pvc.status).phase) pvc.status = { ...rec(pvc.status), phase: 'Pending' };
}

function validatePVC(pvc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = rec(pvc.spec);
  errs.push(...validateAccessModes(spec.accessModes, 'spec.accessModes'));
  const requests = rec(rec(spec.resources).requests);
  if (requests.storage === undefined) errs.push(fieldErrors.required('spec.resources[storage]'));
  errs.push(...validateEnum(spec.volumeMode, 'spec.volumeMode', ['Block', 'Filesystem'], false));
  return errs;
}

const PVC_SPEC_IMMUTABLE = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

function validatePVCUpdate(pvc: KubeObject, old: KubeObject): FieldError[] {
  const spec = { ...rec(pvc.spec) };
  const oldSpec = { ...rec(old.spec) };
  // What may change: requests (expansion), volumeName when unset before, the class of attributes.
  const munged: Record<string, unknown> = { ...spec, resources: oldSpec.resources, volumeAttributesClassName: oldSpec.volumeAttributesClassName };
  if (!oldSpec.volumeName) munged.volumeName = oldSpec.volumeName;
  if (munged.volumeAttributesClassName === undefined) delete munged.volumeAttributesClassName;
  if (munged.volumeName === undefined) delete munged.volumeName;
  if (munged.resources === undefined) delete munged.resources;
  if (!deepEqual(munged, oldSpec)) {
    return [fieldErrors.forbidden('spec', `${PVC_SPEC_IMMUTABLE}\n${describeSpecDiff(oldSpec, munged).replace('core.PodSpec', 'core.PersistentVolumeClaimSpec')}`)];
  }
  return [];
}

export const PERSISTENT_VOLUME_CLAIM_TABLE = table(
  [col('Status'), col('Volume'), col('Capacity'), col('Access Modes'), col('StorageClass'), col('VolumeAttributesClass'), AGE_COLUMN, wide('VolumeMode')],
  (pvc, now) => {
    const spec = rec(pvc.spec);
    const status = rec(pvc.status);
    const phase = pvc.metadata?.deletionTimestamp ? 'Terminating' : str(status.phase);
    const bound = !!str(spec.volumeName);
    return [
      phase,
      str(spec.volumeName),
      bound ? String(rec(status.capacity).storage ?? '0') : '',
      bound ? accessModesString(status.accessModes) : '',
      storageClassOf(pvc),
      spec.volumeAttributesClassName === undefined || spec.volumeAttributesClassName === null ? '<unset>' : str(spec.volumeAttributesClassName),
      age(pvc, now),
      spec.volumeMode ? str(spec.volumeMode) : '<unset>',
    ];
  },
);

export const persistentVolumeClaimsResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
  namespaced: true,
  shortNames: ['pvc'],
  versions: [version('v1', 'io.k8s.api.core.v1.PersistentVolumeClaim', { table: PERSISTENT_VOLUME_CLAIM_TABLE })],
  subresources: [statusSubresource('PersistentVolumeClaim')],
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    default: (o) => defaultPVC(o),
    // The stored status is empty; reads default its phase to Pending, so it is written as such.
    initialStatus: () => ({ phase: 'Pending' }),
    validate: (o) => validatePVC(o),
    updateValidatesNew: false,
    validateUpdate: (o, old) => [...validatePVC(o), ...validatePVCUpdate(o, old)],
  }),
});
