// Issue 16, item 28: the smaller playground defects. The access matrix marks
// what is denied (a blank cell reads as "still loading"); Settings keeps the
// current identity's name apart from its badge, and its button says that it
// switches identity (it sends nothing); Managed fields remembers the resource
// last chosen across an offline reload.

import { expect, test, type Page } from '@playwright/test';
import { goTo, openUi } from './support/ui-app';

/** The number of files in the app's caches, once the first visit's background fill has settled. */
async function settledAppCache(page: Page): Promise<void> {
  const count = () =>
    page.evaluate(async () => {
      let n = 0;
      for (const key of await caches.keys()) n += (await (await caches.open(key)).keys()).length;
      return n;
    });
  let last = -1;
  await expect
    .poll(
      async () => {
        const now = await count();
        const settled = now > 10 && now === last;
        last = now;
        return settled;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(true);
}

test('the access matrix marks denied cells distinctly from allowed ones', async ({ page }) => {
  await openUi(page);
  await goTo(page, 'Access');
  await page.getByRole('tab', { name: 'Access matrix' }).click();
  const form = page.getByRole('form', { name: 'Access matrix for a subject' });
  await form.getByLabel('User').fill('jane');
  await form.getByLabel('Namespace').fill('default');
  await form.getByRole('button', { name: 'Show access' }).click();
  const matrix = page.getByRole('table', { name: 'Access of jane in default' });
  const denied = matrix.getByRole('cell', { name: 'delete secrets: not allowed' });
  await expect(denied).toHaveText('✗');
  // (Allowed cells keep their ✓: e2e/ui-access.spec.ts.)
});

test("Settings: the current identity's name and its badge do not touch; the button switches identity and says so", async ({ page }) => {
  await openUi(page);
  await goTo(page, 'Settings');
  const current = page.locator('tr[aria-current="true"]');
  const name = current.locator('strong');
  const badge = current.locator('.badge', { hasText: 'current' });
  await expect(badge).toHaveText('current');
  const [a, b] = [await name.boundingBox(), await badge.boundingBox()];
  expect(a && b).toBeTruthy();
  // Apart on one line, or wrapped below: never overlapping or touching.
  expect(b!.x >= a!.x + a!.width + 4 || b!.y >= a!.y + a!.height).toBe(true);
  await page.getByRole('button', { name: 'Add jane' }).click();
  await expect(page.getByRole('button', { name: /^Send as/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Switch to jane' }).click();
  await expect(page.locator('tr[aria-current="true"]')).toContainText('jane');
});

test('Managed fields remembers the resource last chosen across an offline reload', async ({ page, context }) => {
  await openUi(page);
  await goTo(page, 'Managed fields');
  const picker = page.getByRole('form', { name: 'Choose an object' });
  await picker.getByLabel('Resource').selectOption({ label: 'Deployment (apps/v1)' });
  await settledAppCache(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await goTo(page, 'Managed fields');
  await expect(page.getByRole('form', { name: 'Choose an object' }).getByLabel('Resource')).toHaveValue('apps/v1/deployments');
  await context.setOffline(false);
});
