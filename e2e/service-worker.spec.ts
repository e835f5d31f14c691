// The browser host: the app's service worker is the API server for the page.
// Issue 2, "Where it runs" 1: a service worker registered by the app serves
// the API to fetch from the app's pages, on the very first visit.

import { expect, test } from '@playwright/test';
import { adminHeaders } from './support/admin';
import { api, openApp } from './support/api';

test('on the first visit the page is controlled with no reload and /version comes from the worker', async ({ page }) => {
  await page.goto('./');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  // Still the first document: no navigation happened to get control.
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);

  // As the administrator: on a fresh secure cluster anonymous may read /version only once the default RBAC policy exists.
  const headers = await adminHeaders(page);
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/version'),
    page.evaluate((h) => fetch('version', { headers: h }).then((r) => r.status), headers),
  ]);
  expect(response.fromServiceWorker()).toBe(true);
  expect(response.status()).toBe(200);
  const version = await response.json();
  expect(version.gitVersion).toMatch(/^v1\.32\./);
  expect(version.major).toBe('1');
  expect(version.minor).toBe('32');
});

test('the status line of the app reports the server ready', async ({ page }) => {
  await openApp(page);
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('server-status')).toContainText('v1.32.');
});

test('API reads and writes from the page are answered by the worker; the app\'s files too, from its cache (issue 6: offline)', async ({ page }) => {
  await openApp(page);
  const [listResponse] = await Promise.all([
    // This test's request (no query), not the app's own list of the console view.
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/namespaces/default/configmaps' && new URL(r.url()).search === ''),
    api(page, 'GET', 'api/v1/namespaces/default/configmaps'),
  ]);
  expect(listResponse.fromServiceWorker()).toBe(true);
  expect((await listResponse.json()).kind).toBe('ConfigMapList');

  const [indexResponse] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/index.html'),
    page.evaluate(() => fetch('index.html').then((r) => r.status)),
  ]);
  expect(indexResponse.fromServiceWorker()).toBe(true);
  expect(indexResponse.status()).toBe(200);

  // A path under the scope that is neither the API's nor one of the build's files is the host's to answer.
  const [otherResponse] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/no-such-file.txt'),
    page.evaluate(() => fetch('no-such-file.txt').then((r) => r.status)),
  ]);
  expect(otherResponse.fromServiceWorker()).toBe(false);
});

test('an unknown resource gets the server\'s 404 Status, not the static server\'s page', async ({ page }) => {
  await openApp(page);
  const result = await api(page, 'GET', 'api/v1/namespaces/default/nosuchthings');
  expect(result.status).toBe(404);
  expect(result.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
});
