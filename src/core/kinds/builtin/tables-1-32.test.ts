// Printer cells that differed from kube-apiserver 1.32's printers
// (pkg/printers/internalversion/printers.go at 1.32): each case names the
// printer rule it checks.

import { describe, expect, it } from 'vitest';
import { validatingAdmissionPoliciesResource, validatingAdmissionPolicyBindingsResource } from './admissionregistration';
import { deploymentsResource } from './apps/deployments';
import { horizontalPodAutoscalersResource } from './autoscaling';
import { jobsResource } from './batch/jobs';
import { endpointsResource } from './core/endpoints';
import { componentStatusesResource } from './core/misc';
import { nodesResource } from './core/nodes';
import { POD_TABLE } from './core/pods/table';
import { servicesResource } from './core/services';
import { ingressesResource } from './networking';
import { clusterRoleBindingsResource, roleBindingsResource } from './rbac';

const NOW = Date.parse('2024-12-11T12:00:00Z');
const meta = { name: 'x', namespace: 'd', creationTimestamp: '2024-12-11T11:00:00Z' };
type Def = { versions: readonly { table?: { columns: readonly { name: string }[]; cells(o: any, n: number): unknown[] } }[] };
function cell(def: Def, obj: unknown, column: string): unknown {
  const t = def.versions[0]!.table!;
  const i = t.columns.findIndex((c) => c.name === column);
  expect(i, `column ${column}`).toBeGreaterThanOrEqual(0);
  return t.cells(obj, NOW)[i];
}

describe('jobs STATUS', () => {
  it('reads Running for a SuccessCriteriaMet job: 1.32 has no such case (added in 1.34)', () => {
    const job = { metadata: meta, spec: { template: { spec: { containers: [] } } }, status: { conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }] } };
    expect(cell(jobsResource, job, 'Status')).toBe('Running');
  });
  it('Complete wins over a later Failed, Terminating over Suspended', () => {
    const both = { metadata: meta, spec: {}, status: { conditions: [{ type: 'Failed', status: 'True' }, { type: 'Complete', status: 'True' }] } };
    expect(cell(jobsResource, both, 'Status')).toBe('Complete');
    const deleting = { metadata: { ...meta, deletionTimestamp: '2024-12-11T11:59:00Z' }, spec: {}, status: { conditions: [{ type: 'Suspended', status: 'True' }] } };
    expect(cell(jobsResource, deleting, 'Status')).toBe('Terminating');
  });
});

describe('load-balancer addresses (services EXTERNAL-IP, ingresses ADDRESS)', () => {
  const lb = { loadBalancer: { ingress: [{ ip: '10.0.0.9' }, { hostname: 'b.example' }, { ip: '10.0.0.10' }, { ip: '10.0.0.9' }] } };
  it('are a sets.String: sorted in byte order, duplicates once', () => {
    const svc = { metadata: meta, spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.5'], ports: [{ port: 80, protocol: 'TCP', nodePort: 30080 }] }, status: lb };
    expect(cell(servicesResource, svc, 'External-IP')).toBe('10.0.0.10,10.0.0.9,b.example');
    expect(cell(servicesResource, svc, 'Port(s)')).toBe('80:30080/TCP');
    expect(cell(ingressesResource, { metadata: meta, spec: {}, status: lb }, 'Address')).toBe('10.0.0.10,10.0.0.9,b.example');
  });
  it('a LoadBalancer service without addresses is <pending>', () => {
    const svc = { metadata: meta, spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.5'], ports: [] } };
    expect(cell(servicesResource, svc, 'External-IP')).toBe('<pending>');
    expect(cell(servicesResource, svc, 'Port(s)')).toBe('<none>');
  });
});

describe('endpoints ENDPOINTS', () => {
  it('is empty (not <none>) when the subsets hold only not-ready addresses', () => {
    const ep = { metadata: meta, subsets: [{ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] }] };
    expect(cell(endpointsResource, ep, 'Endpoints')).toBe('');
    expect(cell(endpointsResource, { metadata: meta }, 'Endpoints')).toBe('<none>');
  });
});

describe('rolebindings SERVICEACCOUNTS', () => {
  it('prints namespace/name (rbac.SubjectsStrings)', () => {
    const b = { metadata: meta, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', namespace: 'd', name: 'a' }, { kind: 'ServiceAccount', namespace: 'e', name: 'b' }] };
    expect(cell(roleBindingsResource, b, 'ServiceAccounts')).toBe('d/a, e/b');
    expect(cell(clusterRoleBindingsResource, b, 'ServiceAccounts')).toBe('d/a, e/b');
  });
});

describe('horizontalpodautoscalers TARGETS (formatHPAMetrics)', () => {
  const spec = (metrics: unknown[]) => ({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, metrics });
  const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };
  const mem = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } };
  const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
  it('names the resource and shows <unknown> before the controller reports', () => {
    expect(cell(horizontalPodAutoscalersResource, { metadata: meta, spec: spec([cpu]) }, 'Targets')).toBe('cpu: <unknown>/80%');
  });
  it('reads the status metric at the same index', () => {
    const status = { currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12 } } }, { type: 'Resource', resource: { name: 'memory', current: { averageValue: '100Mi' } } }] };
    expect(cell(horizontalPodAutoscalersResource, { metadata: meta, spec: spec([cpu, mem]), status }, 'Targets')).toBe('cpu: 12%/80%, memory: 100Mi/500Mi');
  });
  it('shows two entries, then + N more...', () => {
    expect(cell(horizontalPodAutoscalersResource, { metadata: meta, spec: spec([cpu, mem, pods]) }, 'Targets')).toBe('cpu: <unknown>/80%, memory: <unknown>/500Mi + 1 more...');
  });
  it('a ContainerResource metric is named by its resource only', () => {
    const c = { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } };
    expect(cell(horizontalPodAutoscalersResource, { metadata: meta, spec: spec([c]) }, 'Targets')).toBe('cpu: <unknown>/60%');
  });
});

describe('validating admission policies PARAMKIND / PARAMREF', () => {
  it('a binding param without namespace reads */name; a selector prints its generated String()', () => {
    const byName = { metadata: meta, spec: { policyName: 'p', paramRef: { name: 'cfg' } } };
    expect(cell(validatingAdmissionPolicyBindingsResource, byName, 'ParamRef')).toBe('*/cfg');
    const bySelector = { metadata: meta, spec: { policyName: 'p', paramRef: { selector: { matchLabels: { b: '2', a: '1' } } } } };
    expect(cell(validatingAdmissionPolicyBindingsResource, bySelector, 'ParamRef')).toBe('&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{},}');
    expect(cell(validatingAdmissionPolicyBindingsResource, { metadata: meta, spec: { policyName: 'p' } }, 'ParamRef')).toBe('<unset>');
  });
  it('paramKind prints apiVersion/kind whenever it is set', () => {
    const p = { metadata: meta, spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] } };
    expect(cell(validatingAdmissionPoliciesResource, p, 'ParamKind')).toBe('v1/ConfigMap');
    expect(cell(validatingAdmissionPoliciesResource, { metadata: meta, spec: {} }, 'ParamKind')).toBe('<unset>');
  });
});

describe('other cells', () => {
  it('deployments SELECTOR is the selector string (LabelSelectorAsSelector), <invalid> for a bad operator', () => {
    const d = (selector: unknown) => ({ metadata: meta, spec: { replicas: 1, selector, template: { spec: { containers: [{ name: 'a', image: 'nginx' }] } } } });
    expect(cell(deploymentsResource, d({ matchLabels: { app: 'web' } }), 'Selector')).toBe('app=web');
    expect(cell(deploymentsResource, d({ matchExpressions: [{ key: 'a', operator: 'Bad' }] }), 'Selector')).toBe('<invalid>');
  });
  it('nodes STATUS follows the last Ready condition (conditions are keyed by type)', () => {
    const n = { metadata: meta, status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'Ready', status: 'True' }] } };
    expect(cell(nodesResource, n, 'Status')).toBe('Ready');
  });
  it('componentstatuses: the first Healthy condition decides', () => {
    const cs = { metadata: meta, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }, { type: 'Healthy', status: 'False', message: 'no' }] };
    expect(cell(componentStatusesResource, cs, 'Status')).toBe('Healthy');
  });
});

describe('pods READY / STATUS / RESTARTS (printPod)', () => {
  const base = { metadata: meta, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
  const row = (pod: Record<string, unknown>) => POD_TABLE.cells(pod as never, NOW).slice(0, 4);
  const status = (s: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ ...base, ...extra, status: s });

  it('waiting reasons win: ContainerCreating, CrashLoopBackOff with the last restart age', () => {
    expect(row(status({ phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] }))).toEqual(['x', '0/1', 'ContainerCreating', '0']);
    const crash = { name: 'app', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, finishedAt: '2024-12-11T11:55:00Z' } } };
    expect(row(status({ phase: 'Running', containerStatuses: [crash] }))).toEqual(['x', '0/1', 'CrashLoopBackOff', '4 (5m ago)']);
  });

  it('Completed, and back to Running/NotReady while another container still runs', () => {
    const done = { name: 'a', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    const running = { name: 'b', ready: true, restartCount: 0, state: { running: {} } };
    const two = { ...base, spec: { containers: [{ name: 'a' }, { name: 'b' }] } };
    expect(row(status({ phase: 'Succeeded', containerStatuses: [done] }))).toEqual(['x', '0/1', 'Completed', '0']);
    expect(row({ ...two, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [done, running] } })).toEqual(['x', '1/2', 'Running', '0']);
    expect(row({ ...two, status: { phase: 'Running', containerStatuses: [done, running] } })).toEqual(['x', '1/2', 'NotReady', '0']);
  });

  it('Init:0/1 while an init container runs; Init:Error when it failed', () => {
    const withInit = { ...base, spec: { ...base.spec, initContainers: [{ name: 'init', image: 'busybox' }] } };
    expect(row({ ...withInit, status: { phase: 'Pending', initContainerStatuses: [{ name: 'init', state: { running: {} } }] } })).toEqual(['x', '0/1', 'Init:0/1', '0']);
    expect(row({ ...withInit, status: { phase: 'Pending', initContainerStatuses: [{ name: 'init', state: { terminated: { exitCode: 1, reason: 'Error' } } }] } })).toEqual(['x', '0/1', 'Init:Error', '0']);
  });

  it('Terminating once deleted unless the phase is terminal; SchedulingGated from the condition', () => {
    const deleting = { ...base, metadata: { ...meta, deletionTimestamp: '2024-12-11T11:59:00Z' } };
    expect(row({ ...deleting, status: { phase: 'Running' } })[2]).toBe('Terminating');
    expect(row({ ...deleting, status: { phase: 'Succeeded' } })[2]).toBe('Succeeded');
    expect(row(status({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }))[2]).toBe('SchedulingGated');
  });
});
