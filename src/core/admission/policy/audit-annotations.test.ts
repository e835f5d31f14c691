// What ValidatingAdmissionPolicy leaves for the audit log: the
// validation.policy.admission.k8s.io/validation_failure annotation of the
// Audit action and the policy's auditAnnotations as `<policy>/<key>`.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import type { AdmissionAttributes, AdmissionContext } from '../types';
import { createValidatingAdmissionPolicyPlugin } from './validating-policy';

const policy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'p' },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
    validations: [{ expression: "object.metadata.name != 'x'", message: 'x is reserved' }],
    auditAnnotations: [
      { key: 'name', valueExpression: "'created ' + object.metadata.name" },
      { key: 'empty', valueExpression: "''" },
    ],
  },
} as unknown as KubeObject;
const binding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'b' },
  spec: { policyName: 'p', validationActions: ['Audit'] },
} as unknown as KubeObject;

const ctx: AdmissionContext = {
  reader: {
    get: async () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }) as KubeObject,
    list: async (gr) => (gr.resource === 'validatingadmissionpolicies' ? [policy] : gr.resource === 'validatingadmissionpolicybindings' ? [binding] : []),
  },
  clock: undefined as never,
  randomString: () => '',
  services: {},
};

describe('ValidatingAdmissionPolicy audit annotations', () => {
  it('records Audit failures and the policy\'s auditAnnotations, without refusing', async () => {
    const annotations: Record<string, string> = {};
    const warnings: string[] = [];
    const attrs: AdmissionAttributes = {
      operation: 'CREATE',
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      subresource: '',
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      namespace: 'default',
      name: 'x',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } } as KubeObject,
      dryRun: false,
      addWarning: (w) => warnings.push(w),
      addAuditAnnotation: (k, v) => (annotations[k] = v),
    };
    await createValidatingAdmissionPolicyPlugin().validate!(attrs, ctx);
    expect(warnings).toEqual([]);
    expect(annotations).toEqual({
      'validation.policy.admission.k8s.io/validation_failure': '[{"message":"x is reserved","policy":"p","binding":"b","expressionIndex":0,"validationActions":["Audit"]}]',
      'p/name': 'created x',
    });
  });
});
