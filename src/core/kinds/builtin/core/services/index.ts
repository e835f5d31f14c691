// core/v1 services: defaults, allocation through the ServiceAllocator hook,
// validation, allocated values kept across updates, status and proxy
// subresources, printer columns and the spec.clusterIP / spec.type field
// selectors (1.30 and 1.31).

import type { ResourceDefinition, Strategy } from '../../../types';
import { nameIsDNS1035Label } from '../../../validation/names';
import { customSubresource, defineResource, statusSubresource, version } from '../../common/define';
import { clone, standardStrategy } from '../../common/strategy';
import { arr, rec, str } from '../../common/table';
import { serviceAllocator } from './allocator';
import { defaultService, initIPFamilyFields } from './defaults';
import { SERVICE_TABLE } from './table';
import { dropTypeDependentFields } from './type-dependent-fields';
import { validateServiceSpec, validateServiceUpdate } from './validation';

type Obj = Record<string, unknown>;

/**
 * patchAllocatedValues: an update that leaves clusterIP, clusterIPs or node
 * ports empty keeps what was allocated, as kubectl apply and replace rely on.
 */
function keepAllocatedValues(svc: Obj, old: Obj): void {
  const spec = rec(svc.spec);
  const oldSpec = rec(old.spec);
  const needsClusterIP = (t: unknown) => t === 'ClusterIP' || t === 'NodePort' || t === 'LoadBalancer';
  if (needsClusterIP(spec.type) && needsClusterIP(oldSpec.type)) {
    if (!spec.clusterIP && oldSpec.clusterIP) spec.clusterIP = oldSpec.clusterIP;
    if (!arr(spec.clusterIPs).length && arr(oldSpec.clusterIPs).length) spec.clusterIPs = clone(oldSpec.clusterIPs);
    if (!arr(spec.ipFamilies).length && arr(oldSpec.ipFamilies).length) spec.ipFamilies = clone(oldSpec.ipFamilies);
    if (!spec.ipFamilyPolicy && oldSpec.ipFamilyPolicy) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
  }
  const nodePorts = (t: unknown) => t === 'NodePort' || t === 'LoadBalancer';
  if (nodePorts(spec.type) && nodePorts(oldSpec.type)) {
    const oldPorts = arr(oldSpec.ports).map(rec);
    for (const p of arr(spec.ports).map(rec)) {
      if (p.nodePort) continue;
      const match = oldPorts.find((o) => o.port === p.port && str(o.protocol) === str(p.protocol));
      if (match?.nodePort) p.nodePort = match.nodePort;
    }
    if (!spec.healthCheckNodePort && oldSpec.healthCheckNodePort && spec.externalTrafficPolicy === 'Local') spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
  svc.spec = spec;
}

const sameClusterIPs = (a: unknown, b: unknown) => {
  const x = arr(a);
  const y = arr(b);
  return x.length === y.length && x.every((ip, i) => ip === y[i]);
};

/**
 * normalizeClusterIPs (update): keeps clusterIP and clusterIPs in step the way
 * the user most likely meant — clusterIPs left out by an old client come back
 * from the old object; a changed clusterIP with unchanged clusterIPs becomes
 * the new clusterIPs (so validation reports "spec.clusterIPs[0] … may not
 * change once set"); a cleared clusterIP clears unchanged clusterIPs.
 */
function normalizeClusterIPs(svc: Obj, old: Obj): void {
  const spec = rec(svc.spec);
  const oldSpec = rec(old.spec);
  if (arr(oldSpec.clusterIPs).length > 0 && arr(spec.clusterIPs).length === 0 && str(oldSpec.clusterIP) === str(spec.clusterIP)) {
    spec.clusterIPs = clone(oldSpec.clusterIPs);
  }
  if (str(oldSpec.clusterIP) !== str(spec.clusterIP)) {
    if (str(oldSpec.clusterIP) && !str(spec.clusterIP)) {
      if (sameClusterIPs(oldSpec.clusterIPs, spec.clusterIPs)) delete spec.clusterIPs;
    } else if (sameClusterIPs(oldSpec.clusterIPs, spec.clusterIPs)) {
      spec.clusterIPs = [str(spec.clusterIP)];
    }
  }
  svc.spec = spec;
}

/** A failed validation ends the request: what it allocated is free again (kube reverts the allocation). */
function releasingOnInvalid(strategy: Strategy): Strategy {
  const { validate, validateUpdate } = strategy;
  return {
    ...strategy,
    async validate(obj, ctx) {
      const errs = (await validate?.(obj, ctx)) ?? [];
      if (errs.length) serviceAllocator(ctx)?.abandon?.(ctx);
      return errs;
    },
    async validateUpdate(obj, old, ctx) {
      const errs = (await validateUpdate?.(obj, old, ctx)) ?? [];
      if (errs.length) serviceAllocator(ctx)?.abandon?.(ctx);
      return errs;
    },
  };
}

export const servicesResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'services',
  kind: 'Service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  versions: [version('v1', 'io.k8s.api.core.v1.Service', { table: SERVICE_TABLE })],
  subresources: [customSubresource('proxy', 'ServiceProxyOptions', ['create', 'delete', 'get', 'patch', 'update'], 'service-proxy'), statusSubresource('Service')],
  strategy: releasingOnInvalid(standardStrategy({
    namespaced: true,
    nameRule: nameIsDNS1035Label,
    statusFields: ['status'],
    initialStatus: () => ({ loadBalancer: {} }),
    default: (obj) => defaultService(obj),
    async prepareForCreate(obj, ctx) {
      initIPFamilyFields(obj);
      await serviceAllocator(ctx)?.allocate(obj, ctx);
    },
    async prepareForUpdate(obj, old, ctx) {
      // kube's beginUpdate (patchAllocatedValues, allocateUpdate), then PrepareForUpdate.
      keepAllocatedValues(obj, old);
      normalizeClusterIPs(obj, old);
      initIPFamilyFields(obj);
      await serviceAllocator(ctx)?.allocateOnUpdate(obj, old, ctx);
      dropTypeDependentFields(obj, old);
    },
    validate: (obj) => validateServiceSpec(obj),
    updateValidatesNew: false,
    validateUpdate: (obj, old) => [...validateServiceUpdate(obj, old), ...validateServiceSpec(obj)],
    async afterDelete(obj, ctx) {
      await serviceAllocator(ctx)?.release(obj, ctx);
    },
    // svcStrategy.AllowCreateOnUpdate: a PUT of a missing Service creates it.
    allowCreateOnUpdate: true,
  })),
  fieldSelectors: {
    'spec.clusterIP': (o) => str(rec(o.spec).clusterIP),
    'spec.type': (o) => str(rec(o.spec).type),
  },
});
