// SetDefaults_Service, and the IP-family fields the service REST fills on
// create for a single-stack IPv4 cluster (initIPFamilyFields).

import type { KubeObject } from '../../../types';
import { arr, rec, str } from '../../common/table';

type Obj = Record<string, unknown>;

export function isHeadless(spec: Obj): boolean {
  return spec.clusterIP === 'None' || arr(spec.clusterIPs)[0] === 'None';
}

function externallyAccessible(spec: Obj): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && arr(spec.externalIPs).length > 0);
}

export function defaultService(svc: KubeObject): void {
  const spec = rec(svc.spec);
  svc.spec = spec;
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = rec(rec(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
    if (timeout === undefined || timeout === null) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const p of arr(spec.ports).map(rec)) {
    if (!p.protocol) p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer' && (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null)) {
    spec.allocateLoadBalancerNodePorts = true;
  }
  // LoadBalancerIPMode (beta, on): ingress IPs get ipMode VIP.
  if (spec.type === 'LoadBalancer') {
    for (const ing of arr(rec(rec(svc.status).loadBalancer).ingress).map(rec)) if (str(ing.ip) && ing.ipMode === undefined) ing.ipMode = 'VIP';
  }
}

/** Single-stack IPv4: the families a 1.32 server records on a new Service of a non-ExternalName type. */
export function initIPFamilyFields(svc: KubeObject): void {
  const spec = rec(svc.spec);
  if (spec.type === 'ExternalName') {
    delete spec.ipFamilyPolicy;
    delete spec.ipFamilies;
    return;
  }
  // Headless and selectorless: RequireDualStack with both families, even on a single-stack cluster (kube PR 99555).
  const headlessSelectorless = isHeadless(spec) && Object.keys(rec(spec.selector)).length === 0;
  if (!spec.ipFamilyPolicy) spec.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  if (!arr(spec.ipFamilies).length) spec.ipFamilies = headlessSelectorless && spec.ipFamilyPolicy !== 'SingleStack' ? ['IPv4', 'IPv6'] : ['IPv4'];
  if (spec.clusterIP && !arr(spec.clusterIPs).length) spec.clusterIPs = [spec.clusterIP];
  if (!spec.clusterIP && arr(spec.clusterIPs).length) spec.clusterIP = arr(spec.clusterIPs)[0];
}
