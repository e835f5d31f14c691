// Defaulting, validation and tables of the first core kinds against what a
// 1.32 kube-apiserver does (issue "Every kind of a 1.32 server": Behaviour of the kinds).

import { describe, expect, it } from 'vitest';
import { create, stored, update } from '../common/testing';
import { configMapsResource } from './configmaps';
import { namespacesResource } from './namespaces';
import { podsResource } from './pods';
import { secretsResource } from './secrets';

const pods = podsResource();
const pod = (image: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default' },
  spec: { containers: [{ name: 'c', image, ...extra }] },
});

describe('pods', () => {
  it('defaults the pod and container fields as SetDefaults_Pod/PodSpec/Container do', async () => {
    const { obj, errors } = await create(pods, pod('nginx', { ports: [{ containerPort: 80 }] }));
    expect(errors).toEqual([]);
    const spec = obj.spec as Record<string, any>;
    expect(spec.restartPolicy).toBe('Always');
    expect(spec.dnsPolicy).toBe('ClusterFirst');
    expect(spec.schedulerName).toBe('default-scheduler');
    expect(spec.terminationGracePeriodSeconds).toBe(30);
    expect(spec.securityContext).toEqual({});
    expect(spec.enableServiceLinks).toBe(true);
    const c = spec.containers[0];
    expect(c.imagePullPolicy).toBe('Always');
    expect(c.terminationMessagePath).toBe('/dev/termination-log');
    expect(c.terminationMessagePolicy).toBe('File');
    expect(c.ports[0].protocol).toBe('TCP');
    expect(obj.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(obj.metadata?.generation).toBeUndefined();
  });

  it('pulls IfNotPresent for a tagged image and Always for :latest (imagePullPolicy by tag)', async () => {
    const tagged = await create(pods, pod('nginx:1.25'));
    expect((tagged.obj.spec as any).containers[0].imagePullPolicy).toBe('IfNotPresent');
    const latest = await create(pods, pod('registry.example.com:5000/team/app:latest'));
    expect((latest.obj.spec as any).containers[0].imagePullPolicy).toBe('Always');
    const digest = await create(pods, pod('nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'));
    expect((digest.obj.spec as any).containers[0].imagePullPolicy).toBe('IfNotPresent');
  });

  it('defaults requests from limits and computes the QoS class', async () => {
    const { obj } = await create(pods, pod('nginx:1', { resources: { limits: { cpu: '500m', memory: '128Mi' } } }));
    const c = (obj.spec as any).containers[0];
    expect(c.resources.requests).toEqual({ cpu: '500m', memory: '128Mi' });
    expect((obj.status as any).qosClass).toBe('Guaranteed');
  });

  it('rejects an invalid name with the RFC 1123 subdomain message', async () => {
    const p = pod('nginx');
    p.metadata.name = 'Web_1';
    const { errors } = await create(pods, p);
    expect(errors).toEqual([
      `metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });

  it('requires containers, container names and images', async () => {
    const none = await create(pods, { metadata: { name: 'x', namespace: 'default' }, spec: {} });
    expect(none.errors).toEqual(['spec.containers: Required value']);
    const noImage = await create(pods, { metadata: { name: 'x', namespace: 'default' }, spec: { containers: [{ name: 'a' }] } });
    expect(noImage.errors).toEqual(['spec.containers[0].image: Required value']);
  });

  it('refuses an unsupported restart policy and a bad port', async () => {
    const p = pod('nginx', { ports: [{ containerPort: 70000 }] }) as any;
    p.spec.restartPolicy = 'Sometimes';
    const { errors } = await create(pods, p);
    expect(errors).toEqual([
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ]);
  });

  it('allows an image change but refuses other spec changes on update', async () => {
    const old = await stored(pods, pod('nginx:1.25'));
    const newer = JSON.parse(JSON.stringify(old));
    newer.spec.containers[0].image = 'nginx:1.26';
    expect((await update(pods, newer, old)).errors).toEqual([]);
    const bad = JSON.parse(JSON.stringify(old));
    bad.spec.restartPolicy = 'Never';
    const { errors } = await update(pods, bad, old);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
  });

  it('keeps the status on a main-resource update and the spec on a status update', async () => {
    const old = await stored(pods, pod('nginx:1'));
    const withStatus = JSON.parse(JSON.stringify(old));
    withStatus.status = { phase: 'Running' };
    const main = await update(pods, withStatus, old);
    expect((main.obj.status as any).phase).toBe('Pending');
    const statusChange = JSON.parse(JSON.stringify(old));
    statusChange.status = { phase: 'Running', qosClass: 'BestEffort' };
    statusChange.spec.containers[0].image = 'other';
    const st = await update(pods, statusChange, old, 'status');
    expect((st.obj.status as any).phase).toBe('Running');
    expect((st.obj.spec as any).containers[0].image).toBe('nginx:1');
  });

  it('prints READY/STATUS/RESTARTS/AGE and the wide placeholders', async () => {
    const p = await stored(pods, pod('nginx'));
    const now = Date.parse('2024-12-11T12:05:00Z');
    const table = pods.versions[0]!.table!;
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    expect(table.cells(p, now)).toEqual(['web', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>']);
  });

  it('selects by the pod field selectors', () => {
    const sel = pods.fieldSelectors!;
    const p = { spec: { nodeName: 'n1' }, status: { phase: 'Running', podIPs: [{ ip: '10.0.0.1' }] } };
    expect(sel['spec.nodeName']!(p)).toBe('n1');
    expect(sel['status.podIP']!(p)).toBe('10.0.0.1');
    expect(sel['spec.hostNetwork']!(p)).toBe('false');
    expect(sel['spec.restartPolicy']!(p)).toBe('');
  });
});

describe('namespaces', () => {
  it('adds the kubernetes finalizer, phase Active and the metadata.name label', async () => {
    const { obj, errors } = await create(namespacesResource, { metadata: { name: 'team-a' } });
    expect(errors).toEqual([]);
    expect(obj.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(obj.status).toEqual({ phase: 'Active' });
    expect(obj.metadata?.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
  });

  it('requires a DNS-1123 label name', async () => {
    const { errors } = await create(namespacesResource, { metadata: { name: 'a.b' } });
    expect(errors).toEqual([
      `metadata.name: Invalid value: "a.b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
  });

  it('forbids metadata.namespace on a cluster-scoped kind', async () => {
    const { errors } = await create(namespacesResource, { metadata: { name: 'a', namespace: 'x' } });
    expect(errors).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
  });

  it('prints NAME STATUS AGE', async () => {
    const ns = await stored(namespacesResource, { metadata: { name: 'a' } });
    expect(namespacesResource.versions[0]!.table!.cells(ns, Date.parse('2024-12-13T12:00:00Z'))).toEqual(['a', 'Active', '2d']);
  });
});

describe('configmaps', () => {
  it('refuses a bad key and freezes data once immutable', async () => {
    const bad = await create(configMapsResource, { metadata: { name: 'c', namespace: 'd' }, data: { 'a b': 'x' } });
    expect(bad.errors).toEqual([
      `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]);
    const old = await stored(configMapsResource, { metadata: { name: 'c', namespace: 'd' }, data: { a: '1' }, immutable: true });
    const { errors } = await update(configMapsResource, { ...old, data: { a: '2' } }, old);
    expect(errors).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
  });

  it('counts data and binaryData in the DATA column', async () => {
    const cm = await stored(configMapsResource, { metadata: { name: 'c', namespace: 'd' }, data: { a: '1' }, binaryData: { b: 'AA==' } });
    expect(configMapsResource.versions[0]!.table!.cells(cm, Date.parse('2024-12-11T12:00:30Z'))).toEqual(['c', 2, '30s']);
  });
});

describe('secrets', () => {
  it('defaults type Opaque and folds stringData into data', async () => {
    const { obj } = await create(secretsResource, { metadata: { name: 's', namespace: 'd' }, stringData: { password: 'hunter2' } });
    expect(obj.type).toBe('Opaque');
    expect(obj.data).toEqual({ password: 'aHVudGVyMg==' });
    expect(obj.stringData).toBeUndefined();
  });

  it('requires the TLS keys and keeps the type immutable', async () => {
    const tls = await create(secretsResource, { metadata: { name: 's', namespace: 'd' }, type: 'kubernetes.io/tls' });
    expect(tls.errors).toEqual(['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
    const old = await stored(secretsResource, { metadata: { name: 's', namespace: 'd' } });
    const { errors } = await update(secretsResource, { ...old, type: 'other' }, old);
    expect(errors).toEqual(['type: Invalid value: "other": field is immutable']);
  });

  it('prints TYPE and DATA', async () => {
    const s = await stored(secretsResource, { metadata: { name: 's', namespace: 'd' }, data: { a: 'YQ==' } });
    expect(secretsResource.versions[0]!.table!.cells(s, Date.parse('2024-12-11T12:00:00Z'))).toEqual(['s', 'Opaque', 1, '0s']);
  });
});
