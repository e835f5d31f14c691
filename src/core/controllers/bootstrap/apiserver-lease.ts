// kube-apiserver's identity Lease (APIServerIdentity, on by default in 1.32):
// kube-system/apiserver-<hash>, the hash being the first 16 bytes of the
// SHA-256 of the host name in lower-case unpadded base32; the holder is the
// lease name, '_' and a UUID of this run; renewed every 10 seconds, valid
// for an hour.

import { rfc3339Micro } from '../../clock';
import type { KubeObject } from '../../kinds/types';

export const LEASE_DURATION_SECONDS = 3600;
export const LEASE_RENEW_INTERVAL_MS = 10_000;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32NoPadding(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export async function apiServerIdentity(hostname: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(hostname)));
  return `apiserver-${base32NoPadding(hash.slice(0, 16)).toLowerCase()}`;
}

export function identityLease(name: string, hostname: string, holderIdentity: string, nowMs: number): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace: 'kube-system',
      labels: { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': hostname },
    },
    spec: { holderIdentity, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: rfc3339Micro(nowMs) },
  };
}
