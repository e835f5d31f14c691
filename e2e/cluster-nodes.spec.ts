// Issue 13 through the service worker: the cluster in the tab runs kind's
// three nodes with their kubelets. A pod and a Deployment created through the
// API reach Running and Available; the pod's log reads "hi"; the Pods view
// runs an exec and shows its output and exit code; a node stopped in Settings
// goes NotReady once the server's clock has passed the node-lifecycle
// controller's grace period; and after the worker is stopped and started
// again (as a browser stops an idle one) the pod is still Running with the
// same IP and its log is still there. Waits poll the API; no fixed sleeps.

import { expect, test, type Page } from '@playwright/test';
import { api } from './support/api';
import { goTo, openUi, screenshot } from './support/ui-app';
import { askWorker, stopWorkers } from './support/worker';

const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'hello' },
  spec: { containers: [{ name: 'hello', image: 'busybox', command: ['sh', '-c', 'echo hi; sleep 3600'] }] },
};

const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
  },
};

function condition(object: any, type: string): string | undefined {
  return object?.status?.conditions?.find((c: { type: string }) => c.type === type)?.status;
}

async function getJson(page: Page, path: string): Promise<any> {
  const result = await api(page, 'GET', path);
  expect(result.status, result.text).toBe(200);
  return result.json;
}

test('pods run in the tab: Running, logs, exec, a stopped node, and a worker restart', async ({ page }) => {
  test.setTimeout(180_000);
  await openUi(page);

  // kind's three nodes register and go Ready.
  await expect
    .poll(async () => (await getJson(page, 'api/v1/nodes')).items.filter((n: unknown) => condition(n, 'Ready') === 'True').map((n: any) => n.metadata.name).sort(), { timeout: 60_000 })
    .toEqual(['kubetab-control-plane', 'kubetab-worker', 'kubetab-worker2']);

  const created = await api(page, 'POST', 'api/v1/namespaces/default/pods', POD);
  expect(created.status, created.text).toBe(201);
  const deployment = await api(page, 'POST', 'apis/apps/v1/namespaces/default/deployments', DEPLOYMENT);
  expect(deployment.status, deployment.text).toBe(201);

  await expect.poll(async () => condition(await getJson(page, 'api/v1/namespaces/default/pods/hello'), 'Ready'), { timeout: 60_000 }).toBe('True');
  await expect.poll(async () => condition(await getJson(page, 'apis/apps/v1/namespaces/default/deployments/web'), 'Available'), { timeout: 60_000 }).toBe('True');
  const running = await getJson(page, 'api/v1/namespaces/default/pods/hello');
  expect(running.status.phase).toBe('Running');
  expect(running.status.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
  const podNode: string = running.spec.nodeName;
  expect(['kubetab-worker', 'kubetab-worker2']).toContain(podNode);
  const log = await api(page, 'GET', 'api/v1/namespaces/default/pods/hello/log');
  expect(log.status).toBe(200);
  expect(log.text).toBe('hi\n');

  // The Pods view: the pod in the list, its log, and an exec through the panel.
  await goTo(page, 'Pods');
  const row = page.getByRole('table', { name: 'Pods' }).locator('tr[data-pod="hello"]');
  await expect(row.getByTestId('pod-status')).toHaveText('Running');
  await row.getByRole('button', { name: 'hello' }).click();
  await expect(page.getByRole('region', { name: 'Pod' }).getByLabel('Container log')).toHaveText(/^hi\n?$/);
  await page.getByRole('tab', { name: 'Exec' }).click();
  const exec = page.getByRole('form', { name: 'Exec' });
  await exec.getByLabel('Command').fill('echo from-exec; hostname; echo oops >&2; exit 3');
  await exec.getByRole('button', { name: 'Run' }).click();
  const output = page.getByRole('log', { name: 'Exec output' });
  await expect(output.getByTestId('exec-end')).toHaveText('command terminated with exit code 3');
  await expect(output).toContainText('from-exec\nhello\noops');
  await expect(output.locator('.pods-exec__stderr')).toHaveText('oops\n');
  await screenshot(page, 'cluster-nodes-exec');

  // Settings → Nodes: stop the worker that does not run the pod.
  const stopped = podNode === 'kubetab-worker' ? 'kubetab-worker2' : 'kubetab-worker';
  await goTo(page, 'Settings');
  await page.getByRole('tab', { name: 'Nodes' }).click();
  const nodes = page.getByRole('table', { name: 'Nodes' });
  const stoppedRow = nodes.locator(`tr[data-node="${stopped}"]`);
  await expect(stoppedRow.getByTestId('node-status')).toHaveText('Ready');
  await stoppedRow.getByRole('button', { name: `Stop ${stopped}` }).click();
  await expect(stoppedRow.getByRole('button', { name: `Start ${stopped}` })).toBeVisible();
  // Its lease is no longer renewed; the node-lifecycle controller's grace is 50 s of the server's clock.
  await page.getByRole('tab', { name: 'Clock' }).click();
  await page.getByRole('button', { name: '+1 minute' }).click();
  await page.getByRole('tab', { name: 'Nodes' }).click();
  await expect(nodes.locator(`tr[data-node="${stopped}"]`).getByTestId('node-status')).toHaveText('NotReady', { timeout: 30_000 });
  await expect(nodes.locator(`tr[data-node="${podNode}"]`).getByTestId('node-status')).toHaveText('Ready');
  expect(condition(await getJson(page, `api/v1/nodes/${stopped}`), 'Ready')).toBe('Unknown');
  await screenshot(page, 'cluster-nodes-settings');

  // The worker is stopped, as a browser stops an idle one; the next request starts it again.
  await stopWorkers(page);
  const after = await getJson(page, 'api/v1/namespaces/default/pods/hello');
  expect(after.status.phase).toBe('Running');
  expect(after.status.podIP).toBe(running.status.podIP);
  expect(after.status.containerStatuses[0].restartCount).toBe(0);
  expect(after.status.containerStatuses[0].containerID).toBe(running.status.containerStatuses[0].containerID);
  // The kubelets start again once the restarted server has bootstrapped; until then the node's kubelet
  // refuses the log's connection (kube's 500), as a restarting kubelet does.
  await expect.poll(async () => (await api(page, 'GET', 'api/v1/namespaces/default/pods/hello/log')).text, { timeout: 30_000 }).toBe('hi\n');
  // The stopped node stays stopped; the others' kubelets run again.
  const state = await askWorker<{ nodes: { config: { name: string }; stopped: boolean }[] }>(page, { type: 'kubetab:nodes:get' });
  expect(state.nodes.map((n) => [n.config.name, n.stopped])).toEqual([
    ['kubetab-control-plane', false],
    ['kubetab-worker', stopped === 'kubetab-worker'],
    ['kubetab-worker2', stopped === 'kubetab-worker2'],
  ]);
  expect(condition(after, 'Ready')).toBe('True');
  // The pod's kubelet is back: an exec through the panel reaches it again.
  await goTo(page, 'Pods');
  await page.getByRole('table', { name: 'Pods' }).locator('tr[data-pod="hello"]').getByRole('button', { name: 'hello' }).click();
  await page.getByRole('tab', { name: 'Exec' }).click();
  await page.getByRole('form', { name: 'Exec' }).getByLabel('Command').fill('echo again');
  await page.getByRole('form', { name: 'Exec' }).getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('log', { name: 'Exec output' }).getByTestId('exec-end')).toHaveText('exit code 0');
  await expect(page.getByRole('log', { name: 'Exec output' })).toContainText('again');

  // On a phone's width neither view overflows sideways (the tables scroll inside their panels).
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [view, tab] of [
    ['Pods', 'Exec'],
    ['Settings', 'Nodes'],
  ] as const) {
    await goTo(page, view);
    if (view === 'Pods') await page.getByRole('table', { name: 'Pods' }).getByRole('button', { name: 'hello' }).click();
    await page.getByRole('tab', { name: tab }).click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${view} → ${tab} at 390 px`).toBeLessThanOrEqual(0);
    await screenshot(page, `cluster-nodes-390-${view.toLowerCase()}`);
  }
});
