// The page side of the browser host: registers the service worker with the
// app's base path as its scope and resolves once this page is controlled by
// it, so that the first API call of the very first visit already reaches the
// worker (no reload).

import type { PageToWorkerMessage } from './messages';
import { normalizeBase } from './server-paths';

export interface RegisterOptions {
  /** The app's base path (vite's BASE_URL); the worker is `${base}sw.js` and its scope is `base`. */
  readonly base?: string;
  /** How long to wait for control before giving up (ms). */
  readonly timeoutMs?: number;
}

export async function registerKubeTab(options: RegisterOptions = {}): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator)) {
    throw new Error('This browser does not offer service workers to this page (KubeTab needs them; a private window or an http:// origin other than localhost may be why).');
  }
  const base = normalizeBase(options.base ?? import.meta.env.BASE_URL);
  const container = navigator.serviceWorker;
  // Listen before registering: claim() may come before register() resolves.
  const controlled = new Promise<void>((resolve) => {
    if (container.controller) resolve();
    else container.addEventListener('controllerchange', () => resolve(), { once: true });
  });

  const registration = await container.register(`${base}sw.js`, { scope: base });
  if (container.controller) return registration;

  const ready = await container.ready;
  if (!container.controller) {
    // An active worker that does not control this page: a hard reload, or the
    // activation's claim() ran before this page existed. Ask it to claim us.
    const message: PageToWorkerMessage = { type: 'kubetab:claim' };
    ready.active?.postMessage(message);
  }
  const timeoutMs = options.timeoutMs ?? 15_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the KubeTab service worker did not take control of this page within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([controlled, timeout]);
  } finally {
    clearTimeout(timer);
  }
  return registration;
}
