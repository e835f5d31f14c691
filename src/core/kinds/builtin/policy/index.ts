// policy/v1 poddisruptionbudgets: minAvailable or maxUnavailable (not both),
// the unhealthy-pod eviction policy, status reset on create, the printer's
// MIN AVAILABLE / MAX UNAVAILABLE / ALLOWED DISRUPTIONS.

import { fieldErrors, GoLiteral, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, col, num, rec, table } from '../common/table';
import { validateLabelSelector } from '../common/workload';
import { validateEnum } from '../core/pod-spec/validation';
import { notMoreThan100Percent, validatePositiveIntOrPercent } from '../apps/deployments';

/**
 * %#v of the internal policy.PodDisruptionBudgetSpec: its fields are pointers,
 * which Go prints as addresses (different per request); fixed ones stand in.
 */
function goPDBSpec(spec: Record<string, unknown>): GoLiteral {
  let address = 0xc000a2c100;
  const ptr = (type: string, v: unknown) => `(*${type})(${v === undefined || v === null ? 'nil' : `0x${(address += 0x10).toString(16)}`})`;
  return new GoLiteral(
    `policy.PodDisruptionBudgetSpec{MinAvailable:${ptr('intstr.IntOrString', spec.minAvailable)}, Selector:${ptr('v1.LabelSelector', spec.selector)}, MaxUnavailable:${ptr('intstr.IntOrString', spec.maxUnavailable)}, UnhealthyPodEvictionPolicy:${ptr('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy)}}`,
  );
}

function validatePDB(pdb: KubeObject): FieldError[] {
  const spec = rec(pdb.spec);
  const errs: FieldError[] = [];
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(spec.minAvailable) && has(spec.maxUnavailable)) {
    errs.push(fieldErrors.invalid('spec', goPDBSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  }
  if (has(spec.minAvailable)) {
    errs.push(...validatePositiveIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
    errs.push(...notMoreThan100Percent(spec.minAvailable, 'spec.minAvailable'));
  }
  if (has(spec.maxUnavailable)) {
    errs.push(...validatePositiveIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
    errs.push(...notMoreThan100Percent(spec.maxUnavailable, 'spec.maxUnavailable'));
  }
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  if (has(spec.unhealthyPodEvictionPolicy)) {
    errs.push(...validateEnum(spec.unhealthyPodEvictionPolicy, 'spec.unhealthyPodEvictionPolicy', ['AlwaysAllow', 'IfHealthyBudget']));
  }
  return errs;
}

const intOrString = (v: unknown) => (v === undefined || v === null ? 'N/A' : String(v));

export const PDB_TABLE = table(
  [
    col('Min Available', 'string', 'Pods that must stay available'),
    col('Max Unavailable', 'string', 'Pods that may be unavailable'),
    col('Allowed Disruptions', 'integer', 'Disruptions allowed right now'),
    AGE_COLUMN,
  ],
  (pdb, now) => {
    const spec = rec(pdb.spec);
    return [intOrString(spec.minAvailable), intOrString(spec.maxUnavailable), num(rec(pdb.status).disruptionsAllowed), age(pdb, now)];
  },
);

export const podDisruptionBudgetsResource: ResourceDefinition = defineResource({
  group: 'policy',
  plural: 'poddisruptionbudgets',
  kind: 'PodDisruptionBudget',
  namespaced: true,
  shortNames: ['pdb'],
  versions: [version('v1', 'io.k8s.api.policy.v1.PodDisruptionBudget', { table: PDB_TABLE })],
  subresources: [statusSubresource('PodDisruptionBudget')],
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    initialStatus: () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
    generationFields: ['spec'],
    validate: (o) => validatePDB(o),
  }),
});

export function policyResources(): ResourceDefinition[] {
  return [podDisruptionBudgetsResource];
}
