// What a client in the page does: fetch the API under the app's base path and
// read watch streams line by line. Everything runs inside the page, so every
// request goes through the page's service worker like any app's would.

import { expect, type Page } from '@playwright/test';
import { adminHeaders } from './admin';

export interface ApiResult {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  readonly json: any;
}

/**
 * Opens the app at its base path, waits until the service worker controls the
 * page and, as a client of a fresh cluster would, until /readyz answers 200
 * (the default namespace and the other first-start objects exist).
 */
export async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  // (waitForFunction does not await an async predicate: a Promise is truthy, so poll from here.)
  await expect.poll(() => page.evaluate(async () => (await fetch('readyz')).status), { timeout: 30_000, intervals: [100] }).toBe(200);
}

/** fetch() from the page, with `path` relative to the app's base path ('api/v1/namespaces'), as the administrator unless `headers` has an authorization. */
export async function api(page: Page, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult> {
  headers = { ...(await adminHeaders(page)), ...headers };
  return page.evaluate(
    async ({ method, path, body, headers }) => {
      const init: RequestInit = { method, headers: { accept: 'application/json', ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(path, init);
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, contentType: response.headers.get('content-type'), text, json };
    },
    { method, path, body, headers },
  );
}

export function configMap(name: string, data: Record<string, string> = {}): unknown {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data };
}

/** Creates a ConfigMap in `default` and returns the stored object. */
export async function createConfigMap(page: Page, name: string, data: Record<string, string> = {}): Promise<any> {
  const result = await api(page, 'POST', 'api/v1/namespaces/default/configmaps', configMap(name, data));
  expect(result.status, result.text).toBe(201);
  return result.json;
}

export interface WatchEvent {
  readonly type: string;
  readonly object: any;
}

/**
 * Starts a watch in the page under `id`; events are collected in the page
 * (window.__watches[id]) until the stream ends. Returns at once.
 */
export async function startWatch(page: Page, id: string, path: string): Promise<void> {
  const headers = await adminHeaders(page);
  await page.evaluate(
    ({ id, path, headers }) => {
      type State = { events: unknown[]; ended: boolean; error: string | null; status: number };
      const w = window as unknown as { __watches?: Record<string, State> };
      const state: State = { events: [], ended: false, error: null, status: 0 };
      (w.__watches ??= {})[id] = state;
      void (async () => {
        try {
          const response = await fetch(path, { headers: { accept: 'application/json', ...headers } });
          state.status = response.status;
          const reader = response.body!.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            let newline: number;
            while ((newline = buffer.indexOf('\n')) >= 0) {
              const line = buffer.slice(0, newline).trim();
              buffer = buffer.slice(newline + 1);
              if (line) state.events.push(JSON.parse(line));
            }
          }
        } catch (error) {
          state.error = String(error);
        } finally {
          state.ended = true;
        }
      })();
    },
    { id, path, headers },
  );
}

export async function watchState(page: Page, id: string): Promise<{ events: WatchEvent[]; ended: boolean; error: string | null; status: number }> {
  return page.evaluate((id) => (window as any).__watches[id], id);
}

/** Waits until the watch `id` has received an event for the object named `name`; returns that event. */
export async function waitForEvent(page: Page, id: string, name: string, timeout = 10_000): Promise<WatchEvent> {
  const handle = await page.waitForFunction(
    ({ id, name }) => (window as any).__watches[id].events.find((e: any) => e.object?.metadata?.name === name),
    { id, name },
    { timeout },
  );
  return (await handle.jsonValue()) as WatchEvent;
}
