// Test support: admission webhooks answered in-process. The core reaches a
// webhook through the platform fetch when the host passes none (../webhook/fetch.ts);
// the tests stub the global fetch with this recorder, which keeps every
// AdmissionReview it receives and answers with the handler's response.

import { vi } from 'vitest';
import type { TestServer } from '../../../test-support/api-harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Review = { apiVersion: string; kind: string; request: Record<string, any> };
/** The AdmissionReview response fields besides uid (allowed, status, warnings, patch, patchType). */
export type WebhookAnswer = (review: Review, path: string) => Record<string, unknown>;

export interface WebhookStub {
  readonly received: { path: string; review: Review }[];
  answer: WebhookAnswer;
  restore(): void;
}

export function stubWebhooks(answer: WebhookAnswer = () => ({ allowed: true })): WebhookStub {
  const stub: WebhookStub = {
    received: [],
    answer,
    restore: () => vi.unstubAllGlobals(),
  };
  vi.stubGlobal('fetch', async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname;
    const review = JSON.parse(String(init?.body)) as Review;
    stub.received.push({ path, review });
    const response = { uid: review.request.uid, ...stub.answer(review, path) };
    return new Response(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }), { status: 200 });
  });
  return stub;
}

/** A JSONPatch for a webhook answer. */
export function jsonPatch(ops: unknown[]): { patch: string; patchType: 'JSONPatch' } {
  return { patch: Buffer.from(JSON.stringify(ops)).toString('base64'), patchType: 'JSONPatch' };
}

/** Registers one webhook (Mutating or Validating) at https://webhook.test/<name> with the given rules. */
export async function registerWebhook(t: TestServer, kind: 'Mutating' | 'Validating', name: string, rules: unknown[], extra: Record<string, unknown> = {}): Promise<void> {
  const plural = kind === 'Mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const res = await t.post(`/apis/admissionregistration.k8s.io/v1/${plural}`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: [{ name: `${name}.example.com`, clientConfig: { url: `https://webhook.test/${name}` }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra }],
  });
  if (res.status !== 201) throw new Error(`webhook configuration: ${res.status} ${res.text}`);
}

/** Registers a ValidatingAdmissionPolicy and its binding. */
export async function registerPolicy(
  t: TestServer,
  name: string,
  spec: Record<string, unknown>,
  actions: string[] = ['Deny'],
): Promise<void> {
  const AR = '/apis/admissionregistration.k8s.io/v1';
  const p = await t.post(`${AR}/validatingadmissionpolicies`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec });
  if (p.status !== 201) throw new Error(`policy: ${p.status} ${p.text}`);
  const b = await t.post(`${AR}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: `${name}-b` },
    spec: { policyName: name, validationActions: actions },
  });
  if (b.status !== 201) throw new Error(`binding: ${b.status} ${b.text}`);
}
