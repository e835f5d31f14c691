// Issue 6, quality: "Works offline after the first visit, on a static host
// under a sub-path … a newer version of the service worker takes over without
// losing data." The tests serve a copy of the /kubetab/ build from a host they
// own (e2e/support/static-host.ts), so that they can take it down or deploy a
// changed build to it. This file runs in the "pages" project, whose web server
// has built that copy's source (playwright.config.ts, PAGES_OUT_DIR).

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startStaticHost, type StaticHost } from './support/static-host';
import { goTo, request, screenshot } from './support/ui-app';

const PAGES_BUILD = join(process.cwd(), 'node_modules/.cache/kubetab/dist-pages');
const BASE = '/kubetab/';
const PREFIX = `kubetab-app ${BASE} `;

// Monaco is the heaviest thing the app loads: room for a busy machine.
test.describe.configure({ timeout: 120_000 });

let host: StaticHost | undefined;
test.afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** The build's files that the worker keeps (all but sw.js), relative to the base. */
function buildFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(at, entry.name));
      else found.push(relative(dir, join(at, entry.name)));
    }
  };
  walk(dir);
  return found.filter((f) => f !== 'sw.js').sort();
}

/** The app caches of this base path, each with the files it holds (relative to the base). */
async function appCaches(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async (prefix) => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      if (!name.startsWith(prefix)) continue;
      const keys = await (await caches.open(name)).keys();
      out[name] = keys.map((r) => new URL(r.url).pathname.replace(/^\/kubetab\//, '')).sort();
    }
    return out;
  }, PREFIX);
}

async function openAt(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
}

function sha256(bytes: string | Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

test('after the first visit the app opens with the host down and the network off; the API answers from IndexedDB', async ({ page, context }) => {
  host = await startStaticHost(PAGES_BUILD, BASE);
  await openAt(page, host.url);
  const created = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept-offline' }, data: { a: '1' } });
  expect(created.status).toBe(201);
  // The first visit stores the whole build in the background (the page did not wait for it).
  const files = buildFiles(host.dir);
  await expect.poll(async () => Object.values(await appCaches(page)), { timeout: 60_000 }).toEqual([files]);

  await host.close();
  host = undefined;
  await context.setOffline(true);
  // The page came from the worker's cache, not from a host (there is none).
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const read = await request(page, 'GET', 'api/v1/namespaces/default/configmaps/kept-offline');
  expect(read.status).toBe(200);
  expect(read.json.metadata.uid).toBe(created.json.metadata.uid);

  // Every view works, the lazily loaded ones included: the explorer lists the object, Monaco loads in the editor.
  await goTo(page, 'Explorer');
  await expect(page.getByRole('table', { name: 'ConfigMap objects' }).getByRole('link', { name: 'kept-offline' })).toBeVisible();
  await screenshot(page, 'offline-explorer');
  await goTo(page, 'Editor');
  await expect(page.getByRole('textbox', { name: /Manifest editor/ })).toBeAttached({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Results' })).toContainText('ConfigMap default/example');
  await screenshot(page, 'offline-editor');
});

test('a new deployment installs all of its files before it takes over, the old cache goes, the data stays; a stale host is refused', async ({ page }) => {
  host = await startStaticHost(PAGES_BUILD, BASE);
  await openAt(page, host.url);
  const before = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before-deploy' } });
  expect(before.status).toBe(201);
  await expect.poll(async () => Object.values(await appCaches(page)), { timeout: 60_000 }).toEqual([buildFiles(host.dir)]);
  const [oldCache] = Object.keys(await appCaches(page));

  // A new build: index.html changed, and sw.js lists its new digest (as vite.config.ts would write it).
  const indexPath = join(host.dir, 'index.html');
  const oldIndex = readFileSync(indexPath, 'utf8');
  const newIndex = oldIndex.replace('<title>KubeTab</title>', '<title>KubeTab</title><meta name="kubetab-deployment" content="2">');
  expect(newIndex).not.toBe(oldIndex);
  const oldWorker = readFileSync(join(host.dir, 'sw.js'), 'utf8');
  expect(oldWorker).toContain(sha256(oldIndex));
  const newWorker = oldWorker.replace(sha256(oldIndex), sha256(newIndex));

  const update = () =>
    page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.getRegistration())!;
      await registration.update();
      const worker = registration.installing ?? registration.waiting;
      if (!worker) return 'no new worker';
      // Settles as installed/activated (all files stored) or redundant (install refused).
      return new Promise<string>((resolve) => {
        const check = () => (worker.state === 'redundant' || worker.state === 'activated' ? resolve(worker.state) : undefined);
        worker.addEventListener('statechange', check);
        check();
      });
    });

  // 1. The host has the new sw.js but still the old index.html (a deployment half-way through a CDN):
  //    the new version cannot store its files as listed, so it does not install; the old one keeps serving.
  writeFileSync(join(host.dir, 'sw.js'), newWorker);
  expect(await update()).toBe('redundant');
  expect(Object.keys(await appCaches(page))).toEqual([oldCache]);
  expect((await request(page, 'GET', 'api/v1/namespaces/default/configmaps/before-deploy')).status).toBe(200);

  // 2. The whole new build is there: it installs with all of its files, takes over, and removes the old cache.
  writeFileSync(indexPath, newIndex);
  const changed = page.evaluate(() => new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true })));
  expect(await update()).toBe('activated');
  await changed;
  const cachesAfter = await appCaches(page);
  expect(Object.keys(cachesAfter)).toHaveLength(1);
  expect(Object.keys(cachesAfter)[0]).not.toBe(oldCache);
  expect(Object.values(cachesAfter)[0]).toEqual(buildFiles(host.dir));
  // The page that is still open says a new version took over.
  await expect(page.getByRole('status', { name: 'Update' })).toContainText('A new version of KubeTab');
  await screenshot(page, 'update-notice');

  // Reloaded, with the host gone: the new page, from the new cache, with the data from before.
  await host.close();
  host = undefined;
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(page.locator('meta[name="kubetab-deployment"]')).toHaveAttribute('content', '2');
  const read = await request(page, 'GET', 'api/v1/namespaces/default/configmaps/before-deploy');
  expect(read.status).toBe(200);
  expect(read.json.metadata.resourceVersion).toBe(before.json.metadata.resourceVersion);
});
