// Pod IPs from the node's podCIDR, as kind's CNI (host-local IPAM) hands
// them out: the first address is the bridge's gateway, pods get the next
// free ones in turn, each pod keeps its address for its life, and a
// restarted kubelet takes back the addresses its pods' status shows.

export class IpAllocator {
  private readonly base: number;
  private readonly size: number;
  private readonly byPod = new Map<string, string>();
  private readonly used = new Set<number>();
  private cursor = 2;

  constructor(cidr: string) {
    const [addr, bits] = cidr.split('/') as [string, string];
    const prefix = Number(bits) || 24;
    this.size = 2 ** (32 - Math.min(Math.max(prefix, 8), 30));
    this.base = toNumber(addr) & ~(this.size - 1);
  }

  /** The gateway (first address): where the kubelet's probes come from. */
  get gateway(): string {
    return toAddress(this.base + 1);
  }

  /** The pod's IP: the one it has, or the next free one (undefined when the range is full). */
  allocate(podUID: string): string | undefined {
    const have = this.byPod.get(podUID);
    if (have) return have;
    for (let i = 0; i < this.size - 3; i++) {
      const offset = ((this.cursor - 2 + i) % (this.size - 3)) + 2;
      if (this.used.has(offset)) continue;
      this.used.add(offset);
      this.cursor = offset + 1;
      const ip = toAddress(this.base + offset);
      this.byPod.set(podUID, ip);
      return ip;
    }
    return undefined;
  }

  /** Takes back an address a pod already has (after a restart); false when it is not in the range or taken. */
  reserve(podUID: string, ip: string): boolean {
    const n = toNumber(ip);
    const offset = n - this.base;
    if (offset < 2 || offset >= this.size - 1) return false;
    if (this.byPod.get(podUID) === ip) return true;
    if (this.used.has(offset)) return false;
    this.used.add(offset);
    this.byPod.set(podUID, ip);
    return true;
  }

  release(podUID: string): void {
    const ip = this.byPod.get(podUID);
    if (!ip) return;
    this.byPod.delete(podUID);
    this.used.delete(toNumber(ip) - this.base);
  }
}

function toNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + (Number(part) & 255), 0);
}

function toAddress(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}
