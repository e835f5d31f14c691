// The example app's tests: the same tests in both modes of kubetab/playwright
// (the project decides: a Node server or the page's own service worker). The
// cluster starts with one Deployment (kubeSeed); each test gets it as seeded.

import { test, expect } from 'kubetab/playwright';

const WEB = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: nginx:1.27 }] }
`;

test.use({ kubeSeed: WEB });

test('lists the deployments and pods of the namespace and follows them live', async ({ page, kube }) => {
  await page.goto('/');
  await expect(page.getByRole('status')).toContainText('connected to');
  const web = page.locator('#deployments tr[data-name="web"]');
  await expect(web).toContainText('2');
  await expect(page.locator('#pods tbody tr')).toHaveCount(2);

  // A change made outside the app (a test helper, kubectl) reaches it through its watch.
  await kube.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'standalone', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
  await expect(page.locator('#pods tr[data-name="standalone"]')).toBeVisible();
  await kube.delete({ kind: 'Pod', name: 'standalone', namespace: 'default' });
  await expect(page.locator('#pods tr[data-name="standalone"]')).toHaveCount(0);
});

test('scales a deployment', async ({ page, kube }) => {
  await page.goto('/');
  const web = page.locator('#deployments tr[data-name="web"]');
  await web.getByRole('button', { name: 'Scale up' }).click();
  await expect(web.locator('td').nth(2)).toHaveText('3');
  await expect(page.locator('#pods tbody tr')).toHaveCount(3);
  expect((await kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' }))?.spec).toMatchObject({ replicas: 3 });
  await expect(page.getByRole('alert').first()).toBeHidden();
});

test('shows a conflict when the scale loses a race', async ({ page, kube }) => {
  await page.goto('/');
  const web = page.locator('#deployments tr[data-name="web"]');
  await expect(web).toBeVisible();
  await kube.faults.add({ verb: 'patch', resource: 'deployments.apps/scale', status: 409, times: 1 });
  await web.getByRole('button', { name: 'Scale up' }).click();
  await expect(page.locator('#error')).toHaveText(
    'Error 409: Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
  );
  // The fault answered once: the next try goes through.
  await web.getByRole('button', { name: 'Scale up' }).click();
  await expect(web.locator('td').nth(2)).toHaveText('3');
  await expect(page.locator('#error')).toBeHidden();
});

test('shows a 403 when the user may not list pods', async ({ page, kube }) => {
  await page.goto('/');
  await expect(page.locator('#pods tbody tr')).toHaveCount(2);
  await kube.faults.add({ verb: 'list', resource: 'pods', status: 403 });
  await page.reload();
  await expect(page.locator('#pods-error')).toContainText(/^Error 403: pods is forbidden: User ".*" cannot list resource "pods" in API group "" in the namespace "default"/);
  // Deployments are not affected.
  await expect(page.locator('#deployments tr[data-name="web"]')).toBeVisible();
  expect((await kube.faults.list())[0]).toMatchObject({ spec: { verb: 'list', resource: 'pods', status: 403 } });
});

test('each test starts from the seeded cluster', async ({ page, kube }) => {
  await page.goto('/');
  // The scale of an earlier test is gone, and so are its faults.
  expect((await kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' }))?.spec).toMatchObject({ replicas: 2 });
  expect(await kube.faults.list()).toEqual([]);
});
