// The served set of a default 1.32 server: what `kubectl api-resources` and
// `kubectl api-versions` print against it (issue "Every kind of a 1.32
// server": The served set), and that every declared version names a schema
// of the 1.32 tables.

import { describe, expect, it } from 'vitest';
import { rootDefinitionFor, getBuiltinSchemaTable } from '../../schema/builtin-table';
import { isRef } from '../../schema/types';
import type { ResourceDefinition } from '../types';
import { builtinResources, findBuiltinResource } from './index';

/** `kubectl api-resources` against a default kube-apiserver 1.32 (NAME SHORTNAMES APIVERSION NAMESPACED KIND). */
const API_RESOURCES_1_32 = `
bindings                                         v1                                true         Binding
componentstatuses                   cs           v1                                false        ComponentStatus
configmaps                          cm           v1                                true         ConfigMap
endpoints                           ep           v1                                true         Endpoints
events                              ev           v1                                true         Event
limitranges                         limits       v1                                true         LimitRange
namespaces                          ns           v1                                false        Namespace
nodes                               no           v1                                false        Node
persistentvolumeclaims              pvc          v1                                true         PersistentVolumeClaim
persistentvolumes                   pv           v1                                false        PersistentVolume
pods                                po           v1                                true         Pod
podtemplates                                     v1                                true         PodTemplate
replicationcontrollers              rc           v1                                true         ReplicationController
resourcequotas                      quota        v1                                true         ResourceQuota
secrets                                          v1                                true         Secret
serviceaccounts                     sa           v1                                true         ServiceAccount
services                            svc          v1                                true         Service
mutatingwebhookconfigurations                    admissionregistration.k8s.io/v1   false        MutatingWebhookConfiguration
validatingadmissionpolicies                      admissionregistration.k8s.io/v1   false        ValidatingAdmissionPolicy
validatingadmissionpolicybindings                admissionregistration.k8s.io/v1   false        ValidatingAdmissionPolicyBinding
validatingwebhookconfigurations                  admissionregistration.k8s.io/v1   false        ValidatingWebhookConfiguration
customresourcedefinitions           crd,crds     apiextensions.k8s.io/v1           false        CustomResourceDefinition
apiservices                                      apiregistration.k8s.io/v1         false        APIService
controllerrevisions                              apps/v1                           true         ControllerRevision
daemonsets                          ds           apps/v1                           true         DaemonSet
deployments                         deploy       apps/v1                           true         Deployment
replicasets                         rs           apps/v1                           true         ReplicaSet
statefulsets                        sts          apps/v1                           true         StatefulSet
selfsubjectreviews                               authentication.k8s.io/v1          false        SelfSubjectReview
tokenreviews                                     authentication.k8s.io/v1          false        TokenReview
localsubjectaccessreviews                        authorization.k8s.io/v1           true         LocalSubjectAccessReview
selfsubjectaccessreviews                         authorization.k8s.io/v1           false        SelfSubjectAccessReview
selfsubjectrulesreviews                          authorization.k8s.io/v1           false        SelfSubjectRulesReview
subjectaccessreviews                             authorization.k8s.io/v1           false        SubjectAccessReview
horizontalpodautoscalers            hpa          autoscaling/v2                    true         HorizontalPodAutoscaler
cronjobs                            cj           batch/v1                          true         CronJob
jobs                                             batch/v1                          true         Job
certificatesigningrequests          csr          certificates.k8s.io/v1            false        CertificateSigningRequest
leases                                           coordination.k8s.io/v1            true         Lease
endpointslices                                   discovery.k8s.io/v1               true         EndpointSlice
events                              ev           events.k8s.io/v1                  true         Event
flowschemas                                      flowcontrol.apiserver.k8s.io/v1   false        FlowSchema
prioritylevelconfigurations                      flowcontrol.apiserver.k8s.io/v1   false        PriorityLevelConfiguration
ingressclasses                                   networking.k8s.io/v1              false        IngressClass
ingresses                           ing          networking.k8s.io/v1              true         Ingress
networkpolicies                     netpol       networking.k8s.io/v1              true         NetworkPolicy
runtimeclasses                                   node.k8s.io/v1                    false        RuntimeClass
poddisruptionbudgets                pdb          policy/v1                         true         PodDisruptionBudget
clusterrolebindings                              rbac.authorization.k8s.io/v1      false        ClusterRoleBinding
clusterroles                                     rbac.authorization.k8s.io/v1      false        ClusterRole
rolebindings                                     rbac.authorization.k8s.io/v1      true         RoleBinding
roles                                            rbac.authorization.k8s.io/v1      true         Role
priorityclasses                     pc           scheduling.k8s.io/v1              false        PriorityClass
csidrivers                                       storage.k8s.io/v1                 false        CSIDriver
csinodes                                         storage.k8s.io/v1                 false        CSINode
csistoragecapacities                             storage.k8s.io/v1                 true         CSIStorageCapacity
storageclasses                      sc           storage.k8s.io/v1                 false        StorageClass
volumeattachments                                storage.k8s.io/v1                 false        VolumeAttachment
`;

const API_VERSIONS_1_32 = [
  'admissionregistration.k8s.io/v1',
  'apiextensions.k8s.io/v1',
  'apiregistration.k8s.io/v1',
  'apps/v1',
  'authentication.k8s.io/v1',
  'authorization.k8s.io/v1',
  'autoscaling/v1',
  'autoscaling/v2',
  'batch/v1',
  'certificates.k8s.io/v1',
  'coordination.k8s.io/v1',
  'discovery.k8s.io/v1',
  'events.k8s.io/v1',
  'flowcontrol.apiserver.k8s.io/v1',
  'networking.k8s.io/v1',
  'node.k8s.io/v1',
  'policy/v1',
  'rbac.authorization.k8s.io/v1',
  'scheduling.k8s.io/v1',
  'storage.k8s.io/v1',
  'v1',
];

function parseListing(text: string): string[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const cols = line.trim().split(/\s+/);
      // Rows without short names have four columns.
      const [name, shortNames, apiVersion, namespaced, kind] = cols.length === 5 ? cols : [cols[0], '', cols[1], cols[2], cols[3]];
      return [name, shortNames, apiVersion, namespaced, kind].join(' ');
    })
    .sort();
}

const enabled = (d: ResourceDefinition) => d.versions.filter((v) => v.served && (v.enabledByDefault ?? true));

/** GA before beta before alpha, higher numbers first. */
function versionRank(v: string): number[] {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v)!;
  return [m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, Number(m[1]), Number(m[3] ?? 0)];
}
function preferred(versions: string[]): string {
  return [...versions].sort((a, b) => {
    const ra = versionRank(a);
    const rb = versionRank(b);
    return rb[0]! - ra[0]! || rb[1]! - ra[1]! || rb[2]! - ra[2]!;
  })[0]!;
}

function defaultServedListing(defs: ResourceDefinition[]): string[] {
  const groupVersions = new Map<string, Set<string>>();
  for (const d of defs) for (const v of enabled(d)) (groupVersions.get(d.group) ?? groupVersions.set(d.group, new Set()).get(d.group)!).add(v.name);
  const rows: string[] = [];
  for (const d of defs) {
    const versions = groupVersions.get(d.group);
    if (!versions) continue;
    const pref = preferred([...versions]);
    // kubectl api-resources lists each resource at its group's preferred version.
    const v = enabled(d).find((x) => x.name === pref);
    if (!v) continue;
    rows.push([d.plural, (d.shortNames ?? []).join(','), d.group ? `${d.group}/${v.name}` : v.name, String(d.namespaced), d.kind].join(' '));
  }
  return rows.sort();
}

describe('served set of a default 1.32 server', () => {
  const defs = builtinResources();

  it('matches `kubectl api-resources`', () => {
    expect(defaultServedListing(defs)).toEqual(parseListing(API_RESOURCES_1_32));
  });

  it('matches `kubectl api-versions`', () => {
    const gvs = new Set<string>();
    for (const d of defs) for (const v of enabled(d)) gvs.add(d.group ? `${d.group}/${v.name}` : v.name);
    expect([...gvs].sort()).toEqual(API_VERSIONS_1_32);
  });

  it('declares the alpha/beta group-versions 1.32 knows but leaves off', () => {
    const off = new Set<string>();
    for (const d of defs) for (const v of d.versions) if (v.enabledByDefault === false) off.add(`${d.group}/${v.name}`);
    expect([...off].sort()).toEqual([
      'admissionregistration.k8s.io/v1alpha1',
      'admissionregistration.k8s.io/v1beta1',
      'authentication.k8s.io/v1beta1',
      'certificates.k8s.io/v1alpha1',
      'coordination.k8s.io/v1alpha2',
      'internal.apiserver.k8s.io/v1alpha1',
      'networking.k8s.io/v1beta1',
      'resource.k8s.io/v1alpha3',
      'resource.k8s.io/v1beta1',
      'storage.k8s.io/v1alpha1',
      'storage.k8s.io/v1beta1',
      'storagemigration.k8s.io/v1alpha1',
    ]);
  });

  it('has exactly one storage version per resource and a unique group/resource', () => {
    const seen = new Set<string>();
    for (const d of defs) {
      expect(d.versions.filter((v) => v.storage), `${d.group}/${d.plural}`).toHaveLength(1);
      const key = `${d.group}/${d.plural}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('names, for every version, the root definition of the 1.32 schema tables', () => {
    const schemas = getBuiltinSchemaTable();
    for (const d of defs) {
      for (const v of d.versions) {
        const node = v.schema;
        expect(isRef(node), `${d.group}/${v.name} ${d.kind}`).toBe(true);
        if (!isRef(node)) continue;
        expect(node.ref, `${d.group}/${v.name} ${d.kind}`).toBe(rootDefinitionFor(d.group, v.name, d.kind));
        expect(() => schemas.resolve(node)).not.toThrow();
      }
    }
  });

  it('reports the subresources of discovery (pods: attach, binding, ephemeralcontainers, eviction, exec, log, portforward, proxy, status)', () => {
    const subs = (g: string, r: string) => (findBuiltinResource(g, r)?.subresources ?? []).map((s) => `${s.name}:${s.verbs.join(',')}`).sort();
    expect(subs('', 'pods')).toEqual([
      'attach:create,get',
      'binding:create',
      'ephemeralcontainers:get,patch,update',
      'eviction:create',
      'exec:create,get',
      'log:get',
      'portforward:create,get',
      'proxy:create,delete,get,patch,update',
      'status:get,patch,update',
    ]);
    expect(subs('', 'namespaces')).toEqual(['finalize:update', 'status:get,patch,update']);
    expect(subs('', 'serviceaccounts')).toEqual(['token:create']);
    expect(subs('apps', 'deployments')).toEqual(['scale:get,patch,update', 'status:get,patch,update']);
    expect(subs('certificates.k8s.io', 'certificatesigningrequests')).toEqual(['approval:get,patch,update', 'status:get,patch,update']);
    const eviction = findBuiltinResource('', 'pods')!.subresources!.find((s) => s.name === 'eviction')!;
    expect([eviction.group, eviction.version, eviction.kind]).toEqual(['policy', 'v1', 'Eviction']);
  });

  it('adds pods/resize only with InPlacePodVerticalScaling (alpha in 1.32)', () => {
    expect(findBuiltinResource('', 'pods')!.subresources!.some((s) => s.name === 'resize')).toBe(false);
    expect(findBuiltinResource('', 'pods', { featureGates: { InPlacePodVerticalScaling: true } })!.subresources!.some((s) => s.name === 'resize')).toBe(true);
  });

  it('puts pods, services, deployments… in the "all" category and the extension kinds in "api-extensions"', () => {
    const inCategory = (c: string) => defs.filter((d) => d.categories?.includes(c)).map((d) => `${d.group}/${d.plural}`).sort();
    expect(inCategory('all')).toEqual([
      '/pods',
      '/replicationcontrollers',
      '/services',
      'apps/daemonsets',
      'apps/deployments',
      'apps/replicasets',
      'apps/statefulsets',
      'autoscaling/horizontalpodautoscalers',
      'batch/cronjobs',
      'batch/jobs',
    ]);
    expect(inCategory('api-extensions')).toEqual([
      'admissionregistration.k8s.io/mutatingadmissionpolicies',
      'admissionregistration.k8s.io/mutatingadmissionpolicybindings',
      'admissionregistration.k8s.io/mutatingwebhookconfigurations',
      'admissionregistration.k8s.io/validatingadmissionpolicies',
      'admissionregistration.k8s.io/validatingadmissionpolicybindings',
      'admissionregistration.k8s.io/validatingwebhookconfigurations',
      'apiextensions.k8s.io/customresourcedefinitions',
      'apiregistration.k8s.io/apiservices',
    ]);
  });

  it('gives the singular names of discovery (endpoints stays plural)', () => {
    expect(findBuiltinResource('', 'endpoints')!.singular).toBe('endpoints');
    expect(findBuiltinResource('networking.k8s.io', 'ingresses')!.singular).toBe('ingress');
    expect(findBuiltinResource('policy', 'poddisruptionbudgets')!.singular).toBe('poddisruptionbudget');
  });

  it('lists the verbs of discovery (namespaces have no deletecollection, reviews only create)', () => {
    expect(findBuiltinResource('', 'namespaces')!.verbs).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(findBuiltinResource('', 'componentstatuses')!.verbs).toEqual(['get', 'list']);
    expect(findBuiltinResource('authorization.k8s.io', 'subjectaccessreviews')!.verbs).toEqual(['create']);
    expect(findBuiltinResource('authorization.k8s.io', 'subjectaccessreviews')!.virtual).toBe(true);
  });
});
