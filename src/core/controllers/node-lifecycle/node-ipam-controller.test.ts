// The node-ipam controller's CIDRs, with kind's defaults and with
// kube-controller-manager's --node-cidr-mask-size (a /22 for nodes that run
// more than 253 pods, as the cluster benchmark's nodes do).

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { nodeIpamOptionsFromFlags } from './node-ipam-controller';

let bed: ControllerTestBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function podCIDRsOf(b: ControllerTestBed, names: string[]): Promise<unknown[]> {
  for (const name of names) expect((await b.ts.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } })).status).toBe(201);
  await b.idle();
  return Promise.all(names.map(async (name) => ((await b.ts.get(`/api/v1/nodes/${name}`)).body as { spec: { podCIDRs?: string[] } }).spec.podCIDRs));
}

describe('node-ipam controller', () => {
  it('gives each node the next /24 of 10.244.0.0/16, as kind', async () => {
    bed = await startControllerTestBed({ enabled: ['nodeipam'] });
    expect(await podCIDRsOf(bed, ['a', 'b'])).toEqual([['10.244.0.0/24'], ['10.244.1.0/24']]);
  });

  it('uses --node-cidr-mask-size and --cluster-cidr', async () => {
    bed = await startControllerTestBed({ enabled: ['nodeipam'], nodeIpam: nodeIpamOptionsFromFlags({ 'cluster-cidr': '10.200.0.0/16', 'node-cidr-mask-size': '22' }) });
    expect(await podCIDRsOf(bed, ['a', 'b'])).toEqual([['10.200.0.0/22'], ['10.200.4.0/22']]);
  });

  it('refuses bad flags at start-up', () => {
    expect(nodeIpamOptionsFromFlags({})).toEqual({});
    expect(() => nodeIpamOptionsFromFlags({ 'node-cidr-mask-size': 'x' })).toThrow('invalid argument "x" for "--node-cidr-mask-size" flag');
    expect(() => nodeIpamOptionsFromFlags({ 'node-cidr-mask-size': '16' })).toThrow('must be longer than the --cluster-cidr mask size 16');
    expect(() => nodeIpamOptionsFromFlags({ 'cluster-cidr': '10.0.0.0/8', 'node-cidr-mask-size': '28' })).toThrow('more than 16 bits');
    expect(() => nodeIpamOptionsFromFlags({ 'cluster-cidr': 'nope' })).toThrow('invalid argument "nope" for "--cluster-cidr" flag');
  });
});
