// Rule (issue 3): the objects a fresh 1.32 server has — the `kubernetes` Service in
// `default`, the default FlowSchemas and PriorityLevelConfigurations, the system
// PriorityClasses, the apiserver identity Lease — as far as the server serves their kinds.

import { afterEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { FLOW_SCHEMAS, PRIORITY_LEVEL_CONFIGURATIONS } from './flowcontrol-defaults';
import { apiServerIdentity } from './apiserver-lease';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

async function served(group: string, version: string, resource: string): Promise<boolean> {
  const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const res = await bed.ts.get(path);
  return res.status === 200 && res.body.resources.some((r: { name: string }) => r.name === resource);
}

describe('kube-apiserver bootstrap objects', () => {
  it('creates the kubernetes Service with ClusterIP 10.96.0.1 and port 443 → 6443', async () => {
    bed = await startControllerTestBed({ enabled: ['kube-apiserver-bootstrap'] });
    const svc = await bed.ts.get('/api/v1/namespaces/default/services/kubernetes');
    expect(svc.status).toBe(200);
    expect(svc.body.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.body.spec.clusterIP).toBe('10.96.0.1');
    expect(svc.body.spec.type).toBe('ClusterIP');
    expect(svc.body.spec.ports).toEqual([{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }]);

    const ep = await bed.ts.get('/api/v1/namespaces/default/endpoints/kubernetes');
    expect(ep.status).toBe(200);
    expect(ep.body.subsets).toEqual([{ addresses: [{ ip: '172.18.0.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
  });

  it('puts the kubernetes Service back when it is deleted', async () => {
    bed = await startControllerTestBed({ enabled: ['kube-apiserver-bootstrap'] });
    expect((await bed.ts.del('/api/v1/namespaces/default/services/kubernetes')).status).toBe(200);
    await bed.idle();
    const svc = await bed.ts.get('/api/v1/namespaces/default/services/kubernetes');
    expect(svc.status).toBe(200);
    expect(svc.body.spec.clusterIP).toBe('10.96.0.1');
  });

  it('creates the PriorityClasses, APF objects, EndpointSlice and identity Lease where served, and says what it skipped', async () => {
    bed = await startControllerTestBed({ enabled: ['kube-apiserver-bootstrap'] });
    const checks: [string, string, string, string][] = [
      ['scheduling.k8s.io', 'v1', 'priorityclasses', '/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical'],
      ['discovery.k8s.io', 'v1', 'endpointslices', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes'],
    ];
    for (const [group, version, resource, path] of checks) {
      if (await served(group, version, resource)) expect((await bed.ts.get(path)).status).toBe(200);
      else expect(bed.logs.some((l) => l.includes(`${group}/${version}`) && l.includes('is not served'))).toBe(true);
    }
    if (await served('scheduling.k8s.io', 'v1', 'priorityclasses')) {
      const pc = await bed.ts.get('/apis/scheduling.k8s.io/v1/priorityclasses/system-cluster-critical');
      expect(pc.body.value).toBe(2000000000);
      expect((await bed.ts.get('/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical')).body.value).toBe(2000001000);
    }
    if (await served('flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas')) {
      const list = await bed.ts.get('/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas');
      expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort()).toEqual(FLOW_SCHEMAS.map((f) => f.metadata!.name!).sort());
      const pls = await bed.ts.get('/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations');
      expect(pls.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort()).toEqual(PRIORITY_LEVEL_CONFIGURATIONS.map((f) => f.metadata!.name!).sort());
    } else {
      expect(bed.logs.some((l) => l.includes('skipping FlowSchema exempt'))).toBe(true);
    }
    const leaseName = await apiServerIdentity('kubetab');
    expect(leaseName).toMatch(/^apiserver-[a-z2-7]{26}$/);
    if (await served('coordination.k8s.io', 'v1', 'leases')) {
      const lease = await bed.ts.get(`/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${leaseName}`);
      expect(lease.status).toBe(200);
      expect(lease.body.metadata.labels['apiserver.kubernetes.io/identity']).toBe('kube-apiserver');
      expect(lease.body.spec.holderIdentity.startsWith(`${leaseName}_`)).toBe(true);
      expect(lease.body.spec.leaseDurationSeconds).toBe(3600);
    } else {
      expect(bed.logs).toContain('kube-apiserver-bootstrap: skipping the kube-apiserver identity Lease: coordination.k8s.io/v1 leases are not served');
    }
  });
});
