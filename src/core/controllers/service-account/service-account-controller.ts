// kube-controller-manager's service-account controller: every active
// namespace has a ServiceAccount named `default`; it is created when the
// namespace appears and again when someone deletes it.

import type { KubeObject } from '../../kinds/types';
import { isAlreadyExists, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { isNamespaceTerminating, namespacePhase } from '../runtime/namespaces';
import { WorkQueue } from '../runtime/work-queue';
import { NAMESPACES } from '../namespace/deps';

export const SERVICE_ACCOUNT_CONTROLLER = 'serviceaccount-controller';
export const SERVICE_ACCOUNTS: GroupVersionResource = { group: '', version: 'v1', resource: 'serviceaccounts' };
/** The service accounts kube-controller-manager ensures in every namespace. */
export const SERVICE_ACCOUNTS_TO_ENSURE = ['default'];

export function serviceAccountController(ctx: ControllerContext): Controller {
  const namespaces = ctx.informers.for(NAMESPACES);
  const accounts = ctx.informers.for(SERVICE_ACCOUNTS, true);
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(SERVICE_ACCOUNT_CONTROLLER, ctx.activity, async (name) => {
    const ns = namespaces.get('', name);
    // Only active namespaces get service accounts (kube skips the others).
    if (!ns || namespacePhase(ns) !== 'Active') return;
    const failures: string[] = [];
    for (const sa of SERVICE_ACCOUNTS_TO_ENSURE) {
      if (accounts.get(name, sa)) continue;
      try {
        await ctx.client.create(SERVICE_ACCOUNTS, name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: name } });
      } catch (err) {
        // Already there, the namespace gone, or terminating: nothing to retry.
        if (isAlreadyExists(err) || isNotFound(err) || isNamespaceTerminating(err)) continue;
        failures.push(err instanceof Error ? err.message : String(err));
      }
    }
    if (failures.length) throw new Error(failures.join('; '));
  }, ctx.log);

  const enqueueNamespace = (ns: KubeObject) => queue.add(ns.metadata?.name ?? '');
  const accountGone = (sa: KubeObject) => {
    if (SERVICE_ACCOUNTS_TO_ENSURE.includes(sa.metadata?.name ?? '')) queue.add(sa.metadata?.namespace ?? '');
  };

  return {
    name: SERVICE_ACCOUNT_CONTROLLER,
    start() {
      // Act on namespaces once the service-account cache is filled, as kube waits for its informers to sync.
      void accounts.synced.then(() => {
        unsubscribe.push(accounts.addHandler({ onDelete: accountGone }));
        unsubscribe.push(namespaces.addHandler({ onAdd: enqueueNamespace, onUpdate: (_old, ns) => enqueueNamespace(ns) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
