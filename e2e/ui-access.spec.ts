// Issue 6, feature 5: authorization step by step. A request sent as a user
// (from the audit log) and one composed by hand (a SubjectAccessReview):
// authentication, impersonation, each authorizer in order, RBAC's bindings,
// roles and rules, the final answer with its HTTP status; who-can; the
// access matrix of a subject.

import { expect, test, type Page } from '@playwright/test';
import { goTo, openUi, request, screenshot } from './support/ui-app';

const RBAC = 'apis/rbac.authorization.k8s.io/v1';

async function bindClusterRole(page: Page, namespace: string, name: string, role: string, user: string): Promise<void> {
  const created = await request(page, 'POST', `${RBAC}/namespaces/${namespace}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  });
  expect(created.status).toBe(201);
}

test('a forbidden request sent as jane, step by step from the audit log; then checked again by hand once a RoleBinding allows it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  // Switch to jane, a static token user of the cluster's configuration.
  await page.getByRole('link', { name: 'Manage identities' }).click();
  await page.getByRole('button', { name: 'Add jane' }).click();
  await page.getByRole('button', { name: 'Switch to jane' }).click();
  await goTo(page, 'Console');
  const form = page.getByRole('form', { name: 'Request' });
  await form.getByLabel('Method').selectOption('GET');
  await form.getByLabel('Path').fill('/api/v1/namespaces/default/secrets');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('response-status')).toHaveText(/^403/);
  await page.getByRole('combobox', { name: 'Identity', exact: true }).selectOption({ label: 'kubernetes-admin' });

  await goTo(page, 'Access');
  await page.getByRole('button', { name: 'list /api/v1/namespaces/default/secrets by jane: 403' }).first().click();
  const steps = page.getByRole('region', { name: 'Decision steps' });
  await expect(steps.getByRole('heading', { name: /1\. Authentication/ })).toContainText('Authenticated');
  await expect(steps).toContainText('as jane');
  await expect(steps.getByRole('heading', { name: /2\. Impersonation/ })).toContainText('None');
  await expect(steps.getByRole('heading', { name: /Authorizer Privileged/ })).toContainText('NoOpinion');
  await expect(steps.getByRole('heading', { name: /Authorizer Node/ })).toContainText('NoOpinion');
  await expect(steps.getByRole('heading', { name: /Authorizer RBAC/ })).toContainText('NoOpinion');
  // The default policy binds system:authenticated to a few roles: each is shown with why its rules do not grant this.
  await expect(steps).toContainText('ClusterRoleBinding system:basic-user');
  await expect(steps).toContainText('subject Group "system:authenticated" is one of the user\'s groups');
  await expect(steps).toContainText('verb "list" is not in verbs [get]');
  const final = page.getByRole('status', { name: 'Final answer' });
  await expect(final).toContainText('403 Forbidden');
  await expect(final).toContainText('secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"');
  await screenshot(page, 'access-audit-forbidden');

  // The same request composed by hand, after a RoleBinding grants jane the admin role in default.
  await bindClusterRole(page, 'default', 'jane-admin', 'admin', 'jane');
  await page.getByRole('button', { name: 'Check this request for someone else' }).click();
  const compose = page.getByRole('form', { name: 'Compose a request' });
  await expect(compose.getByLabel('User')).toHaveValue('jane');
  await expect(compose.getByLabel('Resource', { exact: true })).toHaveValue('secrets');
  await compose.getByRole('button', { name: 'Check' }).click();
  await expect(steps.getByRole('heading', { name: /1\. Authentication/ })).toContainText('Not checked');
  await expect(steps.getByRole('heading', { name: /Authorizer RBAC/ })).toContainText('Allow');
  await expect(steps).toContainText('RBAC: allowed by RoleBinding "jane-admin/default" of ClusterRole "admin" to User "jane"');
  await expect(final).toContainText('200 OK');
  await screenshot(page, 'access-check-allowed');

  // Another verb the admin role leaves out: escalate on roles.
  await compose.getByLabel('Verb').fill('escalate');
  await compose.getByLabel('API group').fill('rbac.authorization.k8s.io');
  await compose.getByLabel('Resource', { exact: true }).fill('roles');
  await compose.getByRole('button', { name: 'Check' }).click();
  await expect(final).toContainText('403 Forbidden');
  await expect(final).toContainText('roles.rbac.authorization.k8s.io is forbidden: User "jane" cannot escalate resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "default"');
});

test('who can delete pods in a namespace, and what jane may do there (resources × verbs)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openUi(page);
  expect((await request(page, 'POST', 'api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } })).status).toBe(201);
  await bindClusterRole(page, 'team', 'jane-edit', 'edit', 'jane');

  await goTo(page, 'Access');
  await page.getByRole('tab', { name: 'Who can' }).click();
  const who = page.getByRole('form', { name: 'Who can' });
  await who.getByLabel('Verb').fill('delete');
  await who.getByLabel('Resource', { exact: true }).fill('pods');
  await who.getByLabel('Namespace').fill('team');
  await who.getByRole('button', { name: 'Find who can' }).click();
  const subjects = page.getByRole('table', { name: 'Subjects allowed' });
  await expect(subjects).toContainText('Group system:masters');
  await expect(subjects.getByRole('row', { name: /User jane/ })).toContainText('RoleBinding team/jane-edit');
  await screenshot(page, 'access-who-can');

  await page.getByRole('tab', { name: 'Access matrix' }).click();
  const matrixForm = page.getByRole('form', { name: 'Access matrix for a subject' });
  await matrixForm.getByLabel('User').fill('jane');
  await matrixForm.getByLabel('Groups (comma-separated)').fill('developers');
  await matrixForm.getByLabel('Namespace').fill('team');
  await matrixForm.getByRole('button', { name: 'Show access' }).click();
  const matrix = page.getByRole('table', { name: 'Access of jane in team' });
  await expect(matrix.getByRole('cell', { name: 'delete pods: allowed' })).toBeVisible();
  await expect(matrix.getByRole('cell', { name: 'create secrets: allowed' })).toBeVisible();
  await expect(matrix.getByRole('cell', { name: 'create roles: not allowed' })).toBeVisible();
  await screenshot(page, 'access-matrix');
});
