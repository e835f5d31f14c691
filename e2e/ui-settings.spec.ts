// Issue 6, feature 6: identities and settings — the app starts on a secure
// cluster as its administrator; static token users, a service account with a
// TokenRequest token, an OIDC user from the test issuer and anonymous; the
// configuration validated before it is saved, the open set-up in one click;
// reset, export and import; the clock moved forward expires tokens.

import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startWatch, watchState } from './support/api';
import { goTo, openUi, request, screenshot } from './support/ui-app';

async function openSettings(page: Page, tab: string): Promise<void> {
  await goTo(page, 'Settings');
  await page.getByRole('tab', { name: tab }).click();
}

async function whoAmI(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: `Who am I as ${label}` }).click();
}

/** A request with no credentials at all, as a client that has none. */
async function withoutCredentials(page: Page, path: string): Promise<number> {
  return page.evaluate(async (p) => (await fetch(p)).status, path);
}

async function sendAsCurrent(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const state = JSON.parse(localStorage.getItem('kubetab-ui') ?? '{}').state;
    const identity = state.identities.find((i: { id: string }) => i.id === state.currentIdentityId);
    const response = await fetch('api/v1/namespaces/default/configmaps', { headers: identity?.token ? { authorization: `Bearer ${identity.token}` } : {} });
    return `${response.status}`;
  });
}

test('identities: the administrator, a static token user, a service account, an OIDC user and anonymous, each as the server sees it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  // A secure cluster: the header sends as kubeadm's administrator.
  const picker = page.getByRole('combobox', { name: 'Identity', exact: true });
  await expect(picker.locator('option:checked')).toHaveText('kubernetes-admin');
  await page.getByRole('link', { name: 'Manage identities' }).click();
  await expect(page.getByRole('main')).toHaveAccessibleName('Settings');

  const identities = page.getByRole('table', { name: 'Identities' });
  await whoAmI(page, 'kubernetes-admin');
  await expect(identities.getByRole('status')).toHaveText('kubernetes-admin in system:masters, system:authenticated');

  await page.getByRole('button', { name: 'Add jane' }).click();
  await whoAmI(page, 'jane');
  await expect(identities.getByRole('row', { name: /jane/ }).getByRole('status')).toHaveText('jane in developers, system:authenticated');

  const sa = page.getByRole('form', { name: 'Add a service account' });
  await sa.getByLabel('Service account', { exact: true }).fill('robot');
  await sa.getByRole('button', { name: 'Get a token' }).click();
  await whoAmI(page, 'system:serviceaccount:default:robot');
  await expect(identities.getByRole('row', { name: /robot/ }).getByRole('status')).toHaveText(
    'system:serviceaccount:default:robot in system:serviceaccounts, system:serviceaccounts:default, system:authenticated',
  );

  const oidc = page.getByRole('form', { name: 'Add an OIDC user' });
  await oidc.getByRole('button', { name: 'Get an ID token' }).click();
  await whoAmI(page, 'oidc:ada');
  await expect(identities.getByRole('row', { name: /oidc:ada/ }).getByRole('status')).toHaveText('oidc:ada in oidc:engineering, system:authenticated');

  // Anonymous: RBAC lets it reach the health endpoints only.
  await page.getByRole('button', { name: 'Add anonymous' }).click();
  await page.getByRole('button', { name: 'Switch to anonymous' }).click();
  await expect(picker.locator('option:checked')).toHaveText('anonymous');
  expect(await sendAsCurrent(page)).toBe('403');
  await screenshot(page, 'settings-identities');
});

test('the configuration is validated before it is saved; the open set-up is one click, and back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  await openSettings(page, 'Configuration');
  const editor = page.getByLabel('Cluster configuration (YAML)');
  await expect(editor).toHaveValue(/type: RBAC/);

  // An authorizer without a name: kube's validation message, nothing saved.
  const text = await editor.inputValue();
  await editor.fill(text.replace('name: rbac', 'name: ""'));
  await page.getByRole('button', { name: 'Save and restart' }).click();
  const validation = page.getByRole('status', { name: 'Validation' });
  await expect(validation).toContainText('Not saved: the configuration is not valid.');
  await expect(validation).toContainText('authorization.authorizers[1].name: Required value');
  await validation.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-configuration-invalid');

  // A feature gate kube-apiserver 1.32 does not know is refused too.
  await page.getByRole('button', { name: 'Revert to saved' }).click();
  const gates = page.getByRole('group', { name: 'Feature gates' });
  await gates.getByLabel('Name').fill('NoSuchGate');
  await gates.getByRole('button', { name: 'Set gate' }).click();
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(validation).toContainText('featureGates: unrecognized feature gate: NoSuchGate');
  await gates.getByRole('button', { name: 'Remove NoSuchGate' }).click();
  await gates.getByLabel('Name').fill('AllowUnsafeMalformedObjectDeletion');
  await gates.getByRole('button', { name: 'Set gate' }).click();
  await page.getByRole('button', { name: 'Save and restart' }).click();
  await expect(validation).toContainText('Saved; the server restarted with it.');

  // Open: no access control, requests without credentials are served.
  expect(await withoutCredentials(page, 'api/v1/namespaces/default/configmaps')).toBe(403);
  await page.getByRole('button', { name: 'Open set-up (AlwaysAllow)' }).click();
  await expect(validation).toContainText('Saved; the server restarted with it.');
  await expect(page.getByText('Now: open (no access control, AlwaysAllow).')).toBeVisible();
  expect(await withoutCredentials(page, 'api/v1/namespaces/default/configmaps')).toBe(200);
  await expect(editor).not.toHaveValue(/authorization/);
  await screenshot(page, 'settings-configuration-open');

  // And secure again, with the same administrator.
  await page.getByRole('button', { name: 'Secure set-up (Node,RBAC)' }).click();
  await expect(page.getByText('Now: secured')).toBeVisible();
  expect(await withoutCredentials(page, 'api/v1/namespaces/default/configmaps')).toBe(403);
  expect((await request(page, 'GET', 'api/v1/namespaces/default/configmaps')).status).toBe(200);
});

test('reset wipes the cluster, an exported file brings it back; the clock moved forward expires a service-account token', async ({ page }) => {
  await openUi(page);
  const created = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keepsake' }, data: { a: '1' } });
  expect(created.status).toBe(201);

  await openSettings(page, 'Cluster data');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to a file' }).click()]);
  await expect(page.getByRole('status').filter({ hasText: 'Exported' })).toContainText(/Exported \d+ stored keys/);
  const file = await download.path();
  expect(JSON.parse(readFileSync(file, 'utf8')).kind).toBe('ClusterArchive');

  await page.getByRole('button', { name: 'Reset the cluster' }).click();
  await page.getByRole('alertdialog', { name: 'Confirm reset' }).getByRole('button', { name: 'Wipe' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'wiped' })).toBeVisible();
  await expect.poll(async () => (await request(page, 'GET', 'api/v1/namespaces/default/configmaps/keepsake')).status).toBe(404);

  await page.getByLabel('Import a cluster file').setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toBeVisible();
  const back = await request(page, 'GET', 'api/v1/namespaces/default/configmaps/keepsake');
  expect(back.status).toBe(200);
  expect(back.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  await screenshot(page, 'settings-cluster-data');

  // A service-account token for 10 minutes stops working an hour later.
  await page.getByRole('tab', { name: 'Identities' }).click();
  const sa = page.getByRole('form', { name: 'Add a service account' });
  await sa.getByLabel('Expires in (s)').fill('600');
  await sa.getByRole('button', { name: 'Get a token' }).click();
  const row = page.getByRole('table', { name: 'Identities' }).getByRole('row', { name: /system:serviceaccount:default:default/ });
  await whoAmI(page, 'system:serviceaccount:default:default');
  await expect(row.getByRole('status')).toContainText('system:serviceaccount:default:default');
  await page.getByRole('tab', { name: 'Clock' }).click();
  await page.getByRole('button', { name: '+1 hour' }).click();
  await expect(page.getByRole('status', { name: 'Server time' })).toContainText('1 h 0 min ahead of this computer');
  await screenshot(page, 'settings-clock');
  await page.getByRole('tab', { name: 'Identities' }).click();
  await whoAmI(page, 'system:serviceaccount:default:default');
  await expect(page.getByRole('table', { name: 'Identities' }).getByRole('alert')).toContainText('401 Unauthorized');
});

test('a newer version of the service worker takes over the cluster without losing data', async ({ page }) => {
  await openUi(page);
  const before = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before-update' } });
  expect(before.status).toBe(201);
  // A watch is open, as the explorer keeps one: the browser activates a new worker only once the old one's
  // requests are done, so the old one ends its watches when the new one is installed.
  const rv: string = before.json.metadata.resourceVersion;
  await startWatch(page, 'open', `api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);
  // A new script URL for the same scope is a new version of the worker: it installs, skips waiting and claims
  // the page, and the old one closes its store first (one writer per database).
  const changed = page.evaluate(() => new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true })));
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await navigator.serviceWorker.register('sw.js?version=2', { scope: registration!.scope });
  });
  await changed;
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/sw\.js\?version=2$/);
  await expect.poll(async () => (await watchState(page, 'open')).ended).toBe(true);
  const read = await request(page, 'GET', 'api/v1/namespaces/default/configmaps/before-update');
  expect(read.status).toBe(200);
  expect(read.json.metadata.resourceVersion).toBe(before.json.metadata.resourceVersion);
  const after = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-update' } });
  expect(after.status).toBe(201);
  expect(BigInt(after.json.metadata.resourceVersion)).toBeGreaterThan(BigInt(rv));
  // The watch resumed from where it was, on the new worker, misses nothing.
  await startWatch(page, 'resumed', `api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);
  await expect.poll(async () => (await watchState(page, 'resumed')).events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED after-update']);
  // The app, reloaded under the new worker, still sends as the same administrator.
  await page.reload();
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  expect((await request(page, 'GET', 'api/v1/namespaces/default/configmaps/after-update')).status).toBe(200);
});
