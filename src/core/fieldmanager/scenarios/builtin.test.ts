// The real 1.32 schemas of built-in kinds (src/core/schema/generated): the
// managed fields kube-apiserver writes for everyday kubectl commands.

import { describe, expect, it } from 'vitest';
import { builtinSchemaRef, getBuiltinSchemaTable } from '../../schema/builtin-table';
import type { FieldManagerSchema } from '../index';
import { scenario } from './dsl';

const table = getBuiltinSchemaTable();
const schemaOf = (group: string, version: string, kind: string): FieldManagerSchema => ({ root: builtinSchemaRef(group, version, kind), table });

const deployment = () =>
  scenario({ schema: schemaOf('apps', 'v1', 'Deployment'), apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx', namespace: 'default' });

/** `kubectl create deployment nginx --image=nginx` as stored after defaulting. */
const createdDeployment = `
metadata: {name: nginx, namespace: default, labels: {app: nginx}, creationTimestamp: null}
spec:
  replicas: 1
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {creationTimestamp: null, labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: nginx
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
        imagePullPolicy: Always
      restartPolicy: Always
      terminationGracePeriodSeconds: 30
      dnsPolicy: ClusterFirst
      securityContext: {}
      schedulerName: default-scheduler
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxUnavailable: 25%, maxSurge: 25%}
  revisionHistoryLimit: 10
  progressDeadlineSeconds: 600
status: {}
`;

describe('Deployment', () => {
  it('kubectl create: the well-known kubectl-create entry, byte for byte', () => {
    const s = deployment().update('kubectl-create', createdDeployment);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe(
      '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}',
    );
    expect(s.managers()).toEqual(['kubectl-create/Update']);
  });

  it('kube-controller-manager’s status update is a separate entry on the status subresource', () => {
    const s = deployment().update('kubectl-create', createdDeployment);
    const withStatus = structuredClone(s.live!);
    withStatus.status = { observedGeneration: 1, replicas: 1, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }] };
    s.update('kube-controller-manager', withStatus, { subresource: 'status' });
    s.expectManagedFields(`
      - manager: kubectl-create
        operation: Update
        apiVersion: apps/v1
        fieldsV1: ${JSON.stringify(s.managedFields()[0]!.fieldsV1)}
      - manager: kube-controller-manager
        operation: Update
        apiVersion: apps/v1
        subresource: status
        fieldsV1: {"f:status": {"f:conditions": {".": {}, "k:{\\"type\\":\\"Available\\"}": {".": {}, "f:reason": {}, "f:status": {}, "f:type": {}}}, "f:observedGeneration": {}, "f:replicas": {}}}
    `);
  });

  const manifest = `
spec:
  replicas: 3
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports: [{containerPort: 80}]
`;

  it('kubectl apply --server-side: the kubectl Apply entry owns what the manifest sets', () => {
    const s = deployment().apply('kubectl', manifest);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe(
      '{"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}',
    );
  });

  it('a controller that scales takes replicas; re-applying the manifest conflicts unless forced', () => {
    const s = deployment().apply('kubectl', manifest);
    const scaled = structuredClone(s.live!);
    (scaled.spec as Record<string, unknown>).replicas = 5;
    s.update('kube-controller-manager', scaled);
    expect(s.conflict('kubectl', manifest)).toBe('Apply failed with 1 conflict: conflict with "kube-controller-manager" using apps/v1: .spec.replicas');
    s.apply('kubectl', manifest, { force: true });
    expect(s.field('spec.replicas')).toBe(3);
    expect(s.managers()).toEqual(['kubectl/Apply']);
  });

  it('an image change by kubectl set image conflicts with the applier, at the container’s image', () => {
    const s = deployment().apply('kubectl', manifest);
    const changed = structuredClone(s.live!) as { spec: { template: { spec: { containers: { image: string }[] } } } };
    changed.spec.template.spec.containers[0]!.image = 'nginx:1.28';
    s.update('kubectl-set', changed as never);
    expect(s.conflict('kubectl', manifest)).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-set" using apps/v1: .spec.template.spec.containers[name="nginx"].image',
    );
  });
});

describe('Pod and Service', () => {
  it('container ports are keyed by containerPort and protocol, protocol defaulting to TCP', () => {
    const s = scenario({ schema: schemaOf('', 'v1', 'Pod'), apiVersion: 'v1', kind: 'Pod' });
    s.apply('a', `spec: {containers: [{name: c, image: i, ports: [{containerPort: 53, protocol: UDP}, {containerPort: 53}]}]}`);
    const ports = (s.managedFields()[0]!.fieldsV1 as never as Record<string, Record<string, Record<string, Record<string, Record<string, unknown>>>>>)['f:spec']!['f:containers']![
      'k:{"name":"c"}'
    ]!['f:ports']!;
    expect(Object.keys(ports)).toEqual(['k:{"containerPort":53,"protocol":"TCP"}', 'k:{"containerPort":53,"protocol":"UDP"}']);
  });

  it('Service ports are keyed by port and protocol', () => {
    const s = scenario({ schema: schemaOf('', 'v1', 'Service'), apiVersion: 'v1', kind: 'Service' });
    s.apply('a', `spec: {ports: [{port: 80, targetPort: 8080}], selector: {app: web}}`);
    expect(JSON.stringify(s.managedFields()[0]!.fieldsV1)).toBe(
      '{"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:targetPort":{}}},"f:selector":{}}}',
    );
  });

  it('a ConfigMap applied by two managers', () => {
    const s = scenario({ schema: schemaOf('', 'v1', 'ConfigMap'), apiVersion: 'v1', kind: 'ConfigMap' });
    s.apply('a', `data: {x: "1"}`).apply('b', `data: {y: "2"}`);
    s.expectField('data', `{x: "1", y: "2"}`);
    expect(s.conflict('b', `data: {x: "3"}`)).toBe('Apply failed with 1 conflict: conflict with "a": .data.x');
  });

  it('quantities accept numbers and strings (resource.Quantity is untyped)', () => {
    const s = scenario({ schema: schemaOf('', 'v1', 'Pod'), apiVersion: 'v1', kind: 'Pod' });
    s.apply('a', `spec: {containers: [{name: c, image: i, resources: {limits: {cpu: 1, memory: 64Mi}}}]}`);
    expect(s.field('spec.containers')).toEqual([{ name: 'c', image: 'i', resources: { limits: { cpu: 1, memory: '64Mi' } } }]);
  });

  it('an unknown field of a built-in kind is rejected as kube rejects it', () => {
    const s = scenario({ schema: schemaOf('', 'v1', 'Service'), apiVersion: 'v1', kind: 'Service', name: 'admin-api', namespace: 'general' });
    expect(s.fail('a', `spec: {topologyKeys: [x]}`).message).toBe(
      'failed to create typed patch object (general/admin-api; /v1, Kind=Service): .spec.topologyKeys: field not declared in schema',
    );
  });
});
