// One call to an admission webhook, as kube's webhook client makes it: the
// AdmissionReview (v1, else v1beta1, the first the webhook accepts) posted to
// clientConfig.url or to https://<service>.<namespace>.svc:<port><path>, with
// `?timeout=<n>s`, aborted after timeoutSeconds; the response must be an
// AdmissionReview of the same version with the request's uid. Failures come
// back as kube's ErrCallingWebhook texts (`failed calling webhook "<name>":
// failed to call webhook: Post "<url>": <reason>`, `… received invalid
// webhook response: …`).
//
// Services: KubeTab has no cluster network. A Service of type ExternalName is
// called at its externalName (the documented KubeTab mapping: point one at
// 127.0.0.1 or any host the server can reach); any other existing Service is
// called at its ClusterIP, which nothing answers outside a cluster; a missing
// Service is kube's `service "<name>" not found`.

import { base64ToBytes } from '../../auth/authn/secret-data';
import type { AdmissionContext } from '../types';
import type { WebhookFetch } from './fetch';

type Obj = Record<string, unknown>;

export class WebhookCallError extends Error {}

function base64ToText(b64: string): string | undefined {
  try {
    return new TextDecoder().decode(base64ToBytes(b64));
  } catch {
    return undefined;
  }
}

export async function webhookURL(clientConfig: Obj, ctx: AdmissionContext): Promise<{ url: string; error?: string }> {
  if (typeof clientConfig.url === 'string') return { url: clientConfig.url };
  const svc = (clientConfig.service ?? {}) as Obj;
  const name = String(svc.name ?? '');
  const namespace = String(svc.namespace ?? '');
  const port = typeof svc.port === 'number' ? svc.port : 443;
  const path = typeof svc.path === 'string' ? svc.path : '';
  const display = `https://${name}.${namespace}.svc:${port}${path}`;
  const service = await ctx.reader.get({ group: '', resource: 'services' }, namespace, name);
  if (!service) return { url: display, error: `service ${JSON.stringify(name)} not found` };
  const spec = ((service as Obj).spec ?? {}) as Obj;
  if (spec.type === 'ExternalName' && typeof spec.externalName === 'string') return { url: `https://${spec.externalName}:${port}${path}` };
  const ip = typeof spec.clusterIP === 'string' && spec.clusterIP !== 'None' ? spec.clusterIP : '';
  if (!ip) return { url: display, error: `no endpoints available for service ${JSON.stringify(name)}` };
  return { url: `https://${ip.includes(':') ? `[${ip}]` : ip}:${port}${path}` };
}

export interface WebhookCall {
  readonly webhookName: string;
  readonly clientConfig: Obj;
  readonly timeoutSeconds: number;
  readonly reviewVersion: 'v1' | 'v1beta1';
  readonly request: Obj;
}

function callingError(name: string, reason: string): WebhookCallError {
  return new WebhookCallError(`failed calling webhook ${JSON.stringify(name)}: ${reason}`);
}

/** Posts the review and returns its validated `response`; throws WebhookCallError with kube's text. */
export async function callWebhook(call: WebhookCall, ctx: AdmissionContext, fetchFn: WebhookFetch): Promise<Obj> {
  const { url: base, error } = await webhookURL(call.clientConfig, ctx);
  const url = `${base}${base.includes('?') ? '&' : '?'}timeout=${call.timeoutSeconds}s`;
  if (error) throw callingError(call.webhookName, `failed to call webhook: Post ${JSON.stringify(url)}: ${error}`);
  const apiVersion = `admission.k8s.io/${call.reviewVersion}`;
  const body = JSON.stringify({ kind: 'AdmissionReview', apiVersion, request: call.request });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), call.timeoutSeconds * 1000);
  const caBundle = typeof call.clientConfig.caBundle === 'string' ? base64ToText(call.clientConfig.caBundle) : undefined;
  let status: number;
  let text: string;
  try {
    const res = await fetchFn(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*' },
      body,
      signal: controller.signal,
      ...(caBundle ? { caBundle } : {}),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    const reason = controller.signal.aborted ? 'context deadline exceeded' : err instanceof Error ? err.message : String(err);
    throw callingError(call.webhookName, `failed to call webhook: Post ${JSON.stringify(url)}: ${reason}`);
  } finally {
    clearTimeout(timer);
  }
  if (status < 200 || status >= 300) {
    throw callingError(call.webhookName, `failed to call webhook: an error on the server (${JSON.stringify(text.trim())}) has prevented the request from succeeding`);
  }
  let review: Obj;
  try {
    review = JSON.parse(text) as Obj;
  } catch (err) {
    throw callingError(call.webhookName, `failed to call webhook: ${err instanceof Error ? err.message : String(err)}`);
  }
  const invalid = (detail: string) => callingError(call.webhookName, `received invalid webhook response: ${detail}`);
  if (review.apiVersion !== apiVersion || review.kind !== 'AdmissionReview') {
    const got = String(review.apiVersion ?? '');
    const [g, v] = got.includes('/') ? got.split('/', 2) : ['', got];
    throw invalid(`expected webhook response of ${apiVersion}, Kind=AdmissionReview, got ${g}/${v}, Kind=${String(review.kind ?? '')}`);
  }
  const response = review.response as Obj | undefined;
  if (!response || typeof response !== 'object') throw invalid('webhook response was absent');
  if (response.uid !== call.request.uid) throw invalid(`expected response.uid=${JSON.stringify(call.request.uid)}, got ${JSON.stringify(response.uid ?? '')}`);
  return response;
}
