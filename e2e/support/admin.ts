// The administrator's credentials, as a test client needs them: the app's
// cluster is secure by default (Node,RBAC; requests without credentials are
// system:anonymous), so the helpers that call the API from the page send the
// token of the configuration's administrator, which the service worker keeps.

import type { Page } from '@playwright/test';
import { askWorker } from './worker';

/** `{ authorization: 'Bearer …' }` for the administrator, or {} when the cluster is open (no access control). */
export async function adminHeaders(page: Page): Promise<Record<string, string>> {
  const state = await askWorker<{ administrator?: { token: string } }>(page, { type: 'kubetab:configuration:get' });
  const token = state?.administrator?.token;
  return token ? { authorization: `Bearer ${token}` } : {};
}
