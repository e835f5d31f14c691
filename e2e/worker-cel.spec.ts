// CEL in the built service worker after a cold start. The worker's bundle
// evaluates the CEL library only when the first expression is compiled
// (vite.config.ts, decision 0315); these checks compile and run expressions in
// a freshly started worker through each of its three users: a CRD's
// x-kubernetes-validations, a ValidatingAdmissionPolicy, and the
// configuration check of an authorization webhook's matchConditions.

import { expect, test, type Page } from '@playwright/test';
import { api, openApp } from './support/api';
import { askWorker, stopWorkers } from './support/worker';

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.cel.example.com' },
  spec: {
    group: 'cel.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [{ rule: 'self.replicas <= 10', message: 'replicas must be at most 10' }],
                properties: { replicas: { type: 'integer' } },
              },
            },
          },
        },
      },
    ],
  },
};
const widget = (name: string, replicas: number) => ({ apiVersion: 'cel.example.com/v1', kind: 'Widget', metadata: { name }, spec: { replicas } });

test('a CRD validation rule is compiled and evaluated by a freshly started worker', async ({ page }) => {
  await openApp(page);
  expect((await api(page, 'POST', 'apis/apiextensions.k8s.io/v1/customresourcedefinitions', widgetCrd)).status).toBe(201);
  await stopWorkers(page);
  const path = 'apis/cel.example.com/v1/namespaces/default/widgets';
  // The restarted worker serves the CRD once it has found it Established again.
  await expect.poll(async () => (await api(page, 'GET', path)).status, { timeout: 20_000 }).toBe(200);
  const refused = await api(page, 'POST', path, widget('big', 20));
  expect(refused.status, refused.text).toBe(422);
  expect(refused.json.message).toBe('Widget.cel.example.com "big" is invalid: spec: Invalid value: "object": replicas must be at most 10');
  expect((await api(page, 'POST', path, widget('small', 3))).status).toBe(201);
});

test('a ValidatingAdmissionPolicy denies with its CEL validation in a freshly started worker', async ({ page }) => {
  await openApp(page);
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'no-forbidden-value' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      validations: [{ expression: "!has(object.data) || !('k' in object.data) || object.data.k != 'forbidden'", message: 'k may not be forbidden' }],
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'no-forbidden-value-binding' },
    spec: { policyName: 'no-forbidden-value', validationActions: ['Deny'] },
  };
  expect((await api(page, 'POST', 'apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', policy)).status).toBe(201);
  expect((await api(page, 'POST', 'apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', binding)).status).toBe(201);
  await stopWorkers(page);
  const configMap = (name: string, k: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k } });
  const refused = await api(page, 'POST', 'api/v1/namespaces/default/configmaps', configMap('refused', 'forbidden'));
  expect(refused.status, refused.text).toBe(422);
  expect(refused.json.message).toContain("ValidatingAdmissionPolicy 'no-forbidden-value' with binding 'no-forbidden-value-binding' denied request: k may not be forbidden");
  expect((await api(page, 'POST', 'api/v1/namespaces/default/configmaps', configMap('allowed', 'fine'))).status).toBe(201);
});

test('an authorization webhook matchCondition is compiled by a freshly started worker when a configuration is checked', async ({ page }) => {
  await openApp(page);
  const state = await askWorker<{ document: Record<string, unknown> }>(page, { type: 'kubetab:configuration:get' });
  await stopWorkers(page);
  const document = {
    ...state.document,
    authorization: {
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AuthorizationConfiguration',
      authorizers: [
        {
          type: 'Webhook',
          name: 'hook',
          webhook: {
            timeout: '3s',
            authorizedTTL: '5m',
            unauthorizedTTL: '30s',
            subjectAccessReviewVersion: 'v1',
            matchConditionSubjectAccessReviewVersion: 'v1',
            failurePolicy: 'NoOpinion',
            connectionInfo: { type: 'InClusterConfig' },
            matchConditions: [{ expression: "request.user == 'jane'" }, { expression: 'request.user ==' }],
          },
        },
        { type: 'RBAC', name: 'rbac' },
      ],
    },
  };
  const answer = await askWorker<{ valid: boolean; problems: { field: string; message: string }[] }>(page, { type: 'kubetab:configuration:validate', document });
  const conditionProblems = answer.problems.filter((p) => p.message.includes('matchConditions'));
  expect(answer.valid).toBe(false);
  // Only the second expression fails to compile, with kube's "compilation failed" prefix.
  expect(conditionProblems).toHaveLength(1);
  expect(conditionProblems[0]!.message).toContain('matchConditions[1].expression: Invalid value: "request.user ==": compilation failed');
});
