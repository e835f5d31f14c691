// The arithmetic behind allocation (issue "Every kind of a 1.32 server":
// ClusterIP and NodePort allocation): kube's usable addresses of a CIDR, its
// static bands (min(max(16, size/16), 256) IPs, min(max(16, size/32), 128)
// ports) and its random scan that takes the static band last.

import { describe, expect, it } from 'vitest';
import { parseIPRange } from './ip-range';
import { parsePortRange } from './port-range';
import { randomFreeOffset } from './random-scan';

describe('ranges', () => {
  it('10.96.0.0/12: 1048574 usable addresses from 10.96.0.1, a static band of 256', () => {
    const r = parseIPRange('10.96.0.0/12');
    expect([r.cidr, r.network, r.size, r.staticBand]).toEqual(['10.96.0.0/12', '10.96.0.0', 1048574, 256]);
    expect(r.offsetOf('10.96.0.1')).toBe(0);
    expect(r.ipAt(256)).toBe('10.96.1.1');
    expect(r.offsetOf('10.111.255.254')).toBe(1048573);
    expect([r.offsetOf('10.96.0.0'), r.offsetOf('10.111.255.255'), r.offsetOf('10.112.0.1'), r.offsetOf('fd00::1')]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('small ranges: /28 has no static band, /24 has 16', () => {
    expect(parseIPRange('192.168.0.0/28').staticBand).toBe(0);
    expect(parseIPRange('192.168.0.7/24')).toMatchObject({ cidr: '192.168.0.0/24', size: 254, staticBand: 16 });
    expect(() => parseIPRange('10.96.0.0')).toThrow();
  });

  it('30000-32767: 2768 ports, a static band of 86', () => {
    const p = parsePortRange('30000-32767');
    expect([p.text, p.base, p.size, p.staticBand]).toEqual(['30000-32767', 30000, 2768, 86]);
    expect([p.contains(29999), p.contains(30000), p.contains(32767), p.contains(32768)]).toEqual([false, true, true, false]);
  });

  it('scans from a random offset above the static band, wrapping inside it, and uses the band last', () => {
    const taken = new Set<number>([10, 11]);
    const isTaken = (o: number) => taken.has(o);
    // size 12, band 4: upper offsets are 4..11; start at 6 → 10 (taken) → 11 (taken) → wraps to 4.
    expect(randomFreeOffset(12, 4, isTaken, () => 6)).toBe(4);
    for (let o = 4; o < 12; o++) taken.add(o);
    expect(randomFreeOffset(12, 4, isTaken, () => 2)).toBe(2);
    for (let o = 0; o < 4; o++) taken.add(o);
    expect(randomFreeOffset(12, 4, isTaken, () => 0)).toBeUndefined();
  });
});
