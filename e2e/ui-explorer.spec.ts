// Issue 6, feature 2: browse the cluster live — resources from discovery,
// namespaces, objects kept current by list-then-watch (no polling), an
// object's YAML, its events, its owners and dependents; big lists stay fast.

import { expect, test } from '@playwright/test';
import { createConfigMaps, goTo, openUi, request, screenshot } from './support/ui-app';

test('objects appear and disappear without a reload; an object shows its YAML, events, owners and dependents', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  await goTo(page, 'Explorer');
  await page.getByRole('navigation', { name: 'Resources' }).getByRole('link', { name: 'ConfigMap', exact: true }).click();
  const table = page.getByRole('table', { name: 'ConfigMap objects' });
  await expect(table.getByRole('link', { name: 'kube-root-ca.crt' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Watch state' })).toContainText('watching');

  // Another client writes: the list follows through the watch.
  const owner = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { metadata: { name: 'owner', labels: { app: 'demo' } }, data: { a: '1' } });
  expect(owner.status).toBe(201);
  await expect(table.getByRole('link', { name: 'owner' })).toBeVisible();
  const dependent = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', {
    metadata: { name: 'dependent', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.json.metadata.uid }] },
  });
  expect(dependent.status).toBe(201);
  await expect(table.getByRole('link', { name: 'dependent' })).toBeVisible();
  const doomed = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { metadata: { name: 'doomed' } });
  await expect(table.getByRole('link', { name: 'doomed' })).toBeVisible();
  await request(page, 'DELETE', `api/v1/namespaces/default/configmaps/${doomed.json.metadata.name}`);
  await expect(table.getByRole('link', { name: 'doomed' })).toHaveCount(0);

  // The label selector narrows the watch.
  await page.getByLabel('Label selector').fill('app=demo');
  await expect(table.getByRole('link', { name: 'owner' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'kube-root-ca.crt' })).toHaveCount(0);
  await page.getByLabel('Label selector').fill('');

  // An event about the owner.
  const event = await request(page, 'POST', 'api/v1/namespaces/default/events', {
    metadata: { name: 'owner.1' },
    involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', namespace: 'default', uid: owner.json.metadata.uid },
    reason: 'Tested',
    message: 'looked at by the explorer test',
    type: 'Normal',
    source: { component: 'e2e' },
  });
  expect(event.status).toBe(201);

  await table.getByRole('link', { name: 'owner', exact: true }).click();
  const detail = page.getByRole('region', { name: 'ConfigMap owner' });
  await expect(detail.getByLabel('Object YAML')).toContainText('app: demo');
  // Live: a change by someone else shows in the YAML.
  await request(page, 'PATCH', 'api/v1/namespaces/default/configmaps/owner', { data: { a: '2' } }, { 'content-type': 'application/merge-patch+json' });
  await expect(detail.getByLabel('Object YAML')).toContainText('a: "2"');
  await screenshot(page, 'explorer-object-yaml');

  await detail.getByRole('tab', { name: 'Events' }).click();
  await expect(detail.getByRole('cell', { name: 'looked at by the explorer test' })).toBeVisible();

  await detail.getByRole('tab', { name: 'Owners and dependents' }).click();
  await expect(detail.getByRole('region', { name: 'Owners' })).toContainText('No owners');
  await detail.getByRole('region', { name: 'Dependents' }).getByRole('link', { name: 'dependent' }).click();
  const dependentDetail = page.getByRole('region', { name: 'ConfigMap dependent' });
  await dependentDetail.getByRole('tab', { name: 'Owners and dependents' }).click();
  await expect(dependentDetail.getByRole('region', { name: 'Owners' }).getByRole('link', { name: 'owner' })).toBeVisible();
  await screenshot(page, 'explorer-owners');
});

test('a large list scrolls with a handful of rows in the page, and a burst of watch events keeps frames flowing', async ({ page }) => {
  test.setTimeout(120_000);
  // 10,000 in the full run (KUBETAB_UI_BIG=1); 2,500 keeps the everyday suite short.
  const count = process.env.KUBETAB_UI_BIG === '1' ? 10_000 : 2_500;
  await openUi(page);
  await request(page, 'POST', 'api/v1/namespaces', { metadata: { name: 'big' } });
  await createConfigMaps(page, count, 'cm', 'big');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /^Explorer/ }).click();
  await page.getByLabel('Namespace').selectOption('big');
  const state = page.getByRole('status', { name: 'Watch state' });
  await expect(state).toContainText(`watching ${count + 1} objects`, { timeout: 30_000 });
  const table = page.getByRole('table', { name: 'ConfigMap objects' });
  await expect(table).toHaveAttribute('aria-rowcount', String(count + 2));
  // Virtualised: only what is on screen (plus overscan) is in the DOM.
  expect(await table.getByRole('row').count()).toBeLessThan(80);

  // Scroll to the end with the mouse wheel: the last object is there.
  await table.getByRole('link').first().hover();
  await page.mouse.wheel(0, count * 40);
  await expect(table.getByRole('link', { name: `cm-${String(count - 1).padStart(5, '0')}` })).toBeVisible();
  await screenshot(page, 'explorer-big-list');

  // Another tab writes about 100 objects a second for 3 s (its fetches are
  // its own work); this tab only follows the watch. We measure the longest
  // gap between this tab's frames, idle first (the machine's own noise), then
  // during the burst.
  const writer = await page.context().newPage();
  await openUi(writer);
  await page.bringToFront();
  const startGaps = () =>
    page.evaluate(() => {
      const w = window as unknown as { __gaps: number[]; __stop: boolean };
      w.__gaps = [];
      w.__stop = false;
      let last = performance.now();
      const tick = (now: number) => {
        w.__gaps.push(now - last);
        last = now;
        if (!w.__stop) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  /** The worst and the 95th-percentile gap between frames since startGaps(). */
  const gaps = () =>
    page.evaluate(() => {
      const w = window as unknown as { __gaps: number[]; __stop: boolean };
      w.__stop = true;
      const sorted = [...w.__gaps].sort((a, b) => a - b);
      return { worst: sorted[sorted.length - 1] ?? 0, p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0 };
    });
  await startGaps();
  await page.waitForTimeout(2000);
  const idle = await gaps();
  await startGaps();
  for (let second = 0; second < 3; second++) {
    const started = Date.now();
    await createConfigMaps(writer, 100, `burst-${second}`, 'big');
    await writer.waitForTimeout(Math.max(0, 1000 - (Date.now() - started)));
  }
  await expect(state).toContainText(`watching ${count + 301} objects`, { timeout: 20_000 });
  const burst = await gaps();
  // The page never froze: frames kept coming (on two quiet cores the worst
  // gap is about 120 ms and 95% of frames come within 50 ms). A machine busy
  // with other work stretches single frames, so the bound on the worst gap
  // is loose and the one on the 95th percentile follows the idle page.
  expect(burst.worst).toBeLessThan(2000);
  expect(burst.p95).toBeLessThan(Math.max(250, 3 * idle.p95));
});

test('a CustomResourceDefinition created elsewhere adds its kind to the resources, and its objects list live', async ({ page }) => {
  await openUi(page);
  await goTo(page, 'Explorer');
  const resources = page.getByRole('navigation', { name: 'Resources' });
  await expect(resources.getByRole('link', { name: 'ConfigMap', exact: true })).toBeVisible();
  const crd = await request(page, 'POST', 'apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  });
  expect(crd.status).toBe(201);
  await resources.getByRole('link', { name: 'Widget', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Watch state' })).toContainText('watching 0 objects');
  await expect
    .poll(async () => (await request(page, 'POST', 'apis/example.com/v1/namespaces/default/widgets', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 } })).status)
    .toBe(201);
  await expect(page.getByRole('table', { name: 'Widget objects' }).getByRole('link', { name: 'w1' })).toBeVisible();
});
