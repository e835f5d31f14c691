// The API server is the page's service worker: nothing may call the API
// before the worker controls the page and has finished its bootstrap (the
// default namespace, RBAC roles). main.tsx starts this once; every request
// of the API client waits for it.

let ready: Promise<unknown> | null = null;

/**
 * Waits until /readyz answers 200. The worker answers /version at once, but
 * the bootstrap objects come a moment later. Startup only: nothing polls
 * once the server is ready. (/readyz is public, as on a real server, so no
 * identity is needed.)
 */
async function untilReady(base: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${base}readyz`, { cache: 'no-store' }).catch(() => null);
    if (response?.ok) return;
    if (attempt > 300) throw new Error(`the API server is not ready: ${response ? await response.text() : 'no answer'}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Called once by the entry point with the worker registration's promise.
 * `prepare` runs once the server is ready and before any API call (the
 * administrator's credentials are fetched there).
 */
export function startServer(registration: Promise<unknown>, base: string, prepare?: () => Promise<void>): void {
  ready = registration.then(() => untilReady(base)).then(() => prepare?.());
  // Failures are reported by whoever waits (the header's status); not unhandled.
  ready.catch(() => undefined);
}

export function whenServerReady(): Promise<unknown> {
  return ready ?? Promise.resolve();
}
