// Issue 16, item 27: the editor helps from the server's schema. An apply
// error that names a field is marked on that field's line; completion offers
// the fields of the schema at every depth (and the values of enumerations);
// hover tells a field's type, whether it is required and its values.

import { expect, test, type Page } from '@playwright/test';
import { goTo, openUi, pasteIntoEditor } from './support/ui-app';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.describe.configure({ timeout: 120_000 });

const EDITOR = /Manifest editor/;

async function openEditor(page: Page): Promise<void> {
  await openUi(page);
  await goTo(page, 'Editor');
  await expect(page.getByRole('textbox', { name: EDITOR })).toBeAttached({ timeout: 20_000 });
}

/** Pastes `text` as the whole document and waits until the editor shows `marker` (a paste can be lost while a widget closes). */
async function replaceDocument(page: Page, text: string, marker: string): Promise<void> {
  await expect(async () => {
    await page.keyboard.press('Escape');
    await pasteIntoEditor(page, text);
    await expect(page.locator('.view-lines')).toContainText(marker, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** The labels of the suggestions Ctrl+Space offers at the cursor (asked again until `expected` is among them: the schema arrives after the text). */
async function expectSuggestions(page: Page, expected: string[]): Promise<void> {
  const rows = page.locator('.suggest-widget .monaco-list-row .label-name');
  await expect(async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Space');
    await expect(rows.first()).toBeVisible({ timeout: 2_000 });
    const labels = await rows.allInnerTexts();
    for (const label of expected) expect(labels).toContain(label);
  }).toPass({ timeout: 20_000 });
}

test('an apply error naming a field is marked on that line, not on line 1', async ({ page }) => {
  await openEditor(page);
  await pasteIntoEditor(
    page,
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx
        bogusField: true
`,
  );
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  const problems = page.getByRole('list', { name: 'Problems' });
  await expect(problems.getByRole('button', { name: /bogusField/ })).toHaveText(/^Line 18: /);
});

test('completion offers the schema fields under spec at every depth and enum values; hover tells type, required and values', async ({ page }) => {
  await openEditor(page);
  await pasteIntoEditor(page, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  ');
  await expectSuggestions(page, ['replicas', 'selector', 'template']);
  await page.keyboard.press('Escape');

  await replaceDocument(page, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        ', 'containers:');
  await expectSuggestions(page, ['image', 'imagePullPolicy', 'ports']);
  await page.keyboard.press('Escape');

  await replaceDocument(page, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: web\n    image: nginx\n    imagePullPolicy: ', 'imagePullPolicy:');
  await expectSuggestions(page, ['Always', 'IfNotPresent', 'Never']);
  await page.keyboard.press('Escape');

  // Hover on a key.
  await replaceDocument(page, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: web\n    image: nginx\n    imagePullPolicy: Always\n', 'imagePullPolicy: Always');
  const hover = page.locator('.monaco-hover-content');
  const key = page.locator('.view-lines .view-line span', { hasText: /^imagePullPolicy$/ });
  await expect(async () => {
    await page.mouse.move(0, 0);
    await key.hover();
    await expect(hover.filter({ hasText: 'imagePullPolicy' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await expect(hover.filter({ hasText: 'imagePullPolicy' })).toContainText('imagePullPolicy: string, optional. One of: Always, IfNotPresent, Never.');
});
