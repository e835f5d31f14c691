// Issue 2, Service-worker facts: a worker can be stopped at any time and
// started again by the next fetch. Under Playwright a worker is never stopped
// by itself, so the DevTools protocol stops it. Nothing acknowledged may be
// lost, and a watch client that resumes from its last resourceVersion sees
// exactly the changes after it.

import { expect, test } from '@playwright/test';
import { api, createConfigMap, openApp, startWatch, waitForEvent, watchState } from './support/api';
import { stopWorkers } from './support/worker';

test('a stopped worker loses nothing and a watch resumes from its resourceVersion', async ({ page }) => {
  await openApp(page);
  const before = await createConfigMap(page, 'before-stop', { phase: 'before' });
  const rv = before.metadata.resourceVersion;
  await startWatch(page, 'first', `api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);
  const during = await createConfigMap(page, 'while-watching');
  const seen = await waitForEvent(page, 'first', 'while-watching');
  const lastSeenRv: string = seen.object.metadata.resourceVersion;
  expect(lastSeenRv).toBe(during.metadata.resourceVersion);

  // Stop every service worker of the browser, as the browser does to an idle one.
  await stopWorkers(page);

  // The open watch ends with the worker (its stream is cut), as a connection drop would.
  await page.waitForFunction(() => (window as any).__watches.first.ended, undefined, { timeout: 10_000 });

  // The next request starts the worker again, which reloads its state from IndexedDB.
  const after = await createConfigMap(page, 'after-restart', { phase: 'after' });
  expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(lastSeenRv));
  for (const name of ['before-stop', 'while-watching']) {
    const read = await api(page, 'GET', `api/v1/namespaces/default/configmaps/${name}`);
    expect(read.status, `${name}: ${read.text}`).toBe(200);
  }

  // Resuming from the last resourceVersion seen delivers exactly what came after it.
  await startWatch(page, 'resumed', `api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${lastSeenRv}`);
  await createConfigMap(page, 'after-resume');
  await waitForEvent(page, 'resumed', 'after-resume');
  const resumed = await watchState(page, 'resumed');
  expect(resumed.status).toBe(200);
  expect(resumed.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED after-restart', 'ADDED after-resume']);
});
