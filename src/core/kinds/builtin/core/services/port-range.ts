// The node port range (--service-node-port-range, 30000-32767 by default) as
// kube-apiserver's port allocator sees it. As for IPs, the bottom of the
// range (min(max(16, size/32), 128) ports) is the static band that dynamic
// allocation uses last.

export interface PortRange {
  /** As kube prints it in messages ("30000-32767"). */
  readonly text: string;
  readonly base: number;
  readonly size: number;
  readonly staticBand: number;
  contains(port: number): boolean;
}

function staticBandFor(size: number): number {
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}

/** Parses "30000-32767" (or a single port, a range of one) as kube's net.ParsePortRange does. */
export function parsePortRange(text: string): PortRange {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  const low = m ? Number(m[1]) : NaN;
  const high = m ? Number(m[2] ?? m[1]) : NaN;
  if (!m || low > high || high > 65535) throw new Error(`invalid service node port range ${JSON.stringify(text)}`);
  const size = high - low + 1;
  return {
    text: `${low}-${high}`,
    base: low,
    size,
    staticBand: staticBandFor(size),
    contains: (port) => Number.isInteger(port) && port >= low && port <= high,
  };
}
