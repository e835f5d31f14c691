// The one way the UI talks to the API server: fetch under the app's base
// path, as kubectl would over HTTP, with the current identity's headers added.
// Access control (tokens, anonymous) only has to change the identity slice.

import { currentIdentity, useAppStore } from '../store';
import { identityHeaders, type Identity } from './identity';
import { whenServerReady } from './server-ready';
import type { Status } from './types';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface ApiRequestInit {
  method?: string;
  query?: Query;
  /** Request headers; the identity's headers come first, these override them. */
  headers?: Record<string, string> | Array<[string, string]>;
  body?: string;
  signal?: AbortSignal;
  /** Send as this identity instead of the current one (null: no credentials). */
  identity?: Identity | null;
}

/** The app's base path ('/' or '/kubetab/'). */
export function basePath(): string {
  return import.meta.env.BASE_URL;
}

/** `/api/v1/pods` + query → `${base}api/v1/pods?…` (a path the service worker answers). */
export function apiUrl(path: string, query?: Query): string {
  const relative = path.replace(/^\/+/, '');
  const [pathname, existing] = splitQuery(relative);
  const params = new URLSearchParams(existing);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.set(name, String(value));
  }
  const search = params.toString();
  return `${basePath()}${pathname}${search ? `?${search}` : ''}`;
}

/** The same URL, absolute (for curl and for display). */
export function absoluteApiUrl(path: string, query?: Query): string {
  return new URL(apiUrl(path, query), location.href).href;
}

function splitQuery(path: string): [string, string] {
  const at = path.indexOf('?');
  return at < 0 ? [path, ''] : [path.slice(0, at), path.slice(at + 1)];
}

/** The headers a request will carry: identity first, then the caller's. */
export function requestHeaders(init: Pick<ApiRequestInit, 'headers' | 'identity'> = {}): Headers {
  const identity = init.identity === undefined ? currentIdentity(useAppStore.getState()) : init.identity;
  const headers = new Headers(identityHeaders(identity));
  const extra = init.headers ?? {};
  const entries = Array.isArray(extra) ? extra : Object.entries(extra);
  // Later entries with the same name are appended (several Impersonate-Group headers).
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    if (seen.has(key)) headers.append(name, value);
    else headers.set(name, value);
    seen.add(key);
  }
  return headers;
}

export async function apiFetch(path: string, init: ApiRequestInit = {}): Promise<Response> {
  await whenServerReady();
  return fetch(apiUrl(path, init.query), {
    method: init.method ?? 'GET',
    headers: requestHeaders(init),
    body: init.body,
    signal: init.signal,
    cache: 'no-store',
  });
}

/** A non-2xx answer: the server's Status when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusBody: Status | null,
    readonly responseText: string,
  ) {
    super(statusBody?.message || `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

export async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text();
  let status: Status | null = null;
  try {
    const parsed = JSON.parse(text) as Status;
    if (parsed && parsed.kind === 'Status') status = parsed;
  } catch {
    // not JSON: keep the text
  }
  return new ApiError(response.status, status, text);
}

/** JSON request that throws ApiError on a non-2xx answer. */
export async function apiJson<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const headers = { accept: 'application/json', ...(Array.isArray(init.headers) ? Object.fromEntries(init.headers) : init.headers ?? {}) };
  const response = await apiFetch(path, { ...init, headers });
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as T;
}
