// The UI's administrator, as kubeadm's admin.conf is kubectl's: a static token
// user in system:masters named by the cluster's configuration, which the
// service worker keeps (src/platform/browser/cluster-config.ts). The page asks
// the worker for it at start and after every configuration change, so the
// administrator identity always carries the token the server accepts.

import type { ConfigurationState } from '../../../platform/browser/messages';
import { askWorker } from '../../../platform/browser/worker-client';
import { useAppStore } from '../store';
import { ADMIN_IDENTITY, type Identity } from './identity';

/** Puts the configuration's administrator (or none, when the cluster is open) into the identity slice. */
export function applyAdministrator(state: Pick<ConfigurationState, 'administrator'>): void {
  useAppStore.getState().setAdministrator(state.administrator);
}

/** Asks the worker for the configuration in use and applies its administrator. */
export async function syncAdministrator(): Promise<ConfigurationState> {
  const state = await askWorker('kubetab:configuration:get', {});
  applyAdministrator(state);
  return state;
}

/** The administrator identity, for the views that read what only an operator may (the audit log, RBAC objects). */
export function administratorIdentity(): Identity {
  return useAppStore.getState().identities.find((i) => i.id === ADMIN_IDENTITY.id) ?? ADMIN_IDENTITY;
}
