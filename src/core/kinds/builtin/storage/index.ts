// storage.k8s.io: storageclasses (Delete / Immediate by default, the
// "(default)" marker in the NAME column), csidrivers, csinodes,
// csistoragecapacities, volumeattachments (v1), and volumeattributesclasses
// (v1alpha1/v1beta1, off by default in 1.32).

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, TableDefinition } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { isQualifiedName } from '../../validation/names';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, NAME_COLUMN, rec, str, table } from '../common/table';
import { validateEnum } from '../core/pod-spec/validation';

const GROUP = 'storage.k8s.io';

// ---- StorageClass ----

function defaultStorageClass(sc: KubeObject): void {
  if (!sc.reclaimPolicy) sc.reclaimPolicy = 'Delete';
  if (!sc.volumeBindingMode) sc.volumeBindingMode = 'Immediate';
}

function validateProvisioner(provisioner: string, path: string): FieldError[] {
  if (!provisioner) return [fieldErrors.required(path)];
  if (provisioner.length > 63) return [{ type: 'FieldValueTooLong', field: path, detail: 'may not be more than 63 bytes' }];
  return isQualifiedName(provisioner.toLowerCase()).map((m) => fieldErrors.invalid(path, provisioner, m));
}

function validateStorageClass(sc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateProvisioner(str(sc.provisioner), 'provisioner'));
  const params = rec(sc.parameters);
  let size = 0;
  for (const [k, v] of Object.entries(params)) {
    if (!k) errs.push(fieldErrors.invalid('parameters', k, 'field can not be empty.'));
    size += k.length + String(v).length;
  }
  if (size > 256 * 1024) errs.push({ type: 'FieldValueTooLong', field: 'parameters', detail: `may not be more than ${256 * 1024} bytes` });
  if (sc.reclaimPolicy !== undefined) errs.push(...validateEnum(sc.reclaimPolicy, 'reclaimPolicy', ['Delete', 'Retain']));
  if (sc.volumeBindingMode !== undefined) errs.push(...validateEnum(sc.volumeBindingMode, 'volumeBindingMode', ['Immediate', 'WaitForFirstConsumer']));
  return errs;
}

function validateStorageClassUpdate(sc: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!deepEqual(sc.parameters ?? {}, old.parameters ?? {})) errs.push(fieldErrors.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) errs.push(fieldErrors.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) errs.push(fieldErrors.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  errs.push(...validateImmutableField(sc.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode'));
  return errs;
}

function isDefaultClass(sc: KubeObject): boolean {
  const a = sc.metadata?.annotations ?? {};
  return a['storageclass.kubernetes.io/is-default-class'] === 'true' || a['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
}

export const STORAGE_CLASS_TABLE: TableDefinition = {
  columns: [
    NAME_COLUMN,
    col('Provisioner', 'string', 'Volume provisioner'),
    col('ReclaimPolicy', 'string', 'What happens to released volumes'),
    col('VolumeBindingMode', 'string', 'When claims get bound'),
    col('AllowVolumeExpansion', 'string', 'Whether volumes may grow'),
    AGE_COLUMN,
  ],
  cells: (sc, now) => [
    `${sc.metadata?.name ?? ''}${isDefaultClass(sc) ? ' (default)' : ''}`,
    str(sc.provisioner),
    str(sc.reclaimPolicy) || 'Delete',
    str(sc.volumeBindingMode) || 'Immediate',
    sc.allowVolumeExpansion === true,
    age(sc, now),
  ],
};

export const storageClassesResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'storageclasses',
  kind: 'StorageClass',
  namespaced: false,
  shortNames: ['sc'],
  versions: [version('v1', 'io.k8s.api.storage.v1.StorageClass', { table: STORAGE_CLASS_TABLE })],
  strategy: standardStrategy({
    namespaced: false,
    default: (o) => defaultStorageClass(o),
    validate: (o) => validateStorageClass(o),
    validateUpdate: (o, old) => validateStorageClassUpdate(o, old),
  }),
});

// ---- CSIDriver ----

function defaultCSIDriver(d: KubeObject): void {
  const spec = rec(d.spec);
  d.spec = spec;
  const setBool = (k: string, v: boolean) => {
    if (spec[k] === undefined || spec[k] === null) spec[k] = v;
  };
  setBool('attachRequired', true);
  setBool('podInfoOnMount', false);
  setBool('storageCapacity', false);
  if (!spec.fsGroupPolicy) spec.fsGroupPolicy = 'ReadWriteOnceWithFSType';
  if (!arr(spec.volumeLifecycleModes).length) spec.volumeLifecycleModes = ['Persistent'];
  setBool('requiresRepublish', false);
  setBool('seLinuxMount', false);
}

function validateCSIDriver(d: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = d.metadata?.name ?? '';
  if (name.length > 63) errs.push({ type: 'FieldValueTooLong', field: 'metadata.name', detail: 'may not be more than 63 bytes' });
  const spec = rec(d.spec);
  errs.push(...validateEnum(spec.fsGroupPolicy, 'spec.fsGroupPolicy', ['File', 'None', 'ReadWriteOnceWithFSType'], false));
  arr(spec.volumeLifecycleModes).forEach((m, i) => {
    if (m !== 'Persistent' && m !== 'Ephemeral') errs.push(fieldErrors.notSupported(`spec.volumeLifecycleModes[${i}]`, m, ['Ephemeral', 'Persistent']));
  });
  return errs;
}

export const CSI_DRIVER_TABLE = table(
  [
    col('AttachRequired', 'boolean', 'Whether volumes need an attach step'),
    col('PodInfoOnMount', 'boolean'),
    col('StorageCapacity', 'boolean'),
    col('TokenRequests', 'string'),
    col('RequiresRepublish', 'boolean'),
    col('Modes', 'string'),
    AGE_COLUMN,
  ],
  (d, now) => {
    const spec = rec(d.spec);
    const modes = arr(spec.volumeLifecycleModes).join(',');
    const tokens = spec.tokenRequests === undefined || spec.tokenRequests === null ? '<unset>' : arr(spec.tokenRequests).map((t) => str(rec(t).audience)).join(',');
    return [spec.attachRequired !== false, spec.podInfoOnMount === true, spec.storageCapacity === true, tokens, spec.requiresRepublish === true, modes || '<none>', age(d, now)];
  },
);

export const csiDriversResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'csidrivers',
  kind: 'CSIDriver',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.storage.v1.CSIDriver', { table: CSI_DRIVER_TABLE })],
  strategy: standardStrategy({
    namespaced: false,
    generationFields: ['spec'],
    default: (o) => defaultCSIDriver(o),
    validate: (o) => validateCSIDriver(o),
    validateUpdate: (o, old) => {
      const spec = rec(o.spec);
      const oldSpec = rec(old.spec);
      return [
        ...validateImmutableField(spec.attachRequired, oldSpec.attachRequired, 'spec.attachRequired'),
        ...validateImmutableField(spec.volumeLifecycleModes, oldSpec.volumeLifecycleModes, 'spec.volumeLifecycleModes'),
      ];
    },
  }),
});

// ---- CSINode ----

export const CSI_NODE_TABLE = table([col('Drivers', 'integer', 'Number of CSI drivers on the node'), AGE_COLUMN], (n, now) => [arr(rec(n.spec).drivers).length, age(n, now)]);

export const csiNodesResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'csinodes',
  kind: 'CSINode',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.storage.v1.CSINode', { table: CSI_NODE_TABLE })],
  strategy: standardStrategy({
    namespaced: false,
    validate: (o) => {
      const errs: FieldError[] = [];
      const names = new Set<string>();
      arr(rec(o.spec).drivers).forEach((d, i) => {
        const name = str(rec(d).name);
        if (!name) errs.push(fieldErrors.required(`spec.drivers[${i}].name`));
        if (names.has(name)) errs.push(fieldErrors.duplicate(`spec.drivers[${i}].name`, name));
        names.add(name);
        if (!str(rec(d).nodeID)) errs.push(fieldErrors.required(`spec.drivers[${i}].nodeID`));
      });
      return errs;
    },
  }),
});

// ---- CSIStorageCapacity ----

// printCSIStorageCapacity has no AGE column.
export const CSI_STORAGE_CAPACITY_TABLE = table([col('StorageClassName', 'string'), col('Capacity', 'string')], (c) => [
  str(c.storageClassName),
  c.capacity === undefined || c.capacity === null ? '<unset>' : String(c.capacity),
]);

export const csiStorageCapacitiesResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'csistoragecapacities',
  kind: 'CSIStorageCapacity',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.storage.v1.CSIStorageCapacity', { table: CSI_STORAGE_CAPACITY_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    validate: (o) => (str(o.storageClassName) ? [] : [fieldErrors.required('storageClassName')]),
    validateUpdate: (o, old) => validateImmutableField(o.storageClassName, old.storageClassName, 'storageClassName'),
  }),
});

// ---- VolumeAttachment ----

function validateVolumeAttachment(va: KubeObject): FieldError[] {
  const spec = rec(va.spec);
  const errs: FieldError[] = [];
  if (!str(spec.attacher)) errs.push(fieldErrors.required('spec.attacher'));
  if (!str(spec.nodeName)) errs.push(fieldErrors.required('spec.nodeName'));
  const source = rec(spec.source);
  const count = ['persistentVolumeName', 'inlineVolumeSpec'].filter((k) => source[k] !== undefined && source[k] !== null).length;
  if (count === 0) errs.push(fieldErrors.required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  if (count > 1) errs.push(fieldErrors.forbidden('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  return errs;
}

export const VOLUME_ATTACHMENT_TABLE = table(
  [{ name: 'Attacher', type: 'string', format: 'name', priority: 0 }, col('PV', 'string'), col('Node', 'string'), col('Attached', 'boolean'), AGE_COLUMN],
  (va, now) => {
    const spec = rec(va.spec);
    return [str(spec.attacher), str(rec(spec.source).persistentVolumeName), str(spec.nodeName), rec(va.status).attached === true, age(va, now)];
  },
);

export const volumeAttachmentsResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'volumeattachments',
  kind: 'VolumeAttachment',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.storage.v1.VolumeAttachment', { table: VOLUME_ATTACHMENT_TABLE })],
  subresources: [statusSubresource('VolumeAttachment')],
  strategy: standardStrategy({
    namespaced: false,
    statusFields: ['status'],
    validate: (o) => validateVolumeAttachment(o),
    validateUpdate: (o, old) => validateImmutableField(o.spec, old.spec, 'spec'),
    validateStatusUpdate: () => [],
  }),
});

// ---- VolumeAttributesClass (off by default) ----

const VAC_TABLE = table([col('DriverName', 'string'), AGE_COLUMN], (o, now) => [str(o.driverName), age(o, now)]);

export const volumeAttributesClassesResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'volumeattributesclasses',
  kind: 'VolumeAttributesClass',
  namespaced: false,
  shortNames: ['vac'],
  versions: [
    { ...version('v1beta1', 'io.k8s.api.storage.v1beta1.VolumeAttributesClass', { table: VAC_TABLE }), enabledByDefault: false },
    { ...version('v1alpha1', 'io.k8s.api.storage.v1alpha1.VolumeAttributesClass', { storage: false, table: VAC_TABLE }), enabledByDefault: false },
  ],
  strategy: standardStrategy({
    namespaced: false,
    validate: (o) => validateProvisioner(str(o.driverName), 'driverName'),
    validateUpdate: (o, old) => [
      ...validateImmutableField(o.driverName, old.driverName, 'driverName'),
      ...(deepEqual(o.parameters ?? {}, old.parameters ?? {}) ? [] : [fieldErrors.forbidden('parameters', 'updates to parameters are forbidden.')]),
    ],
  }),
});


export function storageResources(): ResourceDefinition[] {
  return [csiDriversResource, csiNodesResource, csiStorageCapacitiesResource, storageClassesResource, volumeAttachmentsResource, volumeAttributesClassesResource];
}
