// The kubeconfig `npm run serve` writes so that kubectl talks to this server
// with no further set-up: one cluster, the administrator's user and context
// (made current), and a user and context per credential-plugin identity.

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
  /** Users whose credentials come from a credential plugin (client.authentication.k8s.io/v1), each with a context of the same name. */
  readonly execUsers?: readonly ExecUser[];
  /** Users with a client certificate (client-certificate-data, client-key-data), each with a context of the same name. */
  readonly certificateUsers?: readonly CertificateUser[];
}

export interface CertificateUser {
  readonly name: string;
  /** PEM */
  readonly cert: string;
  /** PEM */
  readonly key: string;
}

export interface ExecUser {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
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
  const execUsers = options.execUsers ?? [];
  const certificateUsers = options.certificateUsers ?? [];
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: clusterEntry }],
    users: [
      { name: user, user: userEntry },
      ...execUsers.map((u) => ({
        name: u.name,
        user: {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: u.command,
            args: [...u.args],
            // The plugin reads the server address and CA from KUBERNETES_EXEC_INFO.
            provideClusterInfo: true,
            interactiveMode: 'Never',
          },
        },
      })),
      ...certificateUsers.map((u) => ({ name: u.name, user: { 'client-certificate-data': b64(u.cert), 'client-key-data': b64(u.key) } })),
    ],
    contexts: [
      { name: cluster, context },
      ...[...execUsers, ...certificateUsers].map((u) => ({ name: u.name, context: { cluster, user: u.name, ...(options.namespace ? { namespace: options.namespace } : {}) } })),
    ],
    'current-context': cluster,
    preferences: {},
  });
}

export async function writeKubeconfig(path: string, options: KubeconfigOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // 0600 as kubectl writes its own: a kubeconfig may carry credentials.
  await writeFile(path, kubeconfigText(options), { mode: 0o600 });
}
