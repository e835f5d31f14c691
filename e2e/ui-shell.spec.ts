// Issue 6, quality: the app's shell — the header names the server and its
// version (from /version), views are reached by the navigation and by the
// keyboard, a light and a dark theme, readable on a narrow screen.

import { expect, test } from '@playwright/test';
import { goTo, openUi, screenshot } from './support/ui-app';

test('the header shows the server version, the identity and the theme switch; views are one click away', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  await expect(page.getByTestId('server-status')).toContainText('v1.32.');
  await expect(page.getByRole('combobox', { name: 'Identity', exact: true })).toHaveValue('admin');
  // The console is the first view.
  await expect(page.getByRole('main')).toHaveAccessibleName('Console');
  await screenshot(page, 'shell-console-light');

  for (const view of ['Explorer', 'Editor', 'Managed fields', 'Console']) {
    await goTo(page, view);
    await expect(page.getByRole('link', { name: new RegExp(`^${view}`) })).toHaveAttribute('aria-current', 'page');
  }

  // Keyboard: Alt+2 opens the explorer, Alt+3 the editor.
  await page.keyboard.press('Alt+2');
  await expect(page.getByRole('main')).toHaveAccessibleName('Explorer');
  await page.keyboard.press('Alt+3');
  await expect(page.getByRole('main')).toHaveAccessibleName('Editor');

  // A view survives a reload (its address is in the URL).
  await page.reload();
  await expect(page.getByRole('main')).toHaveAccessibleName('Editor');
});

test('the dark theme applies at once and is remembered', async ({ page }) => {
  await openUi(page);
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  const before = await toggle.getAttribute('aria-pressed');
  await toggle.click();
  const after = before === 'true' ? 'false' : 'true';
  await expect(toggle).toHaveAttribute('aria-pressed', after);
  if (after === 'false') await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await goTo(page, 'Explorer');
  await expect(page.getByRole('table', { name: 'ConfigMap objects' })).toBeVisible();
  await screenshot(page, 'shell-explorer-dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('on a narrow screen the navigation stays reachable and nothing overflows sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await openUi(page);
  await goTo(page, 'Explorer');
  await expect(page.getByRole('table', { name: 'ConfigMap objects' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, 'shell-narrow-explorer');
  await goTo(page, 'Console');
  await screenshot(page, 'shell-narrow-console');
});
