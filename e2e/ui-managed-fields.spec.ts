// Issue 6, feature 4: managed fields — each field marked by its managers
// (legend with operation, apiVersion, time), the raw managedFields, and after
// a conflicting apply the three ways out, each one click.

import { expect, test, type Page } from '@playwright/test';
import { applyYaml, goTo, openUi, request, screenshot } from './support/ui-app';

const PATH = 'api/v1/namespaces/default/configmaps/shared';
const ALICE = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  labels:\n    team: a\ndata:\n  color: blue\n  size: large\n';
const BOB = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  namespace: default\ndata:\n  color: red\n  shape: round\n';

async function openShared(page: Page): Promise<void> {
  await openUi(page);
  expect((await applyYaml(page, PATH, ALICE, 'alice')).status).toBe(201);
  await goTo(page, 'Managed fields');
  const picker = page.getByRole('form', { name: 'Choose an object' });
  await picker.getByLabel('Resource').selectOption({ label: 'ConfigMap (v1)' });
  await picker.getByLabel('Object').selectOption('shared');
  await expect(page.getByRole('table', { name: 'Managers' })).toContainText('alice');
}

function line(page: Page, text: string) {
  return page.getByRole('list', { name: 'Fields by manager' }).getByRole('listitem').filter({ hasText: text });
}

async function applyAsBob(page: Page, manifest = BOB): Promise<void> {
  const box = page.getByRole('region', { name: 'Apply as a field manager' });
  await box.getByLabel('Manager', { exact: true }).fill('bob');
  await box.getByLabel('Manifest to apply').fill(manifest);
  await box.getByRole('button', { name: 'Apply as bob' }).click();
}

test('fields are marked by their managers; an Update manager appears beside the appliers; raw managedFields are shown', async ({ page }) => {
  await openShared(page);
  // A merge patch by another client: an Update entry.
  await request(page, 'PATCH', `${PATH}?fieldManager=kubectl-edit`, { data: { note: 'x' } }, { 'content-type': 'application/merge-patch+json' });
  const managers = page.getByRole('table', { name: 'Managers' });
  await expect(managers.getByRole('row').filter({ hasText: 'kubectl-edit' })).toContainText('Update');
  await expect(managers.getByRole('row').filter({ hasText: 'alice' })).toContainText('Apply');
  await expect(managers.getByRole('row').filter({ hasText: 'alice' })).toContainText('v1');
  await expect(line(page, 'color: blue')).toHaveAttribute('title', 'owned by alice');
  await expect(line(page, 'note: x')).toHaveAttribute('title', 'owned by kubectl-edit');
  await expect(line(page, 'team: a')).toHaveAttribute('title', 'owned by alice');
  await expect(line(page, 'uid:')).toHaveAttribute('title', 'not owned');
  await screenshot(page, 'managed-fields');

  await page.getByRole('tab', { name: 'Raw managedFields' }).click();
  await expect(page.getByLabel('managedFields', { exact: true })).toContainText('f:color: {}');
  await expect(page.getByLabel('managedFields', { exact: true })).toContainText('manager: kubectl-edit');
});

test('a conflict is shown with owner and both values; adopting the live value shares the field', async ({ page }) => {
  await openShared(page);
  await applyAsBob(page);
  const conflict = page.getByRole('region', { name: 'Apply conflict' });
  const row = conflict.getByRole('row').filter({ hasText: '.data.color' });
  await expect(row).toContainText('alice');
  await expect(row).toContainText('"red"');
  await expect(row).toContainText('"blue"');
  await expect(line(page, 'color: blue')).toContainText('in conflict');
  await screenshot(page, 'managed-fields-conflict');

  await conflict.getByRole('button', { name: 'Adopt the live values' }).click();
  await expect(conflict).toHaveCount(0);
  // Both applied the same value: both own it now.
  await expect(line(page, 'color: blue')).toHaveAttribute('title', 'owned by alice, bob');
  await expect(line(page, 'shape: round')).toHaveAttribute('title', 'owned by bob');
  await expect(page.getByLabel('Manifest to apply')).toHaveValue(/color: blue/);
});

test('forcing takes the field over; dropping it leaves it to its owner', async ({ page }) => {
  await openShared(page);
  await applyAsBob(page);
  await page.getByRole('region', { name: 'Apply conflict' }).getByRole('button', { name: 'Force: take the fields over' }).click();
  await expect(page.getByRole('region', { name: 'Apply conflict' })).toHaveCount(0);
  await expect(line(page, 'color: red')).toHaveAttribute('title', 'owned by bob');

  // Now alice conflicts on the same field, and drops it.
  const box = page.getByRole('region', { name: 'Apply as a field manager' });
  await box.getByLabel('Manager', { exact: true }).fill('alice');
  await box.getByLabel('Manifest to apply').fill(ALICE);
  await box.getByRole('button', { name: 'Apply as alice' }).click();
  await expect(page.getByRole('region', { name: 'Apply conflict' }).getByRole('row').filter({ hasText: '.data.color' })).toContainText('bob');
  await page.getByRole('region', { name: 'Apply conflict' }).getByRole('button', { name: 'Drop the fields from the manifest' }).click();
  await expect(page.getByRole('region', { name: 'Apply conflict' })).toHaveCount(0);
  await expect(box.getByLabel('Manifest to apply')).not.toHaveValue(/color/);
  const live = await request(page, 'GET', PATH);
  expect(live.json.data).toEqual({ color: 'red', shape: 'round', size: 'large' });
});
