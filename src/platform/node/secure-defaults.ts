// The Node CLI's default set-up, like a kubeadm cluster's: authorization
// Node,RBAC (unless --authorization-mode or --authorization-config is given),
// an administrator in system:masters with a bearer token in a generated
// --token-auth-file, and https with a self-signed serving certificate
// (kubectl sends credentials only over TLS). Unless --client-ca-file is given,
// also a cluster CA as that file and kubeadm's admin.conf client certificate
// (CN=kubernetes-admin, O=kubeadm:cluster-admins; decision 0181). Under --data-dir the token and
// certificate are kept in <data-dir>/pki so that a kubeconfig written once
// keeps working across restarts; in memory mode they go to a temp directory.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminTokenOf } from './credential-plugin';
import { createServingCertificate } from './serving-certificate';
import { ensureAdminCertificate, ensureClientCA } from './admin-certificate';
import type { KeyPair } from './certificates';

/** The administrator kubeadm's admin kubeconfig names. */
export const ADMIN_USER = 'kubernetes-admin';

export interface SecureSetup {
  /** The flags with the secure defaults added. */
  readonly flags: Record<string, string>;
  /** The directory holding the generated token file and certificate. */
  readonly dir: string;
  readonly tokenFile: string;
  /** A token of a system:masters user of the token file (undefined when the given file has none). */
  readonly adminToken?: string;
  /** kubeadm's admin client certificate, issued by the generated --client-ca-file (absent when that flag was given). */
  readonly adminCertificate?: KeyPair;
  /** The generated cluster CA with its key (absent when --client-ca-file was given): kube-controller-manager's signing CA. */
  readonly clusterCA?: KeyPair;
}

async function ensureTokenFile(path: string): Promise<void> {
  if (existsSync(path)) return;
  const token = randomBytes(32).toString('base64url');
  await writeFile(path, `${token},${ADMIN_USER},${ADMIN_USER},system:masters\n`, { mode: 0o600 });
}

async function ensureCertificate(dir: string, hosts: readonly string[]): Promise<{ cert: string; key: string }> {
  const cert = join(dir, 'apiserver.crt');
  const key = join(dir, 'apiserver.key');
  if (!existsSync(cert) || !existsSync(key)) {
    const made = await createServingCertificate({ now: Date.now(), hosts });
    await writeFile(key, made.key, { mode: 0o600 });
    await writeFile(cert, made.cert);
  }
  return { cert, key };
}

export { adminTokenOf };

export async function secureDefaults(flags: Readonly<Record<string, string>>, options: { readonly dataDir?: string; readonly bindAddress: string }): Promise<SecureSetup> {
  const out: Record<string, string> = { ...flags };
  const dir = options.dataDir ? join(options.dataDir, 'pki') : await mkdtemp(join(tmpdir(), 'kubetab-pki-'));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (out['authorization-mode'] === undefined && out['authorization-config'] === undefined) out['authorization-mode'] = 'Node,RBAC';
  // kubeadm turns bootstrap tokens on (kubeadm join authenticates with them).
  if (out['enable-bootstrap-token-auth'] === undefined) out['enable-bootstrap-token-auth'] = 'true';
  if (out['token-auth-file'] === undefined) {
    out['token-auth-file'] = join(dir, 'tokens.csv');
    await ensureTokenFile(out['token-auth-file']);
  }
  if (out['tls-cert-file'] === undefined && out['tls-private-key-file'] === undefined) {
    const { cert, key } = await ensureCertificate(dir, options.bindAddress === '0.0.0.0' || options.bindAddress === '::' ? [] : [options.bindAddress]);
    out['tls-cert-file'] = cert;
    out['tls-private-key-file'] = key;
  }
  let adminCertificate: KeyPair | undefined;
  let clusterCA: KeyPair | undefined;
  if (out['client-ca-file'] === undefined) {
    const ca = await ensureClientCA(dir);
    out['client-ca-file'] = ca.certPath;
    clusterCA = { cert: ca.cert, key: ca.key };
    adminCertificate = await ensureAdminCertificate(dir, ca);
  }
  const adminToken = adminTokenOf(await readFile(out['token-auth-file'], 'utf8'));
  return { flags: out, dir, tokenFile: out['token-auth-file'], ...(adminToken ? { adminToken } : {}), ...(adminCertificate ? { adminCertificate } : {}), ...(clusterCA ? { clusterCA } : {}) };
}
