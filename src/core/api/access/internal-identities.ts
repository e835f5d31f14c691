// Who the server's own clients are. In a kubeadm cluster
// kube-controller-manager runs with --use-service-account-credentials, so each
// controller acts as its service account in kube-system, and its shared
// informers as system:kube-controller-manager; kube-apiserver's own loopback
// client is system:apiserver in system:masters. KubeTab's controllers say who
// they are in their User-Agent (see src/core/controllers/index.ts) and reach
// the server through handleAs, never over HTTP.

import { GROUP, USER, serviceAccountGroups, serviceAccountUsername, type UserInfo } from '../../auth';

/** kube-apiserver's privileged loopback identity. */
export const APISERVER_USER: UserInfo = Object.freeze({ username: USER.apiserver, groups: Object.freeze([GROUP.authenticated, GROUP.masters]) as readonly string[] });

export const CONTROLLER_MANAGER_USER: UserInfo = Object.freeze({ username: USER.kubeControllerManager, groups: Object.freeze([GROUP.authenticated]) as readonly string[] });

/** kube-scheduler's identity in a kubeadm cluster (its scheduler.conf), authorized by system:kube-scheduler and system:volume-scheduler. */
export const SCHEDULER_USER: UserInfo = Object.freeze({ username: USER.kubeScheduler, groups: Object.freeze([GROUP.authenticated]) as readonly string[] });

/** A kubelet of KubeTab's simulated nodes says which node it is at the end of its User-Agent. */
const NODE_SUFFIX = /\/system:node:([a-z0-9]([-.a-z0-9]*[a-z0-9])?)$/;

const SA_SUFFIX = /\/system:serviceaccount:([a-z0-9]([-a-z0-9]*[a-z0-9])?):([a-z0-9]([-.a-z0-9]*[a-z0-9])?)$/;

const cache = new Map<string, UserInfo>();

/**
 * The identity of a client of the server's own, from its User-Agent, as
 * handleAs takes it. A controller acting as its service account reads (get,
 * list, watch) as system:kube-controller-manager when its own role does not
 * allow the read: in kube-controller-manager its informers and listers use
 * the manager's credentials, only its writes the service account's.
 */
export function internalClientFor(userAgent: string | null): { user: UserInfo; userAgent?: string; readsAs?: UserInfo } {
  const user = identityForUserAgent(userAgent);
  const client = userAgent ? { user, userAgent } : { user };
  return user.username.startsWith('system:serviceaccount:') ? { ...client, readsAs: CONTROLLER_MANAGER_USER } : client;
}

/** The identity kube uses for a client of the server's own, from its User-Agent. */
export function identityForUserAgent(userAgent: string | null): UserInfo {
  const ua = userAgent ?? '';
  const hit = cache.get(ua);
  if (hit) return hit;
  let user: UserInfo;
  const sa = SA_SUFFIX.exec(ua);
  const node = ua.startsWith('kubelet/') ? NODE_SUFFIX.exec(ua) : null;
  if (node) {
    // A kubelet's client certificate on kubeadm: CN=system:node:<name>, O=system:nodes.
    user = { username: `system:node:${node[1]}`, groups: [GROUP.nodes, GROUP.authenticated] };
  } else if (sa) {
    const [, namespace, , name] = sa as unknown as [string, string, string, string];
    user = { username: serviceAccountUsername(namespace, name), groups: [...serviceAccountGroups(namespace), GROUP.authenticated] };
  } else if (ua.startsWith('kube-controller-manager/')) {
    user = CONTROLLER_MANAGER_USER;
  } else if (ua.startsWith('kube-scheduler/')) {
    user = SCHEDULER_USER;
  } else {
    user = APISERVER_USER;
  }
  if (cache.size < 256) cache.set(ua, user);
  return user;
}
