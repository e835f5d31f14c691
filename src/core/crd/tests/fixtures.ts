// Shared CRD manifests and helpers for the CRD tests (driven over HTTP).

import type { TestServer } from '../../../test-support/api-harness';

export const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The CronTab CRD of the Kubernetes documentation, with subresources, printer columns and a default. */
export function cronTabCrd(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
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
                  properties: {
                    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    image: { type: 'string' },
                    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                    tags: { type: 'array', items: { type: 'string' } },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                  required: ['cronSpec'],
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' }, phase: { type: 'string' } },
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
          },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Tags', type: 'string', priority: 1, jsonPath: '.spec.tags' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
      ...overrides,
    },
  };
}

export function cronTab(name: string, spec: Record<string, unknown> = { cronSpec: '* * * * */5', image: 'my-cron-image' }): Record<string, unknown> {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec };
}

/** Polls until `check` passes (the CRD controller works in the background) or fails with its last error. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw last;
    await new Promise<void>((r) => setTimeout(() => r(), 5));
  }
}

/** Creates a CRD and waits until its resources are served. */
export async function createEstablished(t: TestServer, crd: Record<string, unknown>, path: string): Promise<void> {
  const res = await t.post(CRDS, crd);
  if (res.status !== 201) throw new Error(`CRD create: ${res.status} ${res.text}`);
  await eventually(async () => {
    const list = await t.get(path);
    if (list.status !== 200) throw new Error(`not served yet: ${list.status}`);
  });
}
