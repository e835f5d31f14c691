// The kubeconfig `npm run serve` writes so that kubectl talks to this server
// with no further set-up: one cluster, one user, one context, made current.

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  readonly server: string;
  readonly clusterName?: string;
  readonly userName?: string;
  readonly namespace?: string;
  /** Bearer token (with access control; over plain http client-go does not send credentials). */
  readonly token?: string;
  /** PEM of the server's CA, for the https mode. */
  readonly certificateAuthorityData?: string;
}

export function kubeconfigText(options: KubeconfigOptions): string {
  const cluster = options.clusterName ?? 'kubetab';
  const user = options.userName ?? 'kubetab-admin';
  const clusterEntry: Record<string, string> = { server: options.server };
  if (options.certificateAuthorityData) {
    clusterEntry['certificate-authority-data'] = Buffer.from(options.certificateAuthorityData).toString('base64');
  }
  const userEntry: Record<string, string> = {};
  if (options.token) userEntry.token = options.token;
  const context: Record<string, string> = { cluster, user };
  if (options.namespace) context.namespace = options.namespace;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: clusterEntry }],
    users: [{ name: user, user: userEntry }],
    contexts: [{ name: cluster, context }],
    'current-context': cluster,
    preferences: {},
  });
}

export async function writeKubeconfig(path: string, options: KubeconfigOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // 0600 as kubectl writes its own: a kubeconfig may carry credentials.
  await writeFile(path, kubeconfigText(options), { mode: 0o600 });
}
