// Test support for the access-control tests: a secured in-memory cluster
// (Node,RBAC unless told otherwise) with a few static-token users, and
// shorthands for requests made as them.

import { manualClock, type Clock } from '../../clock';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

/** --token-auth-file users: token, name, uid[, groups]. */
export const USERS = {
  alice: 'alice-token',
  bob: 'bob-token',
  carol: 'carol-token',
  node1: 'node1-token',
} as const;

export const TOKEN_FILE = [
  'alice-token,alice,alice-uid',
  'bob-token,bob,bob-uid,"developers,qa"',
  'carol-token,carol,carol-uid',
  'node1-token,system:node:node1,node1-uid,system:nodes',
].join('\n');

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** No credentials at all (the harness otherwise sends the administrator's token). */
export const ANONYMOUS: Record<string, string> = { Authorization: '' };

export async function secureCluster(
  flags: Record<string, string> = {},
  options: { controllers?: readonly string[]; files?: Record<string, string>; clock?: Clock } = {},
): Promise<TestServer> {
  // --authorization-config excludes --authorization-mode.
  const mode: Record<string, string> = flags['authorization-config'] === undefined ? { 'authorization-mode': 'Node,RBAC' } : {};
  const ts = await startTestServer(
    { ...mode, 'token-auth-file': '/etc/kubetab/tokens.csv', ...flags },
    options.clock ?? manualClock(),
    options.controllers ?? [],
    { files: { '/etc/kubetab/tokens.csv': TOKEN_FILE, ...(options.files ?? {}) } },
  );
  await ts.server.idle();
  return ts;
}

/** Objects of rbac.authorization.k8s.io/v1, as a client writes them. */
export const rbac = {
  role: (namespace: string, name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace }, rules }),
  clusterRole: (name: string, rules: unknown[], extra: Record<string, unknown> = {}) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules, ...extra }),
  roleBinding: (namespace: string, name: string, roleRef: { kind: string; name: string }, subjects: unknown[]) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
    subjects,
  }),
  clusterRoleBinding: (name: string, roleName: string, subjects: unknown[]) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects,
  }),
  user: (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name }),
  group: (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name }),
  serviceAccount: (namespace: string, name: string) => ({ kind: 'ServiceAccount', namespace, name }),
};

export const RBAC_API = '/apis/rbac.authorization.k8s.io/v1';
