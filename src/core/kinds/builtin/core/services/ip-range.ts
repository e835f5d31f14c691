// The service cluster IP range (--service-cluster-ip-range, 10.96.0.0/12 by
// default) as kube-apiserver's bitmap allocator sees it: the network and
// broadcast addresses are never handed out, addresses are numbered from the
// first usable one, and the lowest part of the range (the static band,
// min(max(16, size/16), 256) addresses) is kept for clients that ask for a
// specific IP: dynamic allocation takes it only when the rest is full.
// IPv4 only: a default 1.32 cluster is single-stack IPv4.

export interface IPRange {
  /** The CIDR as kube prints it in messages ("10.96.0.0/12"). */
  readonly cidr: string;
  /** The network address (what a dry-run allocation reports). */
  readonly network: string;
  /** Number of usable addresses. */
  readonly size: number;
  /** Size of the static band at the bottom of the range. */
  readonly staticBand: number;
  /** Offset of an address inside the usable range, or undefined when outside it. */
  offsetOf(ip: string): number | undefined;
  /** The address at an offset of the usable range. */
  ipAt(offset: number): string;
}

const IPV4_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The numeric value of a dotted IPv4 address, or undefined when it is not one. */
export function parseIPv4(text: string): number | undefined {
  const m = IPV4_RE.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

export function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** kube's calculateRangeOffset: never less than 16 or more than 256, size/16 in between. */
function staticBandFor(cidrSize: number): number {
  if (cidrSize <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(cidrSize / 16)), 256);
}

export function parseIPRange(cidr: string): IPRange {
  const [addr, bitsText] = cidr.split('/');
  const base = parseIPv4(addr ?? '');
  const bits = Number(bitsText);
  if (base === undefined || !/^\d+$/.test(bitsText ?? '') || bits < 0 || bits > 32) {
    throw new Error(`invalid service cluster IP range ${JSON.stringify(cidr)} (KubeTab serves IPv4 ranges only)`);
  }
  const cidrSize = 2 ** (32 - bits);
  const network = bits === 0 ? 0 : Math.floor(base / cidrSize) * cidrSize;
  // Neither the network nor the broadcast address is usable.
  const size = Math.max(0, cidrSize - 2);
  const first = network + 1;
  return {
    cidr: `${formatIPv4(network)}/${bits}`,
    network: formatIPv4(network),
    size,
    staticBand: staticBandFor(cidrSize),
    offsetOf(ip) {
      const value = parseIPv4(ip);
      if (value === undefined) return undefined;
      const offset = value - first;
      return offset >= 0 && offset < size ? offset : undefined;
    },
    ipAt: (offset) => formatIPv4(first + offset),
  };
}
