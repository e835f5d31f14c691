// apps/v1 against a 1.32 server: SetDefaults_Deployment/ReplicaSet/
// StatefulSet/DaemonSet, the workload validation messages, immutable
// selectors, generation, and the printer columns.

import { describe, expect, it } from 'vitest';
import { create, stored, update } from '../common/testing';
import { daemonSetsResource } from './daemonsets';
import { deploymentsResource } from './deployments';
import { replicaSetsResource } from './replicasets';
import { statefulSetsResource } from './statefulsets';
import { controllerRevisionsResource } from './controllerrevisions';

const template = (labels: Record<string, string> = { app: 'web' }) => ({ metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } });
const deployment = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...extra },
});

describe('deployments', () => {
  it('defaults replicas 1, RollingUpdate 25%/25%, 10 revisions, 600 s, and the pod template', async () => {
    const { obj, errors } = await create(deploymentsResource, deployment());
    expect(errors).toEqual([]);
    const spec = obj.spec as any;
    expect(spec.replicas).toBe(1);
    expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.progressDeadlineSeconds).toBe(600);
    expect(spec.template.spec.restartPolicy).toBe('Always');
    expect(spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    // Pod templates do not get a Pod's enableServiceLinks default.
    expect(spec.template.spec.enableServiceLinks).toBeUndefined();
    expect(obj.metadata?.generation).toBe(1);
    expect(obj.status).toEqual({});
  });

  it('refuses a selector change with field is immutable (Go-printed selector)', async () => {
    const old = await stored(deploymentsResource, deployment());
    const next = JSON.parse(JSON.stringify(old));
    next.spec.selector = { matchLabels: { app: 'web2' } };
    next.spec.template.metadata.labels = { app: 'web2' };
    const { errors } = await update(deploymentsResource, next, old);
    expect(errors).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });

  it('requires the template labels to match the selector', async () => {
    const { errors } = await create(deploymentsResource, deployment({ template: template({ app: 'other' }) }));
    expect(errors).toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`']);
  });

  it('reports a missing selector as required (and then the labels do not match)', async () => {
    const d = deployment() as any;
    delete d.spec.selector;
    const { errors } = await create(deploymentsResource, d);
    expect(errors).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('checks the rolling update values', async () => {
    const { errors } = await create(deploymentsResource, deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }));
    // IntOrString's String() has a pointer receiver: field errors print the struct with %#v.
    expect(errors).toEqual(['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0']);
    const pct = await create(deploymentsResource, deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 'x', maxSurge: '150%' } } }));
    expect(pct.errors[0]).toBe(
      `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    );
  });

  it('bumps the generation on spec and annotation changes only', async () => {
    const old = await stored(deploymentsResource, deployment());
    const labelsOnly = JSON.parse(JSON.stringify(old));
    labelsOnly.metadata.labels = { x: 'y' };
    expect((await update(deploymentsResource, labelsOnly, old)).obj.metadata?.generation).toBe(1);
    const scaled = JSON.parse(JSON.stringify(old));
    scaled.spec.replicas = 3;
    expect((await update(deploymentsResource, scaled, old)).obj.metadata?.generation).toBe(2);
    const annotated = JSON.parse(JSON.stringify(old));
    annotated.metadata.annotations = { note: 'x' };
    expect((await update(deploymentsResource, annotated, old)).obj.metadata?.generation).toBe(2);
  });

  it('keeps the spec (and labels) on a status update', async () => {
    const old = await stored(deploymentsResource, deployment());
    const next = JSON.parse(JSON.stringify(old));
    next.spec.replicas = 5;
    next.metadata.labels = { sneaky: 'x' };
    next.status = { replicas: 1, readyReplicas: 1 };
    const { obj } = await update(deploymentsResource, next, old, 'status');
    expect((obj.spec as any).replicas).toBe(1);
    expect(obj.metadata?.labels).toBeUndefined();
    expect(obj.status).toEqual({ replicas: 1, readyReplicas: 1 });
    expect(obj.metadata?.generation).toBe(1);
  });

  it('prints READY UP-TO-DATE AVAILABLE AGE and the wide columns', async () => {
    const d = await stored(deploymentsResource, deployment({ replicas: 3 }));
    d.status = { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 };
    const table = deploymentsResource.versions[0]!.table!;
    expect(table.columns.map((c) => `${c.name}:${c.priority}`)).toEqual(['Name:0', 'Ready:0', 'Up-to-date:0', 'Available:0', 'Age:0', 'Containers:1', 'Images:1', 'Selector:1']);
    expect(table.cells(d, Date.parse('2024-12-11T13:00:00Z'))).toEqual(['web', '2/3', 3, 2, '60m', 'web', 'nginx:1.25', 'app=web']);
  });
});

describe('replicasets', () => {
  it('defaults one replica, uses the "deployment" wording for an empty selector, and prints DESIRED/CURRENT/READY', async () => {
    const rs = { metadata: { name: 'r', namespace: 'd' }, spec: { selector: {}, template: template() } };
    const { errors } = await create(replicaSetsResource, rs);
    expect(errors).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    ]);
    const ok = await stored(replicaSetsResource, { ...rs, spec: { ...rs.spec, selector: { matchLabels: { app: 'web' } } } });
    expect((ok.spec as any).replicas).toBe(1);
    expect(ok.status).toEqual({ replicas: 0 });
    expect(replicaSetsResource.versions[0]!.table!.cells(ok, Date.parse('2024-12-11T12:00:10Z')).slice(0, 5)).toEqual(['r', 1, 0, 0, '10s']);
    expect(replicaSetsResource.fieldSelectors!['status.replicas']!(ok)).toBe('0');
  });

  it('refuses a restart policy other than Always', async () => {
    const t = template();
    (t.spec as any).restartPolicy = 'Never';
    const { errors } = await create(replicaSetsResource, { metadata: { name: 'r', namespace: 'd' }, spec: { selector: { matchLabels: { app: 'web' } }, template: t } });
    expect(errors).toEqual(['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']);
  });
});

describe('statefulsets', () => {
  it('defaults OrderedReady, RollingUpdate partition 0, Retain/Retain, and PVC templates', async () => {
    const { obj, errors } = await create(statefulSetsResource, {
      metadata: { name: 'db', namespace: 'd' },
      spec: {
        serviceName: 'db',
        selector: { matchLabels: { app: 'web' } },
        template: template(),
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    });
    expect(errors).toEqual([]);
    const spec = obj.spec as any;
    expect(spec.podManagementPolicy).toBe('OrderedReady');
    expect(spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    expect(spec.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: 'Retain', whenScaled: 'Retain' });
    expect(spec.replicas).toBe(1);
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.volumeClaimTemplates[0].spec.volumeMode).toBe('Filesystem');
    expect(spec.volumeClaimTemplates[0].status).toEqual({ phase: 'Pending' });
  });

  it('accepts volume mounts that name a volumeClaimTemplate (the template spec is not validated as a pod)', async () => {
    const t = template();
    (t.spec as any).containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
    const { errors } = await create(statefulSetsResource, {
      metadata: { name: 'db', namespace: 'd' },
      spec: {
        serviceName: 'db',
        selector: { matchLabels: { app: 'web' } },
        template: t,
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    });
    expect(errors).toEqual([]);
  });

  it('forbids updates to fields other than the mutable ones', async () => {
    const old = await stored(statefulSetsResource, { metadata: { name: 'db', namespace: 'd' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template: template() } });
    const next = JSON.parse(JSON.stringify(old));
    next.spec.serviceName = 'other';
    expect((await update(statefulSetsResource, next, old)).errors).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });

  it('prints READY as ready/desired', async () => {
    const s = await stored(statefulSetsResource, { metadata: { name: 'db', namespace: 'd' }, spec: { serviceName: 'db', replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template() } });
    s.status = { readyReplicas: 1 };
    expect(statefulSetsResource.versions[0]!.table!.cells(s, Date.parse('2024-12-11T12:00:00Z')).slice(0, 3)).toEqual(['db', '1/3', '0s']);
  });
});

describe('daemonsets', () => {
  it('defaults maxUnavailable 1 and maxSurge 0 and prints NODE SELECTOR', async () => {
    const ds = await stored(daemonSetsResource, { metadata: { name: 'agent', namespace: 'd' }, spec: { selector: { matchLabels: { app: 'web' } }, template: template() } });
    expect((ds.spec as any).updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    const cells = daemonSetsResource.versions[0]!.table!.cells(ds, Date.parse('2024-12-11T12:00:00Z'));
    expect(cells.slice(0, 8)).toEqual(['agent', 0, 0, 0, 0, 0, '<none>', '0s']);
  });

  it('reports an empty selector with the daemonset wording', async () => {
    const { errors } = await create(daemonSetsResource, { metadata: { name: 'agent', namespace: 'd' }, spec: { selector: {}, template: template() } });
    expect(errors).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
    ]);
  });
});

describe('controllerrevisions', () => {
  it('prints the controller as kind.group/name', async () => {
    const cr = await stored(controllerRevisionsResource, {
      metadata: { name: 'agent-1', namespace: 'd', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u', controller: true }] },
      data: {},
      revision: 1,
    });
    expect(controllerRevisionsResource.versions[0]!.table!.cells(cr, Date.parse('2024-12-11T12:00:00Z'))).toEqual(['agent-1', 'daemonset.apps/agent', 1, '0s']);
  });
});

describe('strategy types kube does not know (field.NotSupported with the whole strategy)', () => {
  it('deployments print *apps.DeploymentStrategy; daemonsets list RollingUpdate first', async () => {
    const template = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const d = await create(deploymentsResource, { metadata: { name: 'd', namespace: 'n' }, spec: { selector: { matchLabels: { a: 'b' } }, template, strategy: { type: 'Blue' } } });
    expect(d.errors).toEqual(['spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"']);
    const ds = await create(daemonSetsResource, { metadata: { name: 'd', namespace: 'n' }, spec: { selector: { matchLabels: { a: 'b' } }, template, updateStrategy: { type: 'Blue' } } });
    expect(ds.errors).toEqual(['spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"']);
  });

  it('a daemonset rolling update with both values 0 is Required on maxUnavailable', async () => {
    const template = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const ds = await create(daemonSetsResource, { metadata: { name: 'd', namespace: 'n' }, spec: { selector: { matchLabels: { a: 'b' } }, template, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } } });
    expect(ds.errors).toEqual(['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0']);
  });
});
