// A small REST client over one `send(Request) => Promise<Response>` function:
// the only way the controllers reach the server. It speaks JSON, builds the
// same paths and query parameters as client-go, and turns error answers into
// ApiError (with the Status reason) so that reconcilers can branch on them.

import type { KubeObject } from '../../kinds/types';
import { ApiError, type StatusBody } from './api-error';
import { resourcePath, type GroupVersionResource } from './resource-path';
import { openWatch, type WatchStream } from './watch-stream';
import { TokenBucket, type RateLimit } from './rate-limiter';

/**
 * Sends a request to the server. The User-Agent comes as its own argument too:
 * a browser drops it from a Request built by script (Chromium does), and the
 * server derives the client's identity and field manager from it.
 */
export type Send = (request: Request, userAgent?: string) => Promise<Response>;

export interface ObjectList {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string };
  items: KubeObject[];
}

export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
}

export interface ClientOptions {
  readonly send: Send;
  /** Origin put in front of every path (the server only reads the path). */
  readonly baseUrl?: string;
  /** Sent as User-Agent: the server derives the field manager from it, as kube does. */
  readonly userAgent?: string;
  /** client-go's client-side rate limit (absent: none, as kube-apiserver's loopback client). */
  readonly rateLimit?: RateLimit;
}

export type Query = Record<string, string | number | boolean | undefined>;

const JSON_TYPE = 'application/json';
// What client-go's metadata client asks for (in JSON): the objects reduced to their metadata by the
// server, so that a metadata informer neither receives nor parses the rest of each object.
const METADATA_LIST_TYPE = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const METADATA_TYPE = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export class ApiClient {
  private readonly send: Send;
  private readonly baseUrl: string;
  private readonly userAgent: string | undefined;
  private readonly limiter: TokenBucket | undefined;

  constructor(options: ClientOptions) {
    this.send = options.send;
    this.baseUrl = options.baseUrl ?? 'http://localhost';
    this.userAgent = options.userAgent;
    this.limiter = options.rateLimit ? new TokenBucket(options.rateLimit) : undefined;
  }

  /**
   * The same client with another User-Agent (one per controller, as kube-controller-manager's
   * clients), and a rate limiter of its own (by default the same limit as this client's).
   */
  withUserAgent(userAgent: string, rateLimit: RateLimit | undefined = this.limiter?.limit): ApiClient {
    return new ApiClient({ send: this.send, baseUrl: this.baseUrl, userAgent, ...(rateLimit ? { rateLimit } : {}) });
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const init: RequestInit = { method, headers: { Accept: JSON_TYPE, ...headers } };
    if (this.userAgent) (init.headers as Record<string, string>)['User-Agent'] = this.userAgent;
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      if (!('Content-Type' in headers)) (init.headers as Record<string, string>)['Content-Type'] = JSON_TYPE;
    }
    if (method !== 'GET') await this.limiter?.wait();
    return this.send(new Request(`${this.baseUrl}${path}`, init), this.userAgent);
  }

  /** Sends and decodes the JSON answer; a non-2xx answer becomes an ApiError. */
  async call<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    const res = await this.request(method, path, body, headers);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status < 200 || res.status >= 300) {
      const status = parsed && typeof parsed === 'object' && (parsed as StatusBody).kind === 'Status' ? (parsed as StatusBody) : undefined;
      throw new ApiError(res.status, status, `${method} ${path}: HTTP ${res.status}`);
    }
    return parsed as T;
  }

  get(gvr: GroupVersionResource, namespace: string, name: string, subresource?: string): Promise<KubeObject> {
    return this.call('GET', resourcePath(gvr, { namespace, name, subresource }));
  }

  /** A list; with metadataOnly, of PartialObjectMetadata (as client-go's metadata client lists). */
  list(gvr: GroupVersionResource, namespace?: string, query?: Query, metadataOnly = false): Promise<ObjectList> {
    const headers = metadataOnly ? { Accept: METADATA_LIST_TYPE } : undefined;
    return this.call('GET', resourcePath(gvr, { namespace }) + queryString(query), undefined, headers);
  }

  create(gvr: GroupVersionResource, namespace: string, obj: KubeObject): Promise<KubeObject> {
    return this.call('POST', resourcePath(gvr, { namespace }), obj);
  }

  update(gvr: GroupVersionResource, namespace: string, obj: KubeObject, subresource?: string): Promise<KubeObject> {
    return this.call('PUT', resourcePath(gvr, { namespace, name: obj.metadata?.name ?? '', subresource }), obj);
  }

  patch(gvr: GroupVersionResource, namespace: string, name: string, patch: unknown, contentType: string): Promise<KubeObject> {
    return this.call('PATCH', resourcePath(gvr, { namespace, name }), patch, { 'Content-Type': contentType });
  }

  delete(gvr: GroupVersionResource, namespace: string, name: string, options?: DeleteOptions): Promise<KubeObject> {
    const body = options ? { kind: 'DeleteOptions', apiVersion: 'v1', ...options } : undefined;
    return this.call('DELETE', resourcePath(gvr, { namespace, name }), body);
  }

  deleteCollection(gvr: GroupVersionResource, namespace: string, options?: DeleteOptions): Promise<ObjectList> {
    const body = options ? { kind: 'DeleteOptions', apiVersion: 'v1', ...options } : undefined;
    return this.call('DELETE', resourcePath(gvr, { namespace }), body);
  }

  /** Opens a watch (?watch=1) and returns its event stream; a non-2xx answer throws. With metadataOnly, of PartialObjectMetadata. */
  async watch(gvr: GroupVersionResource, namespace: string | undefined, query: Query, signal?: AbortSignal, metadataOnly = false): Promise<WatchStream> {
    const controller = new AbortController();
    if (signal?.aborted) controller.abort();
    signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const path = resourcePath(gvr, { namespace }) + queryString({ ...query, watch: 1 });
    const headers: Record<string, string> = { Accept: metadataOnly ? METADATA_TYPE : JSON_TYPE };
    if (this.userAgent) headers['User-Agent'] = this.userAgent;
    const res = await this.send(new Request(`${this.baseUrl}${path}`, { method: 'GET', headers, signal: controller.signal }), this.userAgent);
    if (res.status < 200 || res.status >= 300) {
      const text = await res.text();
      let status: StatusBody | undefined;
      try {
        status = JSON.parse(text) as StatusBody;
      } catch {
        status = undefined;
      }
      throw new ApiError(res.status, status, `watch ${path}: HTTP ${res.status}`);
    }
    return openWatch(res, controller);
  }
}
