// Issue 2, Where it runs 1: "Two tabs see the same objects and each other's
// watch events" — one worker, one database, watch fan-out to every tab.

import { expect, test } from '@playwright/test';
import { api, createConfigMap, openApp, startWatch, waitForEvent } from './support/api';

test('a watch in one tab receives the write made in another tab', async ({ context }) => {
  const watcher = await context.newPage();
  const writer = await context.newPage();
  await openApp(watcher);
  await openApp(writer);

  const list = await api(watcher, 'GET', 'api/v1/namespaces/default/configmaps');
  expect(list.status, list.text).toBe(200);
  const listRv = list.json.metadata.resourceVersion;
  await startWatch(watcher, 'tabs', `api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${listRv}`);

  const created = await createConfigMap(writer, 'from-the-other-tab', { k: 'v' });
  const event = await waitForEvent(watcher, 'tabs', 'from-the-other-tab');
  expect(event.type).toBe('ADDED');
  expect(event.object.data).toEqual({ k: 'v' });
  expect(event.object.metadata.resourceVersion).toBe(created.metadata.resourceVersion);

  // And the other tab reads the same object.
  const read = await api(watcher, 'GET', 'api/v1/namespaces/default/configmaps/from-the-other-tab');
  expect(read.json.metadata.uid).toBe(created.metadata.uid);
});

test('each tab\'s watch sees every write in order, whichever tab made it', async ({ context }) => {
  const a = await context.newPage();
  const b = await context.newPage();
  await openApp(a);
  await openApp(b);
  const rv = (await api(a, 'GET', 'api/v1/namespaces/default/configmaps')).json.metadata.resourceVersion;
  await startWatch(a, 'order', `api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);
  await startWatch(b, 'order', `api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);

  await createConfigMap(a, 'order-1');
  await createConfigMap(b, 'order-2');
  await createConfigMap(a, 'order-3');
  for (const page of [a, b]) {
    await waitForEvent(page, 'order', 'order-3');
    const names = await page.evaluate(() => (window as any).__watches.order.events.map((e: any) => `${e.type} ${e.object.metadata.name}`));
    expect(names).toEqual(['ADDED order-1', 'ADDED order-2', 'ADDED order-3']);
  }
});

test('the server ends a watch at its timeout and the page sees a clean end of stream', async ({ page }) => {
  // kube-apiserver ends watches itself (timeoutSeconds, or its own limit: in the worker, before the browser's ~5 minutes).
  await openApp(page);
  await startWatch(page, 'timeout', 'api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=2');
  await page.waitForFunction(() => (window as any).__watches.timeout.ended, undefined, { timeout: 15_000 });
  const state = await page.evaluate(() => (window as any).__watches.timeout);
  expect(state.status).toBe(200);
  expect(state.error).toBeNull();
});
