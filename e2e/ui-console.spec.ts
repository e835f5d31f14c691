// Issue 6, feature 1: the request console — method, path, query parameters,
// headers; the response with its status, Warning headers and body; a watch
// as live events, stoppable; continue for paged lists; copy as curl and
// kubectl; a history that survives a reload and re-sends.

import { expect, test, type Page } from '@playwright/test';
import { goTo, openUi, pasteIntoEditor, request, screenshot } from './support/ui-app';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function compose(page: Page, method: string, path: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Request' });
  await form.getByLabel('Method').selectOption(method);
  await form.getByLabel('Path').fill(path);
}

async function send(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

test('a create with an unknown field under fieldValidation=Warn answers 201 with the Warning header shown', async ({ page }) => {
  await openUi(page);
  await goTo(page, 'Console');
  await compose(page, 'POST', '/api/v1/namespaces/default/configmaps');
  await page.getByText('Query parameters').click();
  await page.getByLabel('fieldValidation').selectOption('Warn');
  await page.getByText('Headers and impersonation').click();
  await page.getByLabel('Content-Type').selectOption('application/json');
  // The body is a Monaco editor in JSON mode, as the Content-Type says.
  await expect(page.getByTestId('body-language')).toHaveText('JSON');
  await pasteIntoEditor(page, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-console' }, data: { a: '1' }, bogus: true }), /^Body \(JSON\)/);
  // Keyboard: Tab leaves the body for the next control (the editor does not trap focus).
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeFocused();
  await send(page);
  await expect(page.getByTestId('response-status')).toHaveText(/^201/);
  // The server's warning (unknown field) is called out, not buried in the headers.
  await expect(page.getByRole('alert', { name: 'Warnings' })).toContainText('unknown field "bogus"');
  await expect(page.getByLabel('Response body')).toContainText('"name": "from-console"');
  await screenshot(page, 'console-create-warning');

  // The same request as command lines.
  await page.getByRole('button', { name: 'As curl' }).click();
  // (For the Node server: this page's API server is inside the tab, issue 16 item 25.)
  await expect(page.getByLabel('curl command')).toContainText("curl --cacert kubetab-ca.crt -X POST 'https://127.0.0.1:8080/api/v1/namespaces/default/configmaps?fieldValidation=Warn'");
  await page.getByRole('button', { name: 'As kubectl' }).click();
  await expect(page.getByLabel('kubectl command')).toContainText("kubectl create --raw '/api/v1/namespaces/default/configmaps?fieldValidation=Warn' -f -");
});

test('the body editor follows the Content-Type: a server-side apply in YAML from the console', async ({ page }) => {
  await openUi(page);
  await goTo(page, 'Console');
  await compose(page, 'PATCH', '/api/v1/namespaces/default/configmaps/applied?fieldManager=console');
  await page.getByText('Headers and impersonation').click();
  await page.getByLabel('Content-Type').selectOption('application/apply-patch+yaml');
  await expect(page.getByTestId('body-language')).toHaveText('YAML');
  await expect(page.getByRole('textbox', { name: /^Body \(YAML\)/ })).toBeAttached();
  await pasteIntoEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  colour: blue\n', /^Body \(YAML\)/);
  await send(page);
  await expect(page.getByTestId('response-status')).toHaveText(/^201/);
  const stored = await request(page, 'GET', 'api/v1/namespaces/default/configmaps/applied');
  expect(stored.json.data).toEqual({ colour: 'blue' });
  expect(stored.json.metadata.managedFields[0].manager).toBe('console');
  await screenshot(page, 'console-apply-yaml');
});

test('a watch lists events live with their resourceVersion and stops on request', async ({ page }) => {
  await openUi(page);
  await compose(page, 'GET', '/api/v1/namespaces/default/configmaps');
  await page.getByText('Query parameters').click();
  await page.getByLabel('watch', { exact: true }).check();
  await send(page);
  const events = page.getByRole('table', { name: 'Watch events' });
  // The existing ConfigMap arrives as ADDED (no resourceVersion: initial state first).
  await expect(events.getByRole('row').filter({ hasText: 'kube-root-ca.crt' })).toContainText('ADDED');

  const created = await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { metadata: { name: 'watched' } });
  expect(created.status).toBe(201);
  const row = events.getByRole('row').filter({ hasText: 'default/watched' });
  await expect(row).toContainText('ADDED');
  await expect(row).toContainText(created.json.metadata.resourceVersion);
  await request(page, 'DELETE', 'api/v1/namespaces/default/configmaps/watched');
  await expect(events.getByRole('row').filter({ hasText: 'DELETED' })).toContainText('default/watched');
  await screenshot(page, 'console-watch');

  await page.getByRole('button', { name: 'Stop watch' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Watch ended' })).toBeVisible();
  await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { metadata: { name: 'after-stop' } });
  await page.waitForTimeout(300);
  await expect(events.getByRole('row').filter({ hasText: 'after-stop' })).toHaveCount(0);
});

test('a paged list continues with the continue token; the history survives a reload and re-sends', async ({ page }) => {
  await openUi(page);
  for (const name of ['page-a', 'page-b']) expect((await request(page, 'POST', 'api/v1/namespaces/default/configmaps', { metadata: { name } })).status).toBe(201);
  await compose(page, 'GET', '/api/v1/namespaces/default/configmaps');
  await page.getByText('Query parameters').click();
  await page.getByLabel('limit').fill('1');
  await send(page);
  await expect(page.getByLabel('Response body')).toContainText('kube-root-ca.crt');
  await expect(page.getByLabel('Response body')).toContainText('"remainingItemCount": 2');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByLabel('Response body')).toContainText('"name": "page-a"');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByLabel('Response body')).toContainText('"name": "page-b"');
  await expect(page.getByRole('button', { name: 'Continue', exact: true })).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-state', 'ready');
  const history = page.getByRole('list', { name: 'Sent requests' });
  await expect(history.getByRole('listitem')).toHaveCount(3);
  // Re-send the first page (the oldest entry): same answer as before.
  await history.getByRole('button', { name: /^Resend GET .*limit=1$/ }).click();
  await expect(page.getByLabel('Response body')).toContainText('kube-root-ca.crt');
  await expect(history.getByRole('listitem')).toHaveCount(4);
  await screenshot(page, 'console-history');
});

test('impersonation headers and the Table preset go out with the request', async ({ page }) => {
  await openUi(page);
  await compose(page, 'GET', '/api/v1/namespaces');
  await page.getByText('Headers and impersonation').click();
  await page.getByRole('combobox', { name: /^Accept/ }).selectOption({ label: 'Table — application/json;as=Table;v=v1;g=meta.k8s.io' });
  await send(page);
  await expect(page.getByLabel('Response body')).toContainText('"kind": "Table"');
  await page.getByLabel('Impersonate user').fill('jane');
  await page.getByLabel('Impersonate groups (comma-separated)').fill('devs');
  await page.getByRole('button', { name: 'As kubectl' }).click();
  // (A --token flag comes first when the current identity has a token.)
  await expect(page.getByLabel('kubectl command')).toHaveText(/^kubectl get --raw \/api\/v1\/namespaces (--token=\S+ )?--as=jane --as-group=devs$/);
});
