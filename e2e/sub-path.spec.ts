// Issue 2, Where it runs 1: "It works under a sub-path (GitHub Pages)". This
// project serves a build made with KUBETAB_BASE=/kubetab/: the worker is
// /kubetab/sw.js, its scope /kubetab/, and the API lives under /kubetab/api….

import { expect, test } from '@playwright/test';
import { api, createConfigMap, openApp } from './support/api';

test('under /kubetab/ the worker is scoped to the base path and answers the API below it', async ({ page }) => {
  await openApp(page);
  expect(new URL(page.url()).pathname).toBe('/kubetab/');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope);
  expect(new URL(scope!).pathname).toBe('/kubetab/');

  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/kubetab/version'),
    page.evaluate(() => fetch('version').then((r) => r.status)),
  ]);
  expect(response.fromServiceWorker()).toBe(true);
  expect((await response.json()).gitVersion).toMatch(/^v1\.32\./);

  const created = await createConfigMap(page, 'under-sub-path');
  const read = await api(page, 'GET', 'api/v1/namespaces/default/configmaps/under-sub-path');
  expect(read.json.metadata.uid).toBe(created.metadata.uid);
  // The object's selfLink-free identity does not carry the base path.
  expect(read.json.metadata.namespace).toBe('default');
});

test('paths outside the base path are not the worker\'s', async ({ page }) => {
  await openApp(page);
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/version'),
    page.evaluate(() => fetch('/version').then((r) => r.status)),
  ]);
  expect(response.fromServiceWorker()).toBe(false);
});
