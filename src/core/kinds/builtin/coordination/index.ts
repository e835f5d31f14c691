// coordination.k8s.io: leases (v1; PUT may create, as leader election does)
// and leasecandidates (v1alpha2, off by default in 1.32).

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, rec, str, table } from '../common/table';

function validateLease(lease: KubeObject): FieldError[] {
  const spec = rec(lease.spec);
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errs.push(fieldErrors.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) {
    errs.push(fieldErrors.invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (spec.strategy !== undefined && spec.strategy !== null && spec.strategy !== 'OldestEmulationVersion') {
    errs.push(fieldErrors.notSupported('spec.strategy', spec.strategy, ['OldestEmulationVersion']));
  }
  return errs;
}

export const LEASE_TABLE = table([col('Holder', 'string', 'Identity currently holding the lease'), AGE_COLUMN], (o, now) => [
  str(rec(o.spec).holderIdentity),
  age(o, now),
]);

export const leasesResource: ResourceDefinition = defineResource({
  group: 'coordination.k8s.io',
  plural: 'leases',
  kind: 'Lease',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.coordination.v1.Lease', { table: LEASE_TABLE })],
  strategy: standardStrategy({ namespaced: true, validate: (o) => validateLease(o), allowCreateOnUpdate: true }),
});

export const leaseCandidatesResource: ResourceDefinition = defineResource({
  group: 'coordination.k8s.io',
  plural: 'leasecandidates',
  kind: 'LeaseCandidate',
  namespaced: true,
  versions: [
    {
      ...version('v1alpha2', 'io.k8s.api.coordination.v1alpha2.LeaseCandidate', {
        table: table([col('LeaseName', 'string', 'Lease this candidate runs for'), col('BinaryVersion', 'string', 'Binary version of the candidate'), col('EmulationVersion', 'string', 'Emulation version of the candidate'), AGE_COLUMN], (o, now) => {
          const spec = rec(o.spec);
          return [str(spec.leaseName), str(spec.binaryVersion), str(spec.emulationVersion), age(o, now)];
        }),
      }),
      enabledByDefault: false,
    },
  ],
  strategy: standardStrategy({
    namespaced: true,
    validate: (o) => {
      const spec = rec(o.spec);
      const errs: FieldError[] = [];
      if (!str(spec.leaseName)) errs.push(fieldErrors.required('spec.leaseName'));
      if (!str(spec.binaryVersion)) errs.push(fieldErrors.required('spec.binaryVersion'));
      if (!str(spec.strategy)) errs.push(fieldErrors.required('spec.strategy'));
      return errs;
    },
  }),
});

export function coordinationResources(): ResourceDefinition[] {
  return [leasesResource, leaseCandidatesResource];
}
