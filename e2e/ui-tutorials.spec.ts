// Issue 6, feature 7: tutorials. A person follows the steps: an action opens
// the editor or the console with the content filled in, they act there, come
// back and the check reads the server's state. Progress survives a reload.

import { expect, test, type Page } from '@playwright/test';
import { goTo, openUi, screenshot } from './support/ui-app';

async function openTutorial(page: Page, title: RegExp): Promise<void> {
  await goTo(page, 'Tutorials');
  await page.getByRole('link', { name: title }).click();
}

/** Back from another view, as a person does: the Tutorials page offers to continue. */
async function backToTutorial(page: Page): Promise<void> {
  await goTo(page, 'Tutorials');
  await page.getByRole('link', { name: /^Continue / }).click();
}

async function act(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: label }).click();
}

async function checkDone(page: Page, step: string): Promise<void> {
  const region = page.getByRole('region', { name: new RegExp(`^Step \\d+: ${step}`) });
  await region.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(region.getByRole('status', { name: 'Check result' })).toContainText('✓');
  await expect(region.getByRole('heading')).toContainText('Done');
}

async function next(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next step' }).click();
}

async function applyInEditor(page: Page, expected: RegExp): Promise<void> {
  await expect(page.getByRole('main')).toHaveAccessibleName('Editor');
  await expect(page.getByRole('textbox', { name: /Manifest editor/ })).toBeAttached({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Results' })).toContainText(expected);
}

async function sendInConsole(page: Page, expected: RegExp): Promise<void> {
  await expect(page.getByRole('main')).toHaveAccessibleName('Console');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('response-status')).toHaveText(expected);
}

test('server-side apply: two managers share, conflict, force, hand a field over and remove one; progress survives a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  await openTutorial(page, /^Server-side apply/);
  await screenshot(page, 'tutorials-ssa-start');

  await act(page, 'Open in the editor as tool-a');
  await applyInEditor(page, /200|201/);
  await backToTutorial(page);
  await checkDone(page, 'Apply as a first manager');

  await next(page);
  await act(page, 'Open in the editor as tool-b');
  await applyInEditor(page, /200/);
  await backToTutorial(page);
  await checkDone(page, 'Share a field');

  // A check that is not met yet says so.
  await next(page);
  const conflictStep = page.getByRole('region', { name: /^Step 3: Disagree/ });
  await conflictStep.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(conflictStep.getByRole('status', { name: 'Check result' })).toContainText('Not yet: No apply of ssa-demo by tool-b was refused with 409 yet.');
  await act(page, 'Open in the editor as tool-b');
  await applyInEditor(page, /409/);
  await expect(page.getByRole('group', { name: 'Apply conflicts' })).toContainText('tool-a');
  await backToTutorial(page);
  await checkDone(page, 'Disagree: a conflict');

  await next(page);
  await act(page, 'Open in the editor as tool-b');
  await expect(page.getByRole('textbox', { name: /Manifest editor/ })).toBeAttached({ timeout: 20_000 });
  await page.getByLabel('Force conflicts').check();
  await applyInEditor(page, /200/);
  await backToTutorial(page);
  await checkDone(page, 'Force it');

  await next(page);
  await act(page, '1. As tool-b, with size');
  await applyInEditor(page, /200/);
  await backToTutorial(page);
  await act(page, '2. As tool-a, without size');
  await applyInEditor(page, /200/);
  await backToTutorial(page);
  await checkDone(page, 'Hand a field over');

  await next(page);
  await act(page, 'Open in the editor as tool-b');
  await applyInEditor(page, /200/);
  await backToTutorial(page);
  await checkDone(page, 'Remove a field');
  await screenshot(page, 'tutorials-ssa-done');

  // Progress is kept across a reload.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Steps' })).toContainText('6 of 6 done');
  await goTo(page, 'Tutorials');
  await expect(page.getByRole('listitem').filter({ hasText: 'Server-side apply' })).toContainText('All 6 steps done');
});

test('RBAC from 403 to a working RoleBinding; watch resourceVersions expire with the clock; garbage collection with Orphan', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  await openTutorial(page, /^RBAC/);
  await act(page, 'Prepare the namespace');
  await expect(page.getByRole('status').filter({ hasText: 'Namespace rbac-demo is there.' })).toBeVisible();
  await act(page, 'Open the console as jane');
  await sendInConsole(page, /^403/);
  await backToTutorial(page);
  await checkDone(page, 'A forbidden request');

  await next(page);
  await act(page, 'Open the Role in the editor');
  await applyInEditor(page, /201/);
  await backToTutorial(page);
  await checkDone(page, 'A Role');

  await next(page);
  await act(page, 'Open the RoleBinding in the editor');
  await applyInEditor(page, /201/);
  await backToTutorial(page);
  await checkDone(page, 'A RoleBinding');

  await next(page);
  await act(page, 'Open the console as jane');
  await sendInConsole(page, /^200/);
  await backToTutorial(page);
  await checkDone(page, 'Allowed now');
  await screenshot(page, 'tutorials-rbac');

  // Watch: the last step makes a continue token expire by moving the server's clock.
  await openTutorial(page, /^Watch and resourceVersion/);
  await act(page, 'Prepare watch-demo');
  await expect(page.getByRole('status').filter({ hasText: 'Namespace watch-demo' })).toBeVisible();
  await page.getByRole('button', { name: /Paging with continue/ }).click();
  await act(page, 'Add seven ConfigMaps');
  await expect(page.getByRole('status').filter({ hasText: 'page-1 … page-7 created.' })).toBeVisible();
  await next(page);
  await act(page, 'Take a token, move the clock 6 minutes');
  await sendInConsole(page, /^410/);
  await expect(page.getByLabel('Response body')).toContainText('The provided continue parameter is too old');
  await backToTutorial(page);
  await checkDone(page, '410 Gone');

  // Deletion: an orphan stays when its owner goes.
  await openTutorial(page, /^Deletion/);
  await page.getByRole('button', { name: /Garbage collection: Orphan/ }).click();
  await act(page, 'Create owner-or and child-or');
  await expect(page.getByRole('status').filter({ hasText: 'owner-or and its dependent child-or are there.' })).toBeVisible();
  await act(page, 'Open the delete of owner-or');
  await sendInConsole(page, /^200/);
  await backToTutorial(page);
  const orphan = page.getByRole('region', { name: /^Step \d+: Garbage collection: Orphan/ });
  await expect(async () => {
    await orphan.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(orphan.getByRole('status', { name: 'Check result' })).toContainText('✓', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await screenshot(page, 'tutorials-deletion');
});
