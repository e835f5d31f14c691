// kube-apiserver 1.32's etcd keys for KubeTab's storage keys, and back.

import { describe, expect, it } from 'vitest';
import { builtinResources } from '../../../core/kinds/builtin';
import { KubeKeyLayout } from './kube-keys';

const layout = new KubeKeyLayout('/registry', builtinResources());

describe('kube key layout', () => {
  const cases: [string, string][] = [
    ['/registry/core/pods/default/web', '/registry/pods/default/web'],
    ['/registry/core/nodes/kind-worker', '/registry/minions/kind-worker'],
    ['/registry/core/services/default/kubernetes', '/registry/services/specs/default/kubernetes'],
    ['/registry/core/endpoints/default/kubernetes', '/registry/services/endpoints/default/kubernetes'],
    ['/registry/core/replicationcontrollers/default/rc', '/registry/controllers/default/rc'],
    ['/registry/networking.k8s.io/ingresses/default/in', '/registry/ingress/default/in'],
    ['/registry/apps/deployments/default/web', '/registry/deployments/default/web'],
    ['/registry/rbac.authorization.k8s.io/clusterroles/admin', '/registry/clusterroles/admin'],
    ['/registry/coordination.k8s.io/leases/kube-system/kube-controller-manager', '/registry/leases/kube-system/kube-controller-manager'],
    ['/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com', '/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com'],
    ['/registry/apiregistration.k8s.io/apiservices/v1.apps', '/registry/apiregistration.k8s.io/apiservices/v1.apps'],
    ['/registry/stable.example.com/crontabs/default/c1', '/registry/stable.example.com/crontabs/default/c1'],
    ['/kubetab/service-account-signing-key', '/registry/kubetab.io/keys/kubetab/service-account-signing-key'],
  ];
  it.each(cases)('%s ↔ %s', (kubeTab, etcd) => {
    expect(layout.toEtcd(kubeTab).etcdKey).toBe(etcd);
    expect(layout.kubeTabKey(etcd)).toBe(kubeTab);
  });

  it('ignores keys kube writes that KubeTab has no resource for, and keys outside the prefix', () => {
    expect(layout.fromEtcd('/registry/ranges/serviceips')).toBeUndefined();
    expect(layout.fromEtcd('/registry/masterleases/10.0.0.1')).toBeUndefined();
    expect(layout.fromEtcd('compact_rev_key')).toBeUndefined();
  });

  it('honours --etcd-prefix', () => {
    const other = new KubeKeyLayout('/cluster-a/', builtinResources());
    expect(other.toEtcd('/registry/core/pods/ns/p').etcdKey).toBe('/cluster-a/pods/ns/p');
    expect(other.kubeTabKey('/cluster-a/pods/ns/p')).toBe('/registry/core/pods/ns/p');
  });
});
