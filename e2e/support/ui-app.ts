// What a person does first in the UI tests: open the app (a fresh browser
// context, so a fresh cluster and fresh storage), wait for the API server in
// the tab, and go to a view through the navigation. Screenshots of each
// main view go to e2e/screenshots/ (gitignored) to be looked at.

import { expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { adminHeaders } from './admin';

export { adminHeaders };

const SCREENSHOTS = join(process.cwd(), 'e2e', 'screenshots');

/** Opens the app and waits until the header says the server is ready. */
export async function openUi(page: Page, hash = ''): Promise<void> {
  await page.goto(`./${hash}`);
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
}

/** Goes to a view through the navigation, as a person would. */
export async function goTo(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: new RegExp(`^${label}`) }).click();
  await expect(page.getByRole('main')).toHaveAccessibleName(label);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** fetch() from the page (through the service worker) as the administrator unless `headers` has an authorization; returns status and JSON body. */
export async function request(page: Page, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  headers = { ...(await adminHeaders(page)), ...headers };
  return page.evaluate(
    async ({ method, path, body, headers }) => {
      const init: RequestInit = { method, headers: { accept: 'application/json', ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(path.replace(/^\//, ''), init);
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: response.status, json };
    },
    { method, path, body, headers },
  );
}

/** Server-side apply of a YAML manifest as `manager`. */
export async function applyYaml(page: Page, path: string, yaml: string, manager: string, force = false): Promise<{ status: number; json: any }> {
  return request(page, 'PATCH', `${path}?fieldManager=${manager}${force ? '&force=true' : ''}`, yaml, { 'content-type': 'application/apply-patch+yaml' });
}

/** Creates `count` ConfigMaps named prefix-00000… in `namespace`, `parallel` at a time. */
export async function createConfigMaps(page: Page, count: number, prefix = 'cm', namespace = 'default', parallel = 100): Promise<void> {
  const auth = await adminHeaders(page);
  await page.evaluate(
    async ({ count, prefix, namespace, parallel, auth }) => {
      const make = (i: number) =>
        fetch(`api/v1/namespaces/${namespace}/configmaps`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth },
          body: JSON.stringify({ metadata: { name: `${prefix}-${String(i).padStart(5, '0')}` }, data: { i: String(i) } }),
        }).then((r) => {
          if (r.status !== 201) throw new Error(`create ${i}: ${r.status}`);
        });
      for (let start = 0; start < count; start += parallel) await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, (_, k) => make(start + k)));
    },
    { count, prefix, namespace, parallel, auth },
  );
}

/** Puts text on the clipboard and pastes it over a Monaco editor's content (the manifest editor unless named). */
export async function pasteIntoEditor(page: Page, text: string, name: RegExp = /Manifest editor/): Promise<void> {
  // Monaco's input is a textarea labelled by the editor's ariaLabel.
  await page.getByRole('textbox', { name }).focus();
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}
