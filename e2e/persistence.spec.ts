// Issue 2, Storage: "a reload of the page or a restart of the worker loses
// nothing that was acknowledged"; Tests: persistence across a reload and
// across a browser restart (a persistent profile, so IndexedDB is on disk).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { api, createConfigMap, openApp } from './support/api';
import { launchOptions } from './support/chromium';

test('an object created before a reload is still there after it, with the same resourceVersion', async ({ page }) => {
  await openApp(page);
  const created = await createConfigMap(page, 'survives-reload', { greeting: 'hello' });

  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const read = await api(page, 'GET', 'api/v1/namespaces/default/configmaps/survives-reload');
  expect(read.status, read.text).toBe(200);
  expect(read.json.data).toEqual({ greeting: 'hello' });
  expect(read.json.metadata.uid).toBe(created.metadata.uid);
  expect(read.json.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
});

test('objects survive closing the browser and starting it again on the same profile', async ({}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const profile = mkdtempSync(join(tmpdir(), 'kubetab-profile-'));
  try {
    let context = await chromium.launchPersistentContext(profile, { ...launchOptions(), baseURL });
    let page = context.pages()[0] ?? (await context.newPage());
    await openApp(page);
    const created = await createConfigMap(page, 'survives-restart', { n: '1' });
    const updated = await api(page, 'PUT', 'api/v1/namespaces/default/configmaps/survives-restart', {
      ...created,
      data: { n: '2' },
    });
    expect(updated.status, updated.text).toBe(200);
    await context.close();

    context = await chromium.launchPersistentContext(profile, { ...launchOptions(), baseURL });
    page = context.pages()[0] ?? (await context.newPage());
    await openApp(page);
    const read = await api(page, 'GET', 'api/v1/namespaces/default/configmaps/survives-restart');
    expect(read.status, read.text).toBe(200);
    expect(read.json.data).toEqual({ n: '2' });
    expect(read.json.metadata.resourceVersion).toBe(updated.json.metadata.resourceVersion);

    // The revision counter goes on from where it was: a new write gets a larger resourceVersion.
    const next = await createConfigMap(page, 'after-restart');
    expect(Number(next.metadata.resourceVersion)).toBeGreaterThan(Number(updated.json.metadata.resourceVersion));
    await context.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
