// Talking to KubeTab's service worker from a test: its page messages
// (src/platform/browser/messages.ts), and stopping it as a browser stops an
// idle worker (under Playwright a worker is otherwise never stopped).

import type { Page } from '@playwright/test';

/** Sends one page-to-worker message and returns its answer (a worker's refusal is thrown). */
export async function askWorker<T>(page: Page, message: Record<string, unknown>): Promise<T> {
  const answer = await page.evaluate(async (message) => {
    const worker = navigator.serviceWorker.controller ?? (await navigator.serviceWorker.ready).active;
    if (!worker) throw new Error('no KubeTab service worker');
    const channel = new MessageChannel();
    const reply = new Promise<{ ok: boolean; value?: unknown; error?: string }>((resolve) => {
      channel.port1.onmessage = (event) => resolve(event.data);
    });
    worker.postMessage(message, [channel.port2]);
    return reply;
  }, message);
  if (!answer.ok) throw new Error(answer.error);
  return answer.value as T;
}

/** Stops every service worker of the browser (through the DevTools protocol) and waits until one reports stopped. */
export async function stopWorkers(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const stopped = new Promise<void>((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      if (versions.some((v: { runningStatus: string }) => v.runningStatus === 'stopped')) resolve();
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await stopped;
  await cdp.detach();
}
