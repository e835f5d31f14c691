// kube-apiserver's etcd flags for the Node host: --etcd-servers (comma-separated
// URLs), --etcd-prefix (default /registry), --etcd-cafile, --etcd-certfile,
// --etcd-keyfile and --etcd-compaction-interval. Loaded only when
// --etcd-servers is given, so that a server without etcd never loads gRPC.

import { readFileSync } from 'node:fs';
import type { Clock } from '../../../core/clock';
import { builtinResources } from '../../../core/kinds/builtin';
import { parseGoDuration } from '../../shared/go-duration';
import { EtcdClient, type EtcdTls } from './etcd-client';
import { openEtcdStore, type EtcdStore } from './etcd-store';
import { KubeKeyLayout } from './kube-keys';

/** kube-apiserver's default --etcd-prefix. */
export const DEFAULT_ETCD_PREFIX = '/registry';
/** kube-apiserver's default --etcd-compaction-interval. */
const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60_000;

export function etcdServersOf(flags: Readonly<Record<string, string>>): string[] {
  return (flags['etcd-servers'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function tlsOf(flags: Readonly<Record<string, string>>): EtcdTls | undefined {
  const read = (flag: string) => {
    const path = flags[flag];
    if (!path) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`--${flag}: ${(err as Error).message}`);
    }
  };
  const ca = read('etcd-cafile');
  const cert = read('etcd-certfile');
  const key = read('etcd-keyfile');
  if ((cert === undefined) !== (key === undefined)) throw new Error('--etcd-certfile and --etcd-keyfile must be given together');
  return ca || cert ? { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) } : undefined;
}

/** --etcd-compaction-interval in ms; 0 turns compaction off, as in kube-apiserver. */
export function compactionIntervalOf(flags: Readonly<Record<string, string>>): number {
  const text = flags['etcd-compaction-interval'];
  if (text === undefined) return DEFAULT_COMPACTION_INTERVAL_MS;
  const ms = parseGoDuration(text);
  if (ms < 0) throw new Error(`invalid argument "${text}" for "--etcd-compaction-interval" flag`);
  return ms;
}

export async function openEtcdStoreFromFlags(flags: Readonly<Record<string, string>>, clock: Clock): Promise<EtcdStore> {
  const endpoints = etcdServersOf(flags);
  if (endpoints.length === 0) throw new Error('--etcd-servers must name at least one server');
  const tls = tlsOf(flags);
  const client = new EtcdClient({ endpoints, ...(tls ? { tls } : {}) });
  try {
    return await openEtcdStore({
      client,
      layout: new KubeKeyLayout(flags['etcd-prefix'] || DEFAULT_ETCD_PREFIX, builtinResources()),
      clock,
      compactionIntervalMs: compactionIntervalOf(flags),
    });
  } catch (err) {
    client.close();
    throw new Error(`cannot use etcd at ${endpoints.join(',')}: ${(err as Error).message}`);
  }
}
