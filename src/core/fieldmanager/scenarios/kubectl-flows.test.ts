// Everyday kubectl sequences on real 1.32 schemas, with the managed fields a
// learner would see on a real cluster.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { builtinSchemaRef, getBuiltinSchemaTable } from '../../schema/builtin-table';
import { scaleToParent, scaleToSubresource, updateManagedFields, type FieldManagerSchema } from '../index';
import { scenario } from './dsl';

const table = getBuiltinSchemaTable();
const schemaOf = (group: string, version: string, kind: string): FieldManagerSchema => ({ root: builtinSchemaRef(group, version, kind), table });
const deployment = () => scenario({ schema: schemaOf('apps', 'v1', 'Deployment'), apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' });

const manifest = `
metadata: {labels: {app: web}}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: "nginx:1.27"}]}
`;

describe('apply, edit, label, re-apply', () => {
  it('kubectl edit takes the field it changed; the next apply conflicts; --force-conflicts takes it back', () => {
    const s = deployment().apply('kubectl', manifest);
    const edited = structuredClone(s.live!) as KubeObject & { spec: { template: { spec: { containers: { image: string }[] } } } };
    edited.spec.template.spec.containers[0]!.image = 'nginx:1.28';
    s.update('kubectl-edit', edited);
    expect(s.managers()).toEqual(['kubectl/Apply', 'kubectl-edit/Update']);
    expect(s.conflict('kubectl', manifest)).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.template.spec.containers[name="web"].image',
    );
    s.apply('kubectl', manifest, { force: true });
    expect(s.managers()).toEqual(['kubectl/Apply']);
  });

  it('a label added by kubectl label survives re-applying a manifest without it', () => {
    const s = deployment().apply('kubectl', manifest);
    const labelled = structuredClone(s.live!);
    (labelled.metadata!.labels as Record<string, string>).team = 'blue';
    s.update('kubectl-label', labelled);
    s.apply('kubectl', manifest);
    s.expectField('metadata.labels', `{app: web, team: blue}`);
    expect(JSON.stringify(s.managedFields()[1]!.fieldsV1)).toBe('{"f:metadata":{"f:labels":{"f:team":{}}}}');
  });

  it('removing a label from the manifest removes it from the object', () => {
    const s = deployment().apply('kubectl', manifest.replace('{app: web}}', '{app: web, tier: fe}}'));
    s.expectField('metadata.labels', `{app: web, tier: fe}`);
    s.apply('kubectl', manifest);
    s.expectField('metadata.labels', `{app: web}`);
  });
});

describe('kubectl scale through /scale', () => {
  const mappings = { 'apps/v1': ['spec', 'replicas'] };
  const scaleSchema: FieldManagerSchema = { root: { ref: 'io.k8s.api.autoscaling.v1.Scale' }, table };

  it('moves replicas to the scale writer, recorded on the parent with subresource scale', () => {
    const s = deployment().apply('kubectl', manifest);
    const parent = s.live!;
    const scaleLive: KubeObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web', namespace: 'default', uid: parent.metadata!.uid, resourceVersion: parent.metadata!.resourceVersion, managedFields: scaleToSubresource(parent.metadata!.managedFields, mappings) },
      spec: { replicas: 3 },
      status: { replicas: 3, selector: 'app=web' },
    };
    expect(scaleLive.metadata!.managedFields!.map((e) => `${e.manager} ${e.apiVersion} ${JSON.stringify(e.fieldsV1)}`)).toEqual(['kubectl autoscaling/v1 {"f:spec":{"f:replicas":{}}}']);
    const scaled = updateManagedFields({
      live: scaleLive,
      updated: { ...structuredClone(scaleLive), spec: { replicas: 5 } },
      manager: 'kubectl-scale',
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      subresource: 'scale',
      now: '2024-12-11T12:05:00Z',
      schema: scaleSchema,
    });
    const entries = scaleToParent(parent.metadata!.managedFields, scaled.metadata!.managedFields, 'apps/v1', mappings)!;
    s.live = { ...parent, spec: { ...(parent.spec as object), replicas: 5 }, metadata: { ...parent.metadata, managedFields: entries } };
    expect(s.managers()).toEqual(['kubectl/Apply', 'kubectl-scale/Update/scale']);
    expect(JSON.stringify(entries[1]!.fieldsV1)).toBe('{"f:spec":{"f:replicas":{}}}');
    expect(s.conflict('kubectl', manifest)).toBe('Apply failed with 1 conflict: conflict with "kubectl-scale" with subresource "scale" using apps/v1: .spec.replicas');
  });
});

describe('Pod status from the kubelet', () => {
  it('conditions are owned per type on the status subresource', () => {
    const s = scenario({ schema: schemaOf('', 'v1', 'Pod'), apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'default' });
    s.apply('kubectl', `spec: {containers: [{name: c, image: busybox}]}`);
    const withStatus = structuredClone(s.live!);
    withStatus.status = {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-12-11T12:00:05Z' },
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-12-11T12:00:01Z' },
      ],
    };
    s.update('kubelet', withStatus, { subresource: 'status' });
    expect(JSON.stringify(s.managedFields()[1]!.fieldsV1)).toBe(
      '{"f:status":{"f:conditions":{".":{},"k:{\\"type\\":\\"PodScheduled\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:phase":{}}}',
    );
  });
});
