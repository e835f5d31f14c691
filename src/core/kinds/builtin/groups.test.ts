// Defaulting, validation messages and printer columns of the named groups
// beyond apps and batch, against what a 1.32 server does.

import { describe, expect, it } from 'vitest';
import { admissionRegistrationResources } from './admissionregistration';
import { customResourceDefinitionsResource } from './apiextensions';
import { apiServicesResource } from './apiregistration';
import { horizontalPodAutoscalersResource } from './autoscaling';
import { hpaV1ToV2, hpaV2ToV1 } from './autoscaling/hpa-conversion';
import { certificateSigningRequestsResource } from './certificates';
import { create, stored, testContext, update } from './common/testing';
import { leasesResource } from './coordination';
import { endpointSlicesResource } from './discovery';
import { coreEventToEventsV1, eventsV1Resource, eventsV1ToCoreEvent } from './events';
import { flowSchemasResource, priorityLevelConfigurationsResource } from './flowcontrol';
import { ingressClassesResource, ingressesResource, networkPoliciesResource } from './networking';
import { runtimeClassesResource } from './node';
import { podDisruptionBudgetsResource } from './policy';
import { clusterRoleBindingsResource, clusterRolesResource, roleBindingsResource, rolesResource } from './rbac';
import { priorityClassesResource } from './scheduling';
import { csiDriversResource, storageClassesResource } from './storage';

const NOW = Date.parse('2024-12-11T12:00:00Z');
const cells = (def: { versions: readonly { table?: { cells(o: any, n: number): unknown[] } }[] }, obj: unknown, now = NOW) => def.versions[0]!.table!.cells(obj, now);

describe('autoscaling horizontalpodautoscalers', () => {
  const hpa = { metadata: { name: 'web', namespace: 'd' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 } };

  it('defaults minReplicas 1 and the 80% CPU metric (v2)', async () => {
    const { obj, errors } = await create(horizontalPodAutoscalersResource, hpa);
    expect(errors).toEqual([]);
    expect((obj.spec as any).minReplicas).toBe(1);
    expect((obj.spec as any).metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  });

  it('fills the behaviour defaults when a behaviour is given', async () => {
    const { obj } = await create(horizontalPodAutoscalersResource, { ...hpa, spec: { ...hpa.spec, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } });
    expect((obj.spec as any).behavior).toEqual({
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });

  it('converts between v2 and v1 through targetCPUUtilizationPercentage and the metrics annotation', () => {
    const v2 = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
        ],
      },
    };
    const v1 = hpaV2ToV1(v2);
    expect(v1.spec).toEqual({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, minReplicas: 1, targetCPUUtilizationPercentage: 50 });
    expect(v1.metadata?.annotations?.['autoscaling.alpha.kubernetes.io/metrics']).toBeDefined();
    expect(hpaV1ToV2(v1)).toEqual(v2);
  });

  it('prints REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE', async () => {
    const obj = await stored(horizontalPodAutoscalersResource, hpa);
    expect(cells(horizontalPodAutoscalersResource, obj)).toEqual(['web', 'Deployment/web', 'cpu: <unknown>/80%', 1, 5, 0, '0s']);
  });

  it('is served as v2 (storage) and v1', () => {
    expect(horizontalPodAutoscalersResource.versions.map((v) => `${v.name}:${v.storage}`)).toEqual(['v2:true', 'v1:false']);
  });
});

describe('policy poddisruptionbudgets', () => {
  it('refuses minAvailable and maxUnavailable together and prints N/A for the unset one', async () => {
    const bad = await create(podDisruptionBudgetsResource, { metadata: { name: 'p', namespace: 'd' }, spec: { minAvailable: 1, maxUnavailable: 1 } });
    expect(bad.errors.map((e) => e.replace(/Invalid value: .*: /, 'Invalid value: …: '))).toEqual(['spec: Invalid value: …: minAvailable and maxUnavailable cannot be both set']);
    const ok = await stored(podDisruptionBudgetsResource, { metadata: { name: 'p', namespace: 'd' }, spec: { minAvailable: '50%', selector: { matchLabels: { a: 'b' } } } });
    expect(cells(podDisruptionBudgetsResource, ok)).toEqual(['p', '50%', 'N/A', 0, '0s']);
  });
});

describe('networking', () => {
  it('requires pathType on ingress paths and prints CLASS HOSTS ADDRESS PORTS', async () => {
    const ing = {
      metadata: { name: 'i', namespace: 'd' },
      spec: { rules: [{ host: 'example.com', http: { paths: [{ path: '/', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
    };
    expect((await create(ingressesResource, ing)).errors).toEqual(['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
    (ing.spec.rules[0]!.http.paths[0] as any).pathType = 'Prefix';
    const obj = await stored(ingressesResource, ing);
    expect(cells(ingressesResource, obj)).toEqual(['i', '<none>', 'example.com', '', '80', '0s']);
  });

  it('defaults network policy types and port protocols, prints POD-SELECTOR', async () => {
    const np = await stored(networkPoliciesResource, { metadata: { name: 'n', namespace: 'd' }, spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] } });
    expect((np.spec as any).policyTypes).toEqual(['Ingress', 'Egress']);
    expect((np.spec as any).egress[0].ports[0].protocol).toBe('TCP');
    expect(cells(networkPoliciesResource, np)).toEqual(['n', '<none>', '0s']);
  });

  it('prints an ingress class with its parameters', async () => {
    const ic = await stored(ingressClassesResource, { metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'p' } } });
    expect((ic.spec as any).parameters.scope).toBe('Cluster');
    expect(cells(ingressClassesResource, ic)).toEqual(['nginx', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/p', '0s']);
  });
});

describe('discovery endpointslices', () => {
  it('defaults the port name and protocol and prints ADDRESSTYPE PORTS ENDPOINTS', async () => {
    const es = await stored(endpointSlicesResource, {
      metadata: { name: 'web-abc', namespace: 'd' },
      addressType: 'IPv4',
      ports: [{ port: 80 }],
      endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2'] }],
    });
    expect(es.ports).toEqual([{ port: 80, name: '', protocol: 'TCP' }]);
    expect(cells(endpointSlicesResource, es)).toEqual(['web-abc', 'IPv4', '80', '10.0.0.1,10.0.0.2', '0s']);
    const next = { ...es, addressType: 'IPv6' };
    expect((await update(endpointSlicesResource, next, es)).errors).toEqual(['addressType: Invalid value: "IPv6": field is immutable']);
  });
});

describe('events.k8s.io events', () => {
  it('shares the core events storage with renamed fields', () => {
    const core = { apiVersion: 'v1', kind: 'Event', involvedObject: { kind: 'Pod' }, message: 'm', reportingComponent: 'c', count: 2, source: { component: 'k' } };
    const ev = coreEventToEventsV1(core);
    // Times and struct values are written even when empty, as encoding/json writes them.
    expect(ev).toEqual({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      regarding: { kind: 'Pod' },
      note: 'm',
      reportingController: 'c',
      deprecatedCount: 2,
      deprecatedSource: { component: 'k' },
      eventTime: null,
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    expect(eventsV1ToCoreEvent(ev)).toEqual({ ...core, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingInstance: '' });
  });

  it('writes the empty fields Go writes: core source {} and reporting strings, events.k8s.io deprecatedSource {}', () => {
    const ev = coreEventToEventsV1(eventsV1ToCoreEvent({ apiVersion: 'events.k8s.io/v1', kind: 'Event', regarding: { kind: 'Pod' }, reportingController: 'c' }));
    expect(ev).toMatchObject({ deprecatedSource: {}, reportingController: 'c' });
    expect(ev).not.toHaveProperty('reportingInstance');
    expect(eventsV1ToCoreEvent(ev)).toMatchObject({ source: {}, reportingComponent: 'c', reportingInstance: '' });
    expect(eventsV1Resource.sharedStorage?.resource).toBe('events');
  });

  it('validates strictly: eventTime, type, reportingController', async () => {
    const { errors } = await create(eventsV1Resource, { metadata: { name: 'e', namespace: 'default' }, regarding: { kind: 'Pod', namespace: 'default' } });
    expect(errors).toEqual(['eventTime: Required value', 'type: Invalid value: "": has invalid value: ']);
  });
});

describe('rbac', () => {
  it('requires verbs and resources with API groups; namespaced roles cannot use non-resource URLs', async () => {
    const { errors } = await create(rolesResource, { metadata: { name: 'r', namespace: 'd' }, rules: [{ resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }] });
    expect(errors).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[1].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
    ]);
    expect((await create(clusterRolesResource, { metadata: { name: 'system:x' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] })).errors).toEqual([]);
  });

  it('defaults the roleRef and subject API groups and refuses a roleRef change', async () => {
    const rb = await stored(roleBindingsResource, {
      metadata: { name: 'b', namespace: 'd' },
      roleRef: { kind: 'Role', name: 'r' },
      subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'default', namespace: 'd' }],
    });
    expect(rb.roleRef).toEqual({ kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' });
    expect((rb.subjects as any)[0].apiGroup).toBe('rbac.authorization.k8s.io');
    expect((rb.subjects as any)[1]).not.toHaveProperty('apiGroup'); // "" left out by omitempty
    const next = { ...rb, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' } };
    expect((await update(roleBindingsResource, next, rb)).errors).toEqual([
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"}: cannot change roleRef',
    ]);
    expect(cells(roleBindingsResource, rb)).toEqual(['b', 'Role/r', '0s', 'alice', '', 'd/default']); // rbac.SubjectsStrings: namespace/name
  });

  it('requires a namespace on service-account subjects of cluster role bindings and only ClusterRole refs', async () => {
    const { errors } = await create(clusterRoleBindingsResource, { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] });
    expect(errors).toEqual(['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"', 'subjects[0].namespace: Required value']);
  });

  it('prints roles as NAME and CREATED AT', async () => {
    const r = await stored(rolesResource, { metadata: { name: 'r', namespace: 'd' }, rules: [] });
    expect(rolesResource.versions[0]!.table!.columns.map((c) => `${c.name}:${c.type}`)).toEqual(['Name:string', 'Created At:date']);
    expect(cells(rolesResource, r)).toEqual(['r', '2024-12-11T12:00:00Z']);
  });
});

describe('certificates', () => {
  it('records the requesting user and prints the CSR columns', async () => {
    const csr = { metadata: { name: 'c' }, spec: { request: btoa('-----BEGIN CERTIFICATE REQUEST-----\nx\n-----END CERTIFICATE REQUEST-----\n'), signerName: 'kubernetes.io/kube-apiserver-client', username: 'spoofed', expirationSeconds: 86400 } };
    const ctx = { ...testContext(), user: { username: 'alice', groups: ['dev', 'system:authenticated'] } };
    const obj = JSON.parse(JSON.stringify(csr));
    await certificateSigningRequestsResource.strategy.prepareForCreate!(obj, ctx);
    expect(obj.spec.username).toBe('alice');
    expect(obj.spec.groups).toEqual(['dev', 'system:authenticated']);
    obj.metadata.creationTimestamp = '2024-12-11T12:00:00Z';
    expect(cells(certificateSigningRequestsResource, obj)).toEqual(['c', '0s', 'kubernetes.io/kube-apiserver-client', 'alice', '24h', 'Pending']);
    obj.status = { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'eA==' };
    expect(cells(certificateSigningRequestsResource, obj)[5]).toBe('Approved,Issued');
  });
});

describe('coordination, node, scheduling', () => {
  it('prints a lease holder; leases may be created by PUT', async () => {
    const l = await stored(leasesResource, { metadata: { name: 'n1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'n1', leaseDurationSeconds: 40 } });
    expect(cells(leasesResource, l)).toEqual(['n1', 'n1', '0s']);
    expect(leasesResource.strategy.allowCreateOnUpdate).toBe(true);
  });

  it('requires a DNS-label runtime class handler', async () => {
    expect((await create(runtimeClassesResource, { metadata: { name: 'rc' } })).errors).toEqual(['handler: Required value']);
  });

  it('defaults PreemptLowerPriority, caps user priorities, reserves system- names', async () => {
    const pc = await stored(priorityClassesResource, { metadata: { name: 'high' }, value: 1000 });
    expect(pc.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(cells(priorityClassesResource, pc)).toEqual(['high', 1000, false, '0s', 'PreemptLowerPriority']);
    expect((await create(priorityClassesResource, { metadata: { name: 'system-x' }, value: 2000000000 })).errors).toEqual([
      'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved",
    ]);
    const next = { ...pc, value: 5 };
    expect((await update(priorityClassesResource, next, pc)).errors).toEqual(['value: Invalid value: 5: field is immutable']);
  });
});

describe('storage', () => {
  it('defaults Delete/Immediate, marks the default class, forbids parameter updates', async () => {
    const sc = await stored(storageClassesResource, {
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
    });
    expect([sc.reclaimPolicy, sc.volumeBindingMode]).toEqual(['Delete', 'Immediate']);
    expect(cells(storageClassesResource, sc)).toEqual(['standard (default)', 'rancher.io/local-path', 'Delete', 'Immediate', false, '0s']);
    const next = { ...sc, parameters: { a: 'b' } };
    expect((await update(storageClassesResource, next, sc)).errors).toEqual(['parameters: Forbidden: updates to parameters are forbidden.']);
  });

  it('defaults a CSI driver', async () => {
    const d = await stored(csiDriversResource, { metadata: { name: 'csi.example.com' }, spec: {} });
    expect(d.spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
    });
    expect(cells(csiDriversResource, d)).toEqual(['csi.example.com', true, false, false, '<unset>', false, 'Persistent', '0s']);
  });
});

describe('admissionregistration', () => {
  it('defaults webhook fields as SetDefaults_ValidatingWebhook / MutatingWebhook do', async () => {
    const mutating = admissionRegistrationResources().find((d) => d.plural === 'mutatingwebhookconfigurations')!;
    const { obj, errors } = await create(mutating, {
      metadata: { name: 'm' },
      webhooks: [{ name: 'a.b.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'ns', name: 'svc' } }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }],
    });
    expect(errors).toEqual([]);
    const hook = (obj.webhooks as any)[0];
    expect([hook.failurePolicy, hook.matchPolicy, hook.timeoutSeconds, hook.reinvocationPolicy, hook.clientConfig.service.port, hook.rules[0].scope]).toEqual(['Fail', 'Equivalent', 10, 'Never', 443, '*']);
    expect(hook.namespaceSelector).toEqual({});
    expect(cells(mutating, obj)[1]).toBe(1);
  });
});

describe('apiextensions and apiregistration', () => {
  it('requires a CRD name of <plural>.<group> and starts its status with the stored version', async () => {
    const crd = { metadata: { name: 'widgets.example.com' }, spec: { group: 'example.com', names: { plural: 'widgets', kind: 'Widget' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true }] } };
    const { obj, errors } = await create(customResourceDefinitionsResource, crd);
    expect(errors).toEqual([]);
    expect((obj.spec as any).names).toEqual({ plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' });
    expect((obj.spec as any).conversion).toEqual({ strategy: 'None' });
    expect(obj.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    const wrong = await create(customResourceDefinitionsResource, { ...crd, metadata: { name: 'gadgets.example.com' } });
    expect(wrong.errors).toEqual(['metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group']);
  });

  it('prints an APIService as Local and its Available condition', async () => {
    const s = await stored(apiServicesResource, { metadata: { name: 'v1.apps' }, spec: { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 } });
    s.status = { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] };
    expect(cells(apiServicesResource, s)).toEqual(['v1.apps', 'Local', 'True', '0s']);
    s.status = { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] };
    expect(cells(apiServicesResource, s)[2]).toBe('False (MissingEndpoints)');
  });
});

describe('flowcontrol', () => {
  it('defaults precedence 1000 and the queuing parameters; prints both tables', async () => {
    const fs = await stored(flowSchemasResource, { metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'global-default' } } });
    expect((fs.spec as any).matchingPrecedence).toBe(1000);
    expect(cells(flowSchemasResource, fs)).toEqual(['fs', 'global-default', 1000, '<none>', '0s', '?']);
    const plc = await stored(priorityLevelConfigurationsResource, { metadata: { name: 'pl' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } });
    expect((plc.spec as any).limited).toEqual({ nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } });
    expect(cells(priorityLevelConfigurationsResource, plc)).toEqual(['pl', 'Limited', 30, 64, 8, 50, '0s']);
  });
});
