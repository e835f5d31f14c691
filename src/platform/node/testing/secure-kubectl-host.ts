// The Node server in its secure default set-up (what `npm run serve` starts:
// Node,RBAC, an administrator token, https with a self-signed certificate) and
// a kubeconfig for kubectl with that administrator, in a temporary directory,
// for the kubectl suites.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../core/clock';
import { writeKubeconfig } from '../kubeconfig';
import { startNodeHost, type NodeHost } from '../node-host';
import { secureDefaults } from '../secure-defaults';
import { tlsFromFlags } from '../tls-flags';

export interface SecureKubectlHost {
  readonly host: NodeHost;
  /** The temporary directory (kubectl's HOME and cache, the PKI). */
  readonly dir: string;
  readonly kubeconfig: string;
  close(): Promise<void>;
}

export interface SecureKubectlHostOptions {
  /** The server's clock (a test keeps it to move simulated time forward). */
  readonly clock?: Clock;
}

export async function startSecureKubectlHost(prefix: string, options: SecureKubectlHostOptions = {}): Promise<SecureKubectlHost> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const kubeconfig = join(dir, 'kubeconfig');
  const secure = await secureDefaults({}, { dataDir: dir, bindAddress: '127.0.0.1' });
  const tls = tlsFromFlags(secure.flags);
  const host = await startNodeHost({ port: 0, flags: secure.flags, tls, ...(secure.clusterCA ? { clusterCA: secure.clusterCA } : {}), ...(options.clock ? { clock: options.clock } : {}) });
  await host.apiServer.idle();
  await writeKubeconfig(kubeconfig, {
    server: host.url,
    certificateAuthorityData: tls!.cert.toString(),
    token: secure.adminToken!,
    userName: 'kubernetes-admin',
  });
  return {
    host,
    dir,
    kubeconfig,
    async close() {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
