// networking.k8s.io: ingresses, ingressclasses and networkpolicies (v1), and
// the v1beta1 ipaddresses and servicecidrs a default 1.32 server leaves off.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { isDNS1123Subdomain, isQualifiedName, isValidPortName, isValidPortNum } from '../../validation/names';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, formatLabelSelector, loadBalancerIngress, rec, str, table, type LabelSelector } from '../common/table';
import { validateLabelSelector } from '../common/workload';
import { validateEnum } from '../core/pod-spec/validation';

type Obj = Record<string, unknown>;

// ---- Ingress ----

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

function validateBackend(backend: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const hasService = backend.service !== undefined && backend.service !== null;
  const hasResource = backend.resource !== undefined && backend.resource !== null;
  if (hasService && hasResource) return [fieldErrors.invalid(path, '', 'cannot set both service and resource backends')];
  if (hasService) {
    const svc = rec(backend.service);
    const name = str(svc.name);
    if (!name) errs.push(fieldErrors.required(`${path}.service.name`));
    else for (const msg of isDNS1123Subdomain(name)) errs.push(fieldErrors.invalid(`${path}.service.name`, name, msg));
    const port = rec(svc.port);
    const hasName = !!str(port.name);
    const hasNumber = typeof port.number === 'number' && port.number !== 0;
    if (hasName && hasNumber) errs.push(fieldErrors.invalid(`${path}.service.port`, port, 'cannot set both port name & port number'));
    else if (hasName) for (const msg of isValidPortName(str(port.name))) errs.push(fieldErrors.invalid(`${path}.service.port.name`, port.name, msg));
    else if (hasNumber) for (const msg of isValidPortNum(port.number as number)) errs.push(fieldErrors.invalid(`${path}.service.port.number`, port.number, msg));
    else errs.push(fieldErrors.required(`${path}.service.port`, 'port name or number is required'));
  } else if (hasResource) {
    const r = rec(backend.resource);
    if (!str(r.kind)) errs.push(fieldErrors.required(`${path}.resource.kind`));
    if (!str(r.name)) errs.push(fieldErrors.required(`${path}.resource.name`));
  } else {
    errs.push(fieldErrors.invalid(path, '', 'one backend (service or resource) must be specified'));
  }
  return errs;
}

function validateIngress(ing: KubeObject): FieldError[] {
  const spec = rec(ing.spec);
  const errs: FieldError[] = [];
  const rules = arr(spec.rules).map(rec);
  if (spec.defaultBackend === undefined && rules.length === 0) {
    errs.push(fieldErrors.invalid('spec.rules', [], 'either `defaultBackend` or `rules` must be specified'));
  }
  if (spec.defaultBackend !== undefined && spec.defaultBackend !== null) errs.push(...validateBackend(rec(spec.defaultBackend), 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    const p = `spec.rules[${i}]`;
    const host = str(rule.host);
    if (host) {
      const check = host.startsWith('*.') ? host.slice(2) : host;
      for (const msg of isDNS1123Subdomain(check)) errs.push(fieldErrors.invalid(`${p}.host`, host, msg));
    }
    if (rule.http === undefined || rule.http === null) return;
    const paths = arr(rec(rule.http).paths).map(rec);
    if (paths.length === 0) errs.push(fieldErrors.required(`${p}.http.paths`));
    paths.forEach((hp, j) => {
      const pp = `${p}.http.paths[${j}]`;
      if (!hp.pathType) errs.push(fieldErrors.required(`${pp}.pathType`, 'pathType must be specified'));
      else if (!PATH_TYPES.includes(str(hp.pathType))) errs.push(fieldErrors.notSupported(`${pp}.pathType`, hp.pathType, PATH_TYPES));
      const path = str(hp.path);
      if ((hp.pathType === 'Exact' || hp.pathType === 'Prefix') && !path.startsWith('/')) {
        errs.push(fieldErrors.invalid(`${pp}.path`, path, "must be an absolute path"));
      }
      errs.push(...validateBackend(rec(hp.backend), `${pp}.backend`));
    });
  });
  arr(spec.tls).forEach((t, i) => {
    arr(rec(t).hosts).forEach((h, j) => {
      const host = String(h);
      const check = host.startsWith('*.') ? host.slice(2) : host;
      for (const msg of isDNS1123Subdomain(check)) errs.push(fieldErrors.invalid(`spec.tls[${i}].hosts[${j}]`, host, msg));
    });
  });
  if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) {
    for (const msg of isDNS1123Subdomain(str(spec.ingressClassName))) errs.push(fieldErrors.invalid('spec.ingressClassName', spec.ingressClassName, msg));
  }
  return errs;
}

function ingressHosts(rules: unknown): string {
  const list: string[] = [];
  const all = arr(rules).map(rec);
  const max = 3;
  let more = false;
  for (const r of all) {
    if (list.length === max) more = true;
    if (!more && str(r.host)) list.push(str(r.host));
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${all.length - max} more...` : list.join(',');
}

function ingressAddress(ing: KubeObject): string {
  return loadBalancerIngress(ing.status);
}

export const INGRESS_TABLE = table(
  [
    col('Class', 'string', 'Ingress class'),
    col('Hosts', 'string', 'Hosts the rules match'),
    col('Address', 'string', 'Load-balancer addresses'),
    col('Ports', 'string', 'Ports served'),
    AGE_COLUMN,
  ],
  (ing, now) => {
    const spec = rec(ing.spec);
    return [spec.ingressClassName === undefined || spec.ingressClassName === null ? '<none>' : str(spec.ingressClassName), ingressHosts(spec.rules), ingressAddress(ing), arr(spec.tls).length ? '80, 443' : '80', age(ing, now)];
  },
);

export const ingressesResource: ResourceDefinition = defineResource({
  group: 'networking.k8s.io',
  plural: 'ingresses',
  kind: 'Ingress',
  namespaced: true,
  shortNames: ['ing'],
  versions: [version('v1', 'io.k8s.api.networking.v1.Ingress', { table: INGRESS_TABLE })],
  subresources: [statusSubresource('Ingress')],
  strategy: standardStrategy({
    namespaced: true,
    statusFields: ['status'],
    initialStatus: () => ({ loadBalancer: {} }),
    generationFields: ['spec'],
    validate: (o) => validateIngress(o),
  }),
});

// ---- IngressClass ----

function defaultIngressClass(ic: KubeObject): void {
  const params = rec(ic.spec).parameters;
  if (params !== undefined && params !== null && !rec(params).scope) rec(params).scope = 'Cluster';
}

function validateIngressClass(ic: KubeObject): FieldError[] {
  const spec = rec(ic.spec);
  const errs: FieldError[] = [];
  const controller = str(spec.controller);
  if (!controller) errs.push(fieldErrors.required('spec.controller'));
  else if (controller.length > 250) errs.push({ type: 'FieldValueTooLong', field: 'spec.controller', detail: 'may not be more than 250 bytes' });
  else if (!controller.includes('/')) errs.push(...isQualifiedName(controller).map((m) => fieldErrors.invalid('spec.controller', controller, m)));
  const params = spec.parameters === undefined || spec.parameters === null ? undefined : rec(spec.parameters);
  if (params) {
    if (!str(params.kind)) errs.push(fieldErrors.required('spec.parameters.kind'));
    if (!str(params.name)) errs.push(fieldErrors.required('spec.parameters.name'));
    errs.push(...validateEnum(params.scope, 'spec.parameters.scope', ['Cluster', 'Namespace']));
    if (params.scope === 'Namespace' && !str(params.namespace)) errs.push(fieldErrors.required('spec.parameters.namespace', "`parameters.scope` is set to 'Namespace'"));
    if (params.scope === 'Cluster' && params.namespace !== undefined && params.namespace !== null) {
      errs.push(fieldErrors.forbidden('spec.parameters.namespace', "`parameters.scope` is set to 'Cluster'"));
    }
  }
  return errs;
}

export const INGRESS_CLASS_TABLE = table(
  [col('Controller', 'string', 'Controller that implements the class'), col('Parameters', 'string', 'Object holding extra parameters'), AGE_COLUMN],
  (ic, now) => {
    const spec = rec(ic.spec);
    let parameters = '<none>';
    if (spec.parameters !== undefined && spec.parameters !== null) {
      const p = rec(spec.parameters);
      parameters = str(p.kind);
      if (p.apiGroup !== undefined && p.apiGroup !== null) parameters += `.${str(p.apiGroup)}`;
      parameters += `/${str(p.name)}`;
    }
    return [str(spec.controller), parameters, age(ic, now)];
  },
);

export const ingressClassesResource: ResourceDefinition = defineResource({
  group: 'networking.k8s.io',
  plural: 'ingressclasses',
  kind: 'IngressClass',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.networking.v1.IngressClass', { table: INGRESS_CLASS_TABLE })],
  strategy: standardStrategy({
    namespaced: false,
    generationFields: ['spec'],
    default: (o) => defaultIngressClass(o),
    validate: (o) => validateIngressClass(o),
    validateUpdate: (o, old) => validateImmutableField(rec(o.spec).controller, rec(old.spec).controller, 'spec.controller'),
  }),
});

// ---- NetworkPolicy ----

function defaultNetworkPolicy(np: KubeObject): void {
  const spec = rec(np.spec);
  np.spec = spec;
  for (const rule of [...arr(spec.ingress), ...arr(spec.egress)].map(rec)) {
    for (const p of arr(rule.ports).map(rec)) if (!p.protocol) p.protocol = 'TCP';
  }
  if (!arr(spec.policyTypes).length) {
    spec.policyTypes = arr(spec.egress).length ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

function validateNetworkPolicy(np: KubeObject): FieldError[] {
  const spec = rec(np.spec);
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(spec.podSelector, 'spec.podSelector'));
  const types = arr(spec.policyTypes);
  if (types.length > 2) errs.push(fieldErrors.invalid('spec.policyTypes', spec.policyTypes, 'may not specify more than two policyTypes'));
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(fieldErrors.notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']));
  });
  for (const [field, peerField] of [['ingress', 'from'], ['egress', 'to']] as const) {
    arr(spec[field]).forEach((r, i) => {
      const rule = rec(r);
      arr(rule.ports).forEach((pt, j) => {
        const port = rec(pt);
        const pp = `spec.${field}[${i}].ports[${j}]`;
        if (!['TCP', 'UDP', 'SCTP'].includes(str(port.protocol))) errs.push(fieldErrors.notSupported(`${pp}.protocol`, port.protocol, ['TCP', 'UDP', 'SCTP']));
        if (typeof port.port === 'number') for (const msg of isValidPortNum(port.port)) errs.push(fieldErrors.invalid(`${pp}.port`, port.port, msg));
        if (typeof port.port === 'string') for (const msg of isValidPortName(port.port)) errs.push(fieldErrors.invalid(`${pp}.port`, port.port, msg));
      });
      arr(rule[peerField]).forEach((pe, j) => {
        const peer = rec(pe);
        const pp = `spec.${field}[${i}].${peerField}[${j}]`;
        const count = ['podSelector', 'namespaceSelector', 'ipBlock'].filter((k) => peer[k] !== undefined && peer[k] !== null).length;
        if (count === 0) errs.push(fieldErrors.required(pp, 'must specify a peer'));
        if (peer.ipBlock !== undefined && count > 1) errs.push(fieldErrors.forbidden(pp, 'may not specify both ipBlock and another peer'));
        if (peer.podSelector !== undefined) errs.push(...validateLabelSelector(peer.podSelector, `${pp}.podSelector`));
        if (peer.namespaceSelector !== undefined) errs.push(...validateLabelSelector(peer.namespaceSelector, `${pp}.namespaceSelector`));
        if (peer.ipBlock !== undefined && !str(rec(peer.ipBlock).cidr)) errs.push(fieldErrors.required(`${pp}.ipBlock.cidr`));
      });
    });
  }
  return errs;
}

export const NETWORK_POLICY_TABLE = table(
  [col('Pod-Selector', 'string', 'Pods the policy applies to'), AGE_COLUMN],
  (np, now) => [formatLabelSelector(rec(np.spec).podSelector as LabelSelector | undefined), age(np, now)],
);

export const networkPoliciesResource: ResourceDefinition = defineResource({
  group: 'networking.k8s.io',
  plural: 'networkpolicies',
  kind: 'NetworkPolicy',
  namespaced: true,
  shortNames: ['netpol'],
  versions: [version('v1', 'io.k8s.api.networking.v1.NetworkPolicy', { table: NETWORK_POLICY_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    generationFields: ['spec'],
    default: (o) => defaultNetworkPolicy(o),
    validate: (o) => validateNetworkPolicy(o),
  }),
});

// ---- v1beta1 (off by default in 1.32): IPAddress, ServiceCIDR ----

export const ipAddressesResource: ResourceDefinition = defineResource({
  group: 'networking.k8s.io',
  plural: 'ipaddresses',
  kind: 'IPAddress',
  namespaced: false,
  shortNames: ['ip'],
  versions: [
    {
      ...version('v1beta1', 'io.k8s.api.networking.v1beta1.IPAddress', {
        table: table([col('ParentRef', 'string', 'Object the address is assigned to')], (o) => {
          const ref = rec(rec(o.spec).parentRef);
          const group = str(ref.group);
          return [ref.resource === undefined ? '' : `${group ? `${str(ref.resource)}.${group}` : str(ref.resource)}/${str(ref.namespace) ? `${str(ref.namespace)}/` : ''}${str(ref.name)}`];
        }),
      }),
      enabledByDefault: false,
    },
  ],
  strategy: standardStrategy({
    namespaced: false,
    nameRule: (name) => (/^[0-9a-f.:]+$/.test(name) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']),
    validate: (o) => (rec(o.spec).parentRef === undefined ? [fieldErrors.required('spec.parentRef')] : []),
    validateUpdate: (o, old) => validateImmutableField(rec(o.spec).parentRef, rec(old.spec).parentRef, 'spec.parentRef'),
  }),
});

export const serviceCIDRsResource: ResourceDefinition = defineResource({
  group: 'networking.k8s.io',
  plural: 'servicecidrs',
  kind: 'ServiceCIDR',
  namespaced: false,
  versions: [
    {
      ...version('v1beta1', 'io.k8s.api.networking.v1beta1.ServiceCIDR', {
        table: table([col('CIDRs', 'string', 'IP ranges for cluster IPs'), AGE_COLUMN], (o, now) => [
          arr(rec(o.spec).cidrs).join(','),
          age(o, now),
        ]),
      }),
      enabledByDefault: false,
    },
  ],
  subresources: [statusSubresource('ServiceCIDR')],
  strategy: standardStrategy({
    namespaced: false,
    statusFields: ['status'],
    validate: (o) => {
      const cidrs = arr(rec(o.spec).cidrs);
      if (cidrs.length === 0) return [fieldErrors.required('spec.cidrs', 'at least one CIDR required')];
      if (cidrs.length > 2) return [fieldErrors.tooMany('spec.cidrs', cidrs.length, 2)];
      return [];
    },
    validateUpdate: (o, old) => validateImmutableField(rec(o.spec).cidrs, rec(old.spec).cidrs, 'spec.cidrs'),
  }),
});


export function networkingResources(): ResourceDefinition[] {
  return [ingressClassesResource, ingressesResource, networkPoliciesResource, ipAddressesResource, serviceCIDRsResource];
}
