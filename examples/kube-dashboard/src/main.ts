// The example app: a namespace's Deployments and Pods, kept live by watches,
// with a scale control. It finds its API server as an app would in each of
// its set-ups:
// - under test, from window.__KUBETAB__ (set by kubetab/playwright: a Node
//   server's URL and token, or the page's own KubeTab worker);
// - as a demo (?demo), by starting KubeTab's worker itself (kubetab/worker);
// - otherwise at /k8s (a proxy to a real cluster, in a real deployment).

import { startKubeTabWorker } from 'kubetab/worker';
import { ApiError, KubeClient, type KubeObject } from './kube-client';
import { DEMO_SEED } from './demo-seed';

interface KubeTabHook {
  server: string;
  token?: string;
  ready: Promise<KubeTabHook>;
}

const namespace = new URLSearchParams(location.search).get('namespace') ?? 'default';
const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

async function connect(): Promise<KubeClient> {
  const hook = (window as unknown as { __KUBETAB__?: KubeTabHook }).__KUBETAB__;
  if (hook) {
    const ready = await hook.ready;
    return new KubeClient(ready.server, ready.token);
  }
  if (new URLSearchParams(location.search).has('demo')) {
    const kube = await startKubeTabWorker({ apiBase: '/k8s', open: true, seed: DEMO_SEED });
    return new KubeClient(kube.server, kube.token);
  }
  return new KubeClient(`${location.origin}/k8s`, undefined);
}

function showError(element: HTMLElement, error: ApiError | undefined): void {
  element.hidden = !error;
  element.textContent = error ? `${error.code === 0 ? '' : `Error ${error.code}: `}${error.message}` : '';
}

function renderDeployments(client: KubeClient, items: KubeObject[]): void {
  const body = $('#deployments tbody');
  body.replaceChildren(
    ...items
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
      .map((d) => {
        const row = document.createElement('tr');
        row.dataset.name = d.metadata.name;
        const replicas = Number(d.spec?.replicas ?? 1);
        const cells = [d.metadata.name, `${Number(d.status?.readyReplicas ?? 0)}/${replicas}`, String(replicas)];
        for (const text of cells) row.append(Object.assign(document.createElement('td'), { textContent: text }));
        const actions = document.createElement('td');
        for (const [label, delta] of [['Scale up', 1], ['Scale down', -1]] as const) {
          const button = Object.assign(document.createElement('button'), { textContent: label });
          button.addEventListener('click', () => void scale(client, d.metadata.name, replicas + delta));
          actions.append(button);
        }
        row.append(actions);
        return row;
      }),
  );
}

function renderPods(items: KubeObject[]): void {
  $('#pods tbody').replaceChildren(
    ...items
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
      .map((p) => {
        const row = document.createElement('tr');
        row.dataset.name = p.metadata.name;
        row.append(Object.assign(document.createElement('td'), { textContent: p.metadata.name }), Object.assign(document.createElement('td'), { textContent: String(p.status?.phase ?? '') }));
        return row;
      }),
  );
}

/** Scales through the scale subresource with the resourceVersion read, as `kubectl scale --resource-version` does: a conflict is the user's to see. */
async function scale(client: KubeClient, name: string, replicas: number): Promise<void> {
  const path = `/apis/apps/v1/namespaces/${namespace}/deployments/${name}/scale`;
  try {
    await client.request('PATCH', path, { spec: { replicas: Math.max(0, replicas) } }, 'application/merge-patch+json');
    showError($('#error'), undefined);
  } catch (error) {
    showError($('#error'), error instanceof ApiError ? error : new ApiError(0, String(error)));
  }
}

async function main(): Promise<void> {
  $('#namespace').textContent = namespace;
  const client = await connect();
  $('#status').textContent = `connected to ${client.server}`;
  const abort = new AbortController();
  void client.listWatch(`/apis/apps/v1/namespaces/${namespace}/deployments`, (items) => renderDeployments(client, items), (error) => showError($('#error'), error), abort.signal);
  void client.listWatch(
    `/api/v1/namespaces/${namespace}/pods`,
    (items) => {
      showError($('#pods-error'), undefined);
      renderPods(items);
    },
    (error) => showError($('#pods-error'), error),
    abort.signal,
  );
}

main().catch((error: unknown) => {
  $('#status').textContent = `cannot connect: ${error instanceof Error ? error.message : String(error)}`;
});
