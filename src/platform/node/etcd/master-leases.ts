// kube-apiserver's endpoint reconciler records in etcd: each API server's
// advertise address at <prefix>/masterleases/<ip>, a v1 Endpoints (protobuf,
// as kube stores it) put under an etcd lease of the reconciler's TTL, so
// that a server that stops renewing (killed) drops out of the `kubernetes`
// endpoints when its lease expires. Several KubeTab servers, and in
// principle kube-apiservers, on one etcd see each other's records.

import type { MasterLeases } from '../../../core/controllers/bootstrap/master-leases';
import { decodeKubernetesProtobuf, encodeKubernetesProtobuf } from '../../../core/protobuf';
import type { EtcdClient } from './etcd-client';

/** etcd's end of the range of keys starting with `prefix`. */
function rangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  end[end.length - 1]! += 1;
  return end;
}

export class EtcdMasterLeases implements MasterLeases {
  private readonly prefix: string;

  /** `root`: --etcd-prefix with its trailing slash ("/registry/"). */
  constructor(
    private readonly client: EtcdClient,
    root: string,
  ) {
    this.prefix = `${root}masterleases/`;
  }

  async update(ip: string, ttlSeconds: number): Promise<void> {
    const lease = await this.client.leaseGrant(ttlSeconds);
    const endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: ip, creationTimestamp: null }, subsets: [{ addresses: [{ ip }] }] };
    const value = Buffer.from(encodeKubernetesProtobuf(endpoints as Record<string, unknown>, 'v1', 'Endpoints'));
    await this.client.txn({ compare: [], success: [{ requestPut: { key: Buffer.from(this.prefix + ip), value, lease } }], failure: [] });
  }

  async list(): Promise<string[]> {
    const key = Buffer.from(this.prefix);
    const response = await this.client.range({ key, rangeEnd: rangeEnd(key) });
    const ips: string[] = [];
    for (const kv of response.kvs) {
      // The address is the key's last segment; the value says it again (kube reads it from there).
      try {
        const decoded = decodeKubernetesProtobuf(kv.value).object as { subsets?: { addresses?: { ip?: string }[] }[] };
        const ip = decoded.subsets?.[0]?.addresses?.[0]?.ip;
        if (ip) ips.push(ip);
      } catch {
        ips.push(kv.key.toString().slice(this.prefix.length));
      }
    }
    return ips;
  }

  async remove(ip: string): Promise<void> {
    await this.client.txn({ compare: [], success: [{ requestDeleteRange: { key: Buffer.from(this.prefix + ip) } }], failure: [] });
  }
}
