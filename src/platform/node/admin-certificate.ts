// kubeadm's administrator, as kubeadm 1.29+ writes admin.conf: a client
// certificate (CN=kubernetes-admin, O=kubeadm:cluster-admins) issued by the
// cluster CA named by --client-ca-file, and a ClusterRoleBinding
// `kubeadm:cluster-admins` giving that group cluster-admin (so the
// administrator is subject to RBAC, unlike system:masters, which kubeadm now
// keeps for super-admin.conf). The CLI's secure default offers it beside the
// token administrator (decision 0181).

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiServer } from '../../core/server';
import { createCertificate, type KeyPair } from './certificates';

export const CLUSTER_ADMINS_GROUP = 'kubeadm:cluster-admins';
export const ADMIN_CERT_USER = 'kubernetes-admin';

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

async function ensurePair(certPath: string, keyPath: string, make: () => Promise<KeyPair>): Promise<KeyPair> {
  if (existsSync(certPath) && existsSync(keyPath)) return { cert: await readFile(certPath, 'utf8'), key: await readFile(keyPath, 'utf8') };
  const made = await make();
  await writeFile(keyPath, made.key, { mode: 0o600 });
  await writeFile(certPath, made.cert);
  return made;
}

/** The cluster CA (ca.crt, ca.key in `dir`), made once: kubeadm's "kubernetes" CA. */
export function ensureClientCA(dir: string, now = Date.now()): Promise<KeyPair & { readonly certPath: string }> {
  const certPath = join(dir, 'ca.crt');
  return ensurePair(certPath, join(dir, 'ca.key'), () =>
    createCertificate({ subject: { commonName: 'kubernetes' }, now, validForMs: TEN_YEARS_MS, ca: true }),
  ).then((pair) => ({ ...pair, certPath }));
}

/** admin.conf's client certificate (admin.crt, admin.key in `dir`), issued by the CA. */
export function ensureAdminCertificate(dir: string, ca: KeyPair, now = Date.now()): Promise<KeyPair> {
  return ensurePair(join(dir, 'admin.crt'), join(dir, 'admin.key'), () =>
    createCertificate({
      subject: { commonName: ADMIN_CERT_USER, organizations: [CLUSTER_ADMINS_GROUP] },
      now,
      validForMs: ONE_YEAR_MS,
      usages: ['client'],
      issuer: ca,
    }),
  );
}

/** kubeadm's `kubeadm:cluster-admins` binding, created if missing (by a system:masters identity, as kubeadm uses super-admin.conf). */
export async function ensureClusterAdminsBinding(apiServer: ApiServer, origin: string): Promise<void> {
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: CLUSTER_ADMINS_GROUP },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: CLUSTER_ADMINS_GROUP }],
  };
  const response = await apiServer.handleAs(
    new Request(`${origin}/apis/rbac.authorization.k8s.io/v1/clusterrolebindings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'kubeadm' },
      body: JSON.stringify(binding),
    }),
    { username: 'kubernetes-super-admin', groups: ['system:masters', 'system:authenticated'] },
  );
  const text = await response.text();
  if (response.status !== 201 && response.status !== 409) throw new Error(`creating ClusterRoleBinding ${CLUSTER_ADMINS_GROUP}: ${response.status} ${text}`);
}
