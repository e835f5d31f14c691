// Issue 6, quality: the app under a sub-path, as GitHub Pages serves it
// (KUBETAB_BASE=/kubetab/; this file runs in the "pages" project). Every view
// reaches the API below the base path; Monaco's workers load from there too;
// command lines name the API's own paths, without the base.

import { expect, test } from '@playwright/test';
import { goTo, openUi, request, screenshot } from './support/ui-app';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
// Monaco is the heaviest thing the app loads: room for a busy machine.
test.describe.configure({ timeout: 120_000 });

test('under /kubetab/ the console, the explorer and the editor work against the worker', async ({ page }) => {
  await openUi(page);
  expect(new URL(page.url()).pathname).toBe('/kubetab/');

  await goTo(page, 'Console');
  const form = page.getByRole('form', { name: 'Request' });
  await form.getByLabel('Path').fill('/api/v1/namespaces');
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/kubetab/api/v1/namespaces'),
    page.getByRole('button', { name: 'Send', exact: true }).click(),
  ]);
  expect(response.fromServiceWorker()).toBe(true);
  await expect(page.getByTestId('response-status')).toHaveText(/^200/);
  await page.getByRole('button', { name: 'As kubectl' }).click();
  await expect(page.getByLabel('kubectl command')).toHaveText(/^kubectl get --raw \/api\/v1\/namespaces( --token=\S+)?$/);

  await goTo(page, 'Explorer');
  await expect(page.getByRole('table', { name: 'ConfigMap objects' }).getByRole('link', { name: 'kube-root-ca.crt' })).toBeVisible();

  await goTo(page, 'Editor');
  await expect(page.getByRole('textbox', { name: /Manifest editor/ })).toBeAttached({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Results' })).toContainText('ConfigMap default/example');
  expect((await request(page, 'GET', 'api/v1/namespaces/default/configmaps/example')).status).toBe(200);
  await screenshot(page, 'sub-path-editor');
});
