// Bad values printed as 1.32 prints them (%#v of internal structs) in
// validation messages that carry a whole struct.

import { describe, expect, it } from 'vitest';
import { create } from './common/testing';
import { podDisruptionBudgetsResource } from './policy';

describe('poddisruptionbudgets', () => {
  it('minAvailable with maxUnavailable reports the whole policy.PodDisruptionBudgetSpec (pointers as addresses)', async () => {
    const { errors } = await create(podDisruptionBudgetsResource, { metadata: { name: 'p', namespace: 'd' }, spec: { minAvailable: 1, maxUnavailable: 1, selector: { matchLabels: { a: 'b' } } } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^spec: Invalid value: policy\.PodDisruptionBudgetSpec\{MinAvailable:\(\*intstr\.IntOrString\)\(0x[0-9a-f]+\), Selector:\(\*v1\.LabelSelector\)\(0x[0-9a-f]+\), MaxUnavailable:\(\*intstr\.IntOrString\)\(0x[0-9a-f]+\), UnhealthyPodEvictionPolicy:\(\*policy\.UnhealthyPodEvictionPolicyType\)\(nil\)\}: minAvailable and maxUnavailable cannot be both set$/,
    );
  });
});
