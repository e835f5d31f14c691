// How the core reaches an admission webhook. kube-apiserver posts over TLS,
// trusting the configuration's caBundle; the core cannot open sockets itself,
// so the host may pass a fetch-like function that honours `caBundle` (under
// Node: https.request with `ca`) in ctx.services under ADMISSION_WEBHOOK_FETCH.
// Without one the platform's fetch is used, which trusts only the platform's
// own roots (a browser's, Node's), and caBundle is then ignored.

export const ADMISSION_WEBHOOK_FETCH = 'admission.webhook.fetch';

export interface WebhookFetchInit {
  readonly method: 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal;
  /** PEM certificates to trust for this call (the decoded caBundle), when the configuration has one. */
  readonly caBundle?: string;
}

export interface WebhookFetchResponse {
  readonly status: number;
  text(): Promise<string>;
}

/** Rejects with an Error whose message is the transport's reason (Go's wording where the host can give it). */
export type WebhookFetch = (url: string, init: WebhookFetchInit) => Promise<WebhookFetchResponse>;

export const platformFetch: WebhookFetch = async (url, init) => {
  const res = await fetch(url, { method: init.method, headers: { ...init.headers }, body: init.body, signal: init.signal });
  return { status: res.status, text: () => res.text() };
};

export function webhookFetchOf(services: Readonly<Record<string, unknown>>): WebhookFetch {
  const f = services[ADMISSION_WEBHOOK_FETCH];
  return typeof f === 'function' ? (f as WebhookFetch) : platformFetch;
}
