// The API server is the page's service worker: nothing may call the API
// before the worker controls the page. main.tsx starts the registration once;
// every request waits for it.

let ready: Promise<unknown> | null = null;

/** Called once by the entry point with the registration's promise. */
export function setServerReady(promise: Promise<unknown>): void {
  ready = promise;
}

export function whenServerReady(): Promise<unknown> {
  return ready ?? Promise.resolve();
}
