// The other core/v1 kinds against a 1.32 server: services (defaults,
// families, validation, table, allocator hook), nodes, endpoints, events,
// volumes, quotas, limit ranges, replication controllers, pod templates,
// service accounts.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../types';
import { create, stored, testContext, update } from '../common/testing';
import { endpointsResource } from './endpoints';
import { eventsResource } from './events';
import { limitRangesResource, resourceQuotasResource } from './limit-ranges-and-quotas';
import { serviceAccountsResource, componentStatusesResource } from './misc';
import { nodesResource } from './nodes';
import { servicesResource } from './services';
import { SERVICE_ALLOCATOR, type ServiceAllocator } from './services/allocator';
import { podTemplatesResource, replicationControllersResource } from './templates-and-controllers';
import { persistentVolumeClaimsResource, persistentVolumesResource } from './volumes';

const NOW = Date.parse('2024-12-11T12:00:00Z');
const svc = (spec: Record<string, unknown>, name = 'web') => ({ metadata: { name, namespace: 'default' }, spec });

describe('services', () => {
  it('defaults type, session affinity, protocol, targetPort, traffic policy and the single-stack families', async () => {
    const { obj, errors } = await create(servicesResource, svc({ selector: { app: 'web' }, ports: [{ port: 80 }] }));
    expect(errors).toEqual([]);
    expect(obj.spec).toEqual({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
    expect(obj.status).toEqual({ loadBalancer: {} });
  });

  it('gives headless selectorless services RequireDualStack with both families (as 1.32 does on single-stack clusters)', async () => {
    const headless = await create(servicesResource, svc({ clusterIP: 'None', ports: [{ port: 80 }] }));
    expect(headless.errors).toEqual([]);
    expect([(headless.obj.spec as any).ipFamilyPolicy, (headless.obj.spec as any).ipFamilies, (headless.obj.spec as any).clusterIPs]).toEqual(['RequireDualStack', ['IPv4', 'IPv6'], ['None']]);
    const withSelector = await create(servicesResource, svc({ clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 80 }] }));
    expect([(withSelector.obj.spec as any).ipFamilyPolicy, (withSelector.obj.spec as any).ipFamilies]).toEqual(['SingleStack', ['IPv4']]);
  });

  it('defaults NodePort externals and LoadBalancer node ports', async () => {
    const np = await create(servicesResource, svc({ type: 'NodePort', ports: [{ port: 80 }] }));
    expect((np.obj.spec as any).externalTrafficPolicy).toBe('Cluster');
    const lb = await create(servicesResource, svc({ type: 'LoadBalancer', ports: [{ port: 80 }] }));
    expect((lb.obj.spec as any).allocateLoadBalancerNodePorts).toBe(true);
  });

  it('requires a DNS-1035 name', async () => {
    const { errors } = await create(servicesResource, svc({ ports: [{ port: 80 }] }, '1web'));
    expect(errors).toEqual([
      `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ]);
  });

  it('requires ports, names when there are several, and forbids nodePort on ClusterIP', async () => {
    expect((await create(servicesResource, svc({}))).errors).toEqual(['spec.ports: Required value']);
    expect((await create(servicesResource, svc({ ports: [{ port: 80 }, { port: 443 }] }))).errors).toEqual(['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']);
    expect((await create(servicesResource, svc({ ports: [{ port: 80, nodePort: 30080 }] }))).errors).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    expect((await create(servicesResource, svc({ type: 'Magic', ports: [{ port: 80 }] }))).errors).toEqual([
      'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
  });

  it('keeps an allocated clusterIP on an update that omits it, and refuses a changed one', async () => {
    const old = await stored(servicesResource, svc({ ports: [{ port: 80 }], clusterIP: '10.96.0.10' }));
    const omitted = JSON.parse(JSON.stringify(old));
    delete omitted.spec.clusterIP;
    delete omitted.spec.clusterIPs;
    const kept = await update(servicesResource, omitted, old);
    expect(kept.errors).toEqual([]);
    expect((kept.obj.spec as any).clusterIPs).toEqual(['10.96.0.10']);
    const changed = JSON.parse(JSON.stringify(old));
    changed.spec.clusterIP = '10.96.0.11';
    changed.spec.clusterIPs = ['10.96.0.11'];
    expect((await update(servicesResource, changed, old)).errors).toEqual(['spec.clusterIPs[0]: Invalid value: []string{"10.96.0.11"}: may not change once set']);
  });

  it('calls the allocator hook on create and release on delete', async () => {
    const calls: string[] = [];
    const allocator: ServiceAllocator = {
      async allocate(s) {
        calls.push('allocate');
        (s.spec as any).clusterIP = '10.96.0.42';
        (s.spec as any).clusterIPs = ['10.96.0.42'];
      },
      async allocateOnUpdate() {
        calls.push('update');
      },
      async release() {
        calls.push('release');
      },
    };
    const ctx = { ...testContext(), services: { [SERVICE_ALLOCATOR]: allocator } };
    const obj: KubeObject = svc({ ports: [{ port: 80 }] });
    servicesResource.strategy.default!(obj, ctx);
    await servicesResource.strategy.prepareForCreate!(obj, ctx);
    await servicesResource.strategy.afterDelete!(obj, ctx);
    expect(calls).toEqual(['allocate', 'release']);
    expect((obj.spec as any).clusterIP).toBe('10.96.0.42');
  });

  it('prints TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE SELECTOR', async () => {
    const table = servicesResource.versions[0]!.table!;
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector']);
    const np = await stored(servicesResource, svc({ type: 'NodePort', clusterIP: '10.96.0.5', selector: { app: 'web' }, ports: [{ port: 80, nodePort: 30080 }] }));
    expect(table.cells(np, NOW + 3000)).toEqual(['web', 'NodePort', '10.96.0.5', '<none>', '80:30080/TCP', '3s', 'app=web']);
    const lb = await stored(servicesResource, svc({ type: 'LoadBalancer', ports: [{ port: 443, name: 'https' }] }));
    expect(table.cells(lb, NOW)[3]).toBe('<pending>');
    const ext = await stored(servicesResource, svc({ type: 'ExternalName', externalName: 'example.com' }));
    expect(table.cells(ext, NOW).slice(1, 5)).toEqual(['ExternalName', '<none>', 'example.com', '<none>']);
    expect(servicesResource.fieldSelectors!['spec.type']!(ext)).toBe('ExternalName');
  });
});

describe('nodes', () => {
  it('keeps the status a node registers with and prints STATUS/ROLES/VERSION', async () => {
    const node = await stored(nodesResource, {
      metadata: { name: 'n1', labels: { 'node-role.kubernetes.io/control-plane': '' } },
      spec: { unschedulable: true },
      status: {
        capacity: { cpu: '4' },
        conditions: [{ type: 'Ready', status: 'True' }],
        nodeInfo: { kubeletVersion: 'v1.32.0', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://1.7' },
        addresses: [{ type: 'InternalIP', address: '172.18.0.2' }],
      },
    });
    expect((node.status as any).allocatable).toEqual({ cpu: '4' });
    expect(nodesResource.versions[0]!.table!.cells(node, NOW + 60_000)).toEqual([
      'n1',
      'Ready,SchedulingDisabled',
      'control-plane',
      '60s',
      'v1.32.0',
      '172.18.0.2',
      '<none>',
      'Debian',
      '6.1',
      'containerd://1.7',
    ]);
    expect(nodesResource.fieldSelectors!['spec.unschedulable']!(node)).toBe('true');
  });

  it('prints Unknown, <none> roles and <unknown> node info for a bare node', async () => {
    const node = await stored(nodesResource, { metadata: { name: 'n2' } });
    expect(nodesResource.versions[0]!.table!.cells(node, NOW)).toEqual(['n2', 'Unknown', '<none>', '0s', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });
});

describe('endpoints', () => {
  it('defaults TCP, may be created by PUT, and prints at most three endpoints', async () => {
    const ep = await stored(endpointsResource, {
      metadata: { name: 'web', namespace: 'd' },
      subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: '10.0.0.3' }, { ip: '10.0.0.4' }], ports: [{ port: 80 }] }],
    });
    expect((ep.subsets as any)[0].ports[0].protocol).toBe('TCP');
    expect(endpointsResource.strategy.allowCreateOnUpdate).toBe(true);
    expect(endpointsResource.versions[0]!.table!.cells(ep, NOW)).toEqual(['web', '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 1 more...', '0s']);
    const empty = await stored(endpointsResource, { metadata: { name: 'e', namespace: 'd' } });
    expect(endpointsResource.versions[0]!.table!.cells(empty, NOW)[1]).toBe('<none>');
  });
});

describe('events', () => {
  it('checks the involved object namespace (legacy v1 validation)', async () => {
    const { errors } = await create(eventsResource, { metadata: { name: 'e', namespace: 'a' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'b' } });
    expect(errors).toEqual(['involvedObject.namespace: Invalid value: "b": does not match event.namespace']);
  });

  it('prints LAST SEEN first and NAME last', async () => {
    const ev = {
      metadata: { name: 'p.1', namespace: 'd', creationTimestamp: '2024-12-11T12:00:00Z' },
      involvedObject: { kind: 'Pod', name: 'p', fieldPath: 'spec.containers{c}' },
      reason: 'Pulled',
      message: ' Pulled image  ',
      type: 'Normal',
      source: { component: 'kubelet', host: 'n1' },
      firstTimestamp: '2024-12-11T11:50:00Z',
      lastTimestamp: '2024-12-11T11:59:00Z',
      count: 3,
    };
    const table = eventsResource.versions[0]!.table!;
    expect(table.columns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Last Seen:0', 'Type:0', 'Reason:0', 'Object:0', 'Subobject:1', 'Source:1', 'Message:0', 'First Seen:1', 'Count:1', 'Name:1',
    ]);
    expect(table.cells(ev, NOW)).toEqual(['60s', 'Normal', 'Pulled', 'pod/p', 'spec.containers{c}', 'kubelet, n1', 'Pulled image', '10m', 3, 'p.1']);
  });
});

describe('persistent volumes and claims', () => {
  it('defaults Retain and Filesystem, starts Pending, prints the PV columns', async () => {
    const pv = await stored(persistentVolumesResource, {
      metadata: { name: 'pv1' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], hostPath: { path: '/data' }, storageClassName: 'standard' },
    });
    expect((pv.spec as any).persistentVolumeReclaimPolicy).toBe('Retain');
    expect((pv.spec as any).volumeMode).toBe('Filesystem');
    expect((pv.status as any).phase).toBe('Pending');
    expect(persistentVolumesResource.versions[0]!.table!.cells(pv, NOW)).toEqual(['pv1', '1Gi', 'RWO,RWX', 'Retain', 'Pending', '', 'standard', '<unset>', '', '0s', 'Filesystem']);
  });

  it('requires access modes and a storage request on a claim; the spec is immutable', async () => {
    const bad = await create(persistentVolumeClaimsResource, { metadata: { name: 'c', namespace: 'd' }, spec: {} });
    expect(bad.errors).toEqual(['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value']);
    const old = await stored(persistentVolumeClaimsResource, { metadata: { name: 'c', namespace: 'd' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    expect((old.status as any).phase).toBe('Pending');
    const next = JSON.parse(JSON.stringify(old));
    next.spec.accessModes = ['ReadWriteMany'];
    const { errors } = await update(persistentVolumeClaimsResource, next, old);
    expect(errors[0]).toMatch(/^spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims/);
    expect(persistentVolumeClaimsResource.versions[0]!.table!.cells(old, NOW)).toEqual(['c', 'Pending', '', '', '', '', '<unset>', '0s', 'Filesystem']);
  });
});

describe('quotas and limit ranges', () => {
  it('derives container defaults from max/default/min', async () => {
    const lr = await stored(limitRangesResource, { metadata: { name: 'l', namespace: 'd' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }] } });
    expect((lr.spec as any).limits[0]).toEqual({ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '64Mi' } });
  });

  it('prints REQUEST and LIMIT from the status', async () => {
    const q = await stored(resourceQuotasResource, { metadata: { name: 'q', namespace: 'd' }, spec: { hard: { pods: '10' } } });
    expect(q.status).toEqual({});
    q.status = { hard: { pods: '10', 'limits.cpu': '4', 'requests.cpu': '2' }, used: { pods: '1', 'requests.cpu': '500m' } };
    expect(resourceQuotasResource.versions[0]!.table!.cells(q, NOW)).toEqual(['q', '0s', 'pods: 1/10, requests.cpu: 500m/2', 'limits.cpu: 0/4']);
  });
});

describe('replication controllers and pod templates', () => {
  it('defaults the selector and labels from the template and one replica', async () => {
    const rc = await stored(replicationControllersResource, {
      metadata: { name: 'rc', namespace: 'd' },
      spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    expect((rc.spec as any).selector).toEqual({ app: 'x' });
    expect(rc.metadata?.labels).toEqual({ app: 'x' });
    expect((rc.spec as any).replicas).toBe(1);
    expect(rc.metadata?.generation).toBe(1);
    expect(replicationControllersResource.versions[0]!.table!.cells(rc, NOW)).toEqual(['rc', 1, 0, 0, '0s', 'c', 'nginx', 'app=x']);
  });

  it('prints a pod template\'s CONTAINERS IMAGES POD LABELS', async () => {
    const pt = await stored(podTemplatesResource, { metadata: { name: 't', namespace: 'd' }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } });
    expect(podTemplatesResource.versions[0]!.table!.cells(pt, NOW)).toEqual(['t', 'c', 'busybox', 'a=b']);
  });
});

describe('service accounts and component statuses', () => {
  it('prints SECRETS and returns the deleted object', async () => {
    const sa = await stored(serviceAccountsResource, { metadata: { name: 'default', namespace: 'd' } });
    expect(serviceAccountsResource.versions[0]!.table!.cells(sa, NOW)).toEqual(['default', 0, '0s']);
    expect(serviceAccountsResource.returnDeletedObject).toBe(true);
  });

  it('marks componentstatuses deprecated since 1.19', () => {
    expect(componentStatusesResource.versions[0]!.deprecationWarning).toBe('v1 ComponentStatus is deprecated in v1.19+');
    expect(componentStatusesResource.versions[0]!.table!.cells({ metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] }, NOW)).toEqual(['etcd-0', 'Healthy', 'ok', '']);
  });
});
