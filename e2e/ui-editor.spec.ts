// Issue 6, feature 3: edit manifests — several documents in one buffer,
// Apply (server-side) / Create / Replace, dry run, a diff against the live
// objects before writing, errors and conflicts shown at their fields.

import { expect, test } from '@playwright/test';
import { applyYaml, goTo, openUi, pasteIntoEditor, request, screenshot } from './support/ui-app';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
// Monaco is the heaviest thing the app loads: room for a busy machine.
test.describe.configure({ timeout: 120_000 });

test('an example with two documents is applied server-side; a changed manifest is diffed, then written', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  await goTo(page, 'Editor');
  await expect(page.getByRole('textbox', { name: /Manifest editor/ })).toBeAttached({ timeout: 20_000 });
  await page.getByLabel('Examples').selectOption('Deployment and Service');
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByRole('listitem').filter({ hasText: 'Deployment default/web' })).toContainText('created');
  await expect(results.getByRole('listitem').filter({ hasText: 'Service default/web' })).toContainText('created');
  const live = await request(page, 'GET', 'apis/apps/v1/namespaces/default/deployments/web');
  expect(live.json.metadata.managedFields[0]).toMatchObject({ manager: 'kubetab', operation: 'Apply' });
  await screenshot(page, 'editor-applied');

  // Change the replicas, look at the diff (a server dry run), then write.
  await pasteIntoEditor(page, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
spec:
  replicas: 5
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
`);
  await page.getByRole('button', { name: 'Diff with live' }).click();
  const diff = page.getByRole('region', { name: 'Diff' });
  await expect(diff).toBeVisible();
  await expect(diff).toContainText('replicas: 5');
  await expect(diff).toContainText('replicas: 2');
  // Nothing was written by the dry run.
  expect((await request(page, 'GET', 'apis/apps/v1/namespaces/default/deployments/web')).json.spec.replicas).toBe(2);
  await screenshot(page, 'editor-diff');
  await page.getByRole('button', { name: 'Write (apply)' }).click();
  await expect(page.getByRole('region', { name: 'Diff' })).toHaveCount(0);
  expect((await request(page, 'GET', 'apis/apps/v1/namespaces/default/deployments/web')).json.spec.replicas).toBe(5);
});

test('a 422 is shown at the field it concerns; dry run writes nothing; create and replace', async ({ page }) => {
  await openUi(page);
  await goTo(page, 'Editor');
  await expect(page.getByRole('textbox', { name: /Manifest editor/ })).toBeAttached({ timeout: 20_000 });
  await pasteIntoEditor(page, `apiVersion: v1
kind: ConfigMap
metadata:
  name: Not_Valid
  namespace: default
data:
  a: "1"
`);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const problems = page.getByRole('list', { name: 'Problems' });
  // metadata.name is on line 4 of the buffer.
  await expect(problems.getByRole('button', { name: /^Line 4: metadata\.name: Invalid value: "Not_Valid"/ })).toBeVisible();
  await screenshot(page, 'editor-422');

  await pasteIntoEditor(page, `apiVersion: v1
kind: ConfigMap
metadata:
  name: valid
data:
  a: "1"
`);
  await page.getByLabel('Dry run').check();
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Results' })).toContainText('created (server dry run)');
  expect((await request(page, 'GET', 'api/v1/namespaces/default/configmaps/valid')).status).toBe(404);
  await page.getByLabel('Dry run').uncheck();
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Results' })).toContainText('201');
  await page.getByRole('button', { name: 'Replace', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Results' })).toContainText('replaced');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Results' })).toContainText('AlreadyExists');
});

test('an apply conflict is marked at the field, and resolved by dropping the field from the manifest', async ({ page }) => {
  await openUi(page);
  const owned = await applyYaml(page, 'api/v1/namespaces/default/configmaps/settings', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  color: blue\n', 'alice');
  expect(owned.status).toBe(201);
  await goTo(page, 'Editor');
  await expect(page.getByRole('textbox', { name: /Manifest editor/ })).toBeAttached({ timeout: 20_000 });
  await pasteIntoEditor(page, `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  color: red
  size: large
`);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  const conflicts = page.getByRole('group', { name: 'Apply conflicts' });
  await expect(conflicts).toContainText('.data.color owned by alice');
  await expect(page.getByRole('list', { name: 'Problems' }).getByRole('button', { name: /^Line 7: Apply conflict: \.data\.color is owned by "alice"/ })).toBeVisible();
  await screenshot(page, 'editor-conflict');

  await conflicts.getByRole('button', { name: 'Resolve in managed fields' }).click();
  await expect(page.getByRole('main')).toHaveAccessibleName('Managed fields');
  await page.getByRole('region', { name: 'Apply conflict' }).getByRole('button', { name: 'Drop the fields from the manifest' }).click();
  await expect(page.getByRole('region', { name: 'Apply conflict' })).toHaveCount(0);
  const live = await request(page, 'GET', 'api/v1/namespaces/default/configmaps/settings');
  expect(live.json.data).toEqual({ color: 'blue', size: 'large' });
  // The editor's buffer no longer claims the field.
  await goTo(page, 'Editor');
  await expect(page.getByRole('code').first()).not.toContainText('color: red');
  await expect(page.getByRole('code').first()).toContainText('size: large');
});
