// The API server is the page's service worker: nothing may call the API
// before the worker controls the page and has finished its bootstrap (the
// default namespace, RBAC roles). main.tsx starts this once; every request
// of the API client waits for it.

import { askWorker } from '../../../platform/browser/worker-client';

let ready: Promise<unknown> | null = null;

/** How long a start may take before the page gives up (a cold start with a big store takes a few seconds). */
const READY_TIMEOUT_MS = 30_000;
const RETRY_DELAY_MS = 250;

/**
 * Asks the worker to answer once its server is ready (the message
 * kubetab:ready), rather than polling /readyz: during a start /readyz answers
 * 500, and 403 to anonymous before the default RBAC policy exists, and each
 * of those is a red "Failed to load resource" in the browser's console and a
 * row in the audit log that no one sent. A worker that stepped aside for a
 * newer version answers with an error: ask again (the newer one answers).
 */
async function untilReady(): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      await askWorker('kubetab:ready', {}, Math.max(1, deadline - performance.now()));
      return;
    } catch (error) {
      if (performance.now() + RETRY_DELAY_MS >= deadline) throw new Error(`the API server is not ready: ${error instanceof Error ? error.message : String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}

/**
 * Called once by the entry point with the worker registration's promise.
 * `prepare` runs once the server is ready and before any API call (the
 * administrator's credentials are fetched there).
 */
export function startServer(registration: Promise<unknown>, prepare?: () => Promise<void>): void {
  ready = registration.then(() => untilReady()).then(() => prepare?.());
  // Failures are reported by whoever waits (the header's status); not unhandled.
  ready.catch(() => undefined);
}

export function whenServerReady(): Promise<unknown> {
  return ready ?? Promise.resolve();
}
