// kube-controller-manager's client builder under --use-service-account-
// credentials: before a controller runs, the manager (as itself,
// system:kube-controller-manager) gets the controller's ServiceAccount in
// kube-system and creates it when missing — `kubectl get sa -n kube-system`
// lists one account per running controller. The controller's own requests
// then carry the account's name (see ../index.ts and
// src/core/api/access/internal-identities.ts for who they are served as).

import { isAlreadyExists, isNotFound } from '../client/api-error';
import type { ApiClient } from '../client/api-client';
import type { GroupVersionResource } from '../client/resource-path';
import type { Activity } from './activity';
import { WorkQueue } from './work-queue';

/** The namespace of the controllers' accounts (kube-controller-manager's NamespaceSystem). */
export const CONTROLLER_ACCOUNTS_NAMESPACE = 'kube-system';
const SERVICE_ACCOUNTS: GroupVersionResource = { group: '', version: 'v1', resource: 'serviceaccounts' };

export function ensureServiceAccounts(client: ApiClient, activity: Activity, names: readonly string[], log: (message: string) => void): { stop(): Promise<void> } {
  const queue = new WorkQueue('controller-service-accounts', activity, async (name) => {
    try {
      await client.get(SERVICE_ACCOUNTS, CONTROLLER_ACCOUNTS_NAMESPACE, name);
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await client.create(SERVICE_ACCOUNTS, CONTROLLER_ACCOUNTS_NAMESPACE, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name, namespace: CONTROLLER_ACCOUNTS_NAMESPACE },
      });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }, log);
  for (const name of names) queue.add(name);
  return { stop: () => queue.stop() };
}
