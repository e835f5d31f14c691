// The administrator's credentials, as a test client needs them: the app's
// cluster is secure by default (Node,RBAC; requests without credentials are
// system:anonymous), so the helpers that call the API from the page send the
// token of the configuration's administrator, which the service worker keeps.

import type { Page } from '@playwright/test';

/** `{ authorization: 'Bearer …' }` for the administrator, or {} when the cluster is open (no access control). */
export async function adminHeaders(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate(async () => {
    const worker = navigator.serviceWorker.controller ?? (await navigator.serviceWorker.ready).active;
    if (!worker) throw new Error('no KubeTab service worker');
    const channel = new MessageChannel();
    const reply = new Promise<{ ok: boolean; value?: { administrator?: { token: string } }; error?: string }>((resolve) => {
      channel.port1.onmessage = (event) => resolve(event.data);
    });
    worker.postMessage({ type: 'kubetab:configuration:get' }, [channel.port2]);
    const answer = await reply;
    if (!answer.ok) throw new Error(answer.error);
    return answer.value?.administrator?.token ?? null;
  });
  return token ? { authorization: `Bearer ${token}` } : {};
}
