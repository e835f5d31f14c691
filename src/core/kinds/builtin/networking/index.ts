// networking.k8s.io: ingresses, ingressclasses and networkpolicies (v1), and
// the v1beta1 ipaddresses and servicecidrs a default 1.32 server leaves off.

import { fieldErrors, GoLiteral, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName, isValidPortName, isValidPortNum, isWildcardDNS1123Subdomain } from '../../validation/names';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, formatLabelSelector, loadBalancerIngress, rec, str, table, type LabelSelector } from '../common/table';
import { validateLabelSelector } from '../common/workload';
import { validateEnum } from '../core/pod-spec/validation';

type Obj = Record<string, unknown>;

// ---- Ingress ----

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

/** validateIngressBackend (1.32): one of service or resource; a service named as a DNS-1035 label with a port name or number. */
function validateBackend(backend: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const hasService = backend.service !== undefined && backend.service !== null;
  const hasResource = backend.resource !== undefined && backend.resource !== null;
  if (hasService && hasResource) return [fieldErrors.invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) {
    const r = rec(backend.resource);
    if (r.apiGroup !== undefined && r.apiGroup !== null) {
      for (const msg of isDNS1123Subdomain(str(r.apiGroup))) errs.push(fieldErrors.invalid(`${path}.resource.apiGroup`, r.apiGroup, msg));
    }
    if (!str(r.kind)) errs.push(fieldErrors.required(`${path}.resource.kind`, 'kind is required'));
    else for (const msg of isValidPathSegmentName(str(r.kind))) errs.push(fieldErrors.invalid(`${path}.resource.kind`, r.kind, msg));
    if (!str(r.name)) errs.push(fieldErrors.required(`${path}.resource.name`, 'name is required'));
    else for (const msg of isValidPathSegmentName(str(r.name))) errs.push(fieldErrors.invalid(`${path}.resource.name`, r.name, msg));
  } else if (hasService) {
    const svc = rec(backend.service);
    const name = str(svc.name);
    // ValidateServiceName is NameIsDNS1035Label.
    if (!name) errs.push(fieldErrors.required(`${path}.service.name`));
    else for (const msg of isDNS1035Label(name)) errs.push(fieldErrors.invalid(`${path}.service.name`, name, msg));
    const port = rec(svc.port);
    const hasName = !!str(port.name);
    const hasNumber = typeof port.number === 'number' && port.number !== 0;
    if (hasName && hasNumber) errs.push(fieldErrors.invalid(path, '', 'cannot set both port name & port number'));
    else if (hasName) for (const msg of isValidPortName(str(port.name))) errs.push(fieldErrors.invalid(`${path}.service.port.name`, port.name, msg));
    else if (hasNumber) for (const msg of isValidPortNum(port.number as number)) errs.push(fieldErrors.invalid(`${path}.service.port.number`, port.number, msg));
    else errs.push(fieldErrors.required(path, 'port name or number is required'));
  } else {
    errs.push(fieldErrors.invalid(path, '', 'resource or service backend is required'));
  }
  return errs;
}

const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

/** validateHTTPIngressPath: a path type is required (and ends the checks when missing). */
function validateIngressPath(hp: Obj, pp: string): FieldError[] {
  if (hp.pathType === undefined || hp.pathType === null) return [fieldErrors.required(`${pp}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const path = str(hp.path);
  switch (hp.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!path.startsWith('/')) errs.push(fieldErrors.invalid(`${pp}.path`, path, 'must be an absolute path'));
      if (path) {
        for (const seq of INVALID_PATH_SEQUENCES) if (path.includes(seq)) errs.push(fieldErrors.invalid(`${pp}.path`, path, `must not contain '${seq}'`));
        for (const suffix of INVALID_PATH_SUFFIXES) if (path.endsWith(suffix)) errs.push(fieldErrors.invalid(`${pp}.path`, path, `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (path && !path.startsWith('/')) errs.push(fieldErrors.invalid(`${pp}.path`, path, 'must be an absolute path'));
      break;
    default:
      errs.push(fieldErrors.notSupported(`${pp}.pathType`, hp.pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(rec(hp.backend), `${pp}.backend`));
  return errs;
}

/** netutils.ParseIPSloppy accepts it: a dotted IPv4 (leading zeros allowed) or an IPv6 address. */
function looksLikeIP(host: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return v4.slice(1).every((o) => Number(o) <= 255);
  if (!host.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(host)) return false;
  const parts = host.split('::');
  if (parts.length > 2) return false;
  const groups = parts.flatMap((p) => (p ? p.split(':') : []));
  const tail = groups[groups.length - 1] ?? '';
  const v4Tail = tail.includes('.');
  if (v4Tail && !looksLikeIP(tail)) return false;
  const hex = v4Tail ? groups.slice(0, -1) : groups;
  if (!hex.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  const count = hex.length + (v4Tail ? 2 : 0);
  return parts.length === 2 ? count < 8 : count === 8;
}

/** Host rules of validateIngressRules and validateIngressTLS: not an IP, a (wildcard) DNS-1123 subdomain. */
function hostErrors(host: string, field: string, rejectIP: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (rejectIP && looksLikeIP(host)) errs.push(fieldErrors.invalid(field, host, 'must be a DNS name, not an IP address'));
  const messages = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
  for (const msg of messages) errs.push(fieldErrors.invalid(field, host, msg));
  return errs;
}

function validateIngress(ing: KubeObject): FieldError[] {
  const spec = rec(ing.spec);
  const errs: FieldError[] = [];
  const rules = arr(spec.rules).map(rec);
  const hasDefault = spec.defaultBackend !== undefined && spec.defaultBackend !== null;
  if (!hasDefault && rules.length === 0) {
    // spec.Rules printed with %#v: nil when left out, empty when given as [].
    const value = new GoLiteral(Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)');
    errs.push(fieldErrors.invalid('spec.rules', value, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (hasDefault) errs.push(...validateBackend(rec(spec.defaultBackend), 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    const p = `spec.rules[${i}]`;
    const host = str(rule.host);
    if (host) errs.push(...hostErrors(host, `${p}.host`, true));
    if (rule.http === undefined || rule.http === null) return;
    const paths = arr(rec(rule.http).paths).map(rec);
    if (paths.length === 0) errs.push(fieldErrors.required(`${p}.http.paths`));
    paths.forEach((hp, j) => errs.push(...validateIngressPath(hp, `${p}.http.paths[${j}]`)));
  });
  arr(spec.tls).forEach((t, i) => {
    arr(rec(t).hosts).forEach((h, j) => errs.push(...hostErrors(String(h), `spec.tls[${i}].hosts[${j}]`, false)));
    const secretName = str(rec(t).secretName);
    if (secretName) for (const msg of isDNS1123Subdomain(secretName)) errs.push(fieldErrors.invalid(`spec.tls[${i}].secretName`, secretName, msg));
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
