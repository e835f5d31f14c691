// ValidateService / ValidateServiceUpdate (the parts users meet): the name is
// a DNS-1035 label, ports, types, session affinity, ExternalName, node ports
// only where the type allows, and clusterIP frozen once set.

import { fieldErrors, GoLiteral, goStringSlice, type FieldError } from '../../../../errors/field-errors';
import { goQuote } from '../../../../util/go/quote';
import type { KubeObject } from '../../../types';
import { isDNS1123Label, isDNS1123Subdomain, isValidPortName, isValidPortNum } from '../../../validation/names';
import { validateLabels } from '../../../validation/object-meta';
import { arr, rec, str } from '../../common/table';
import { validateEnum } from '../pod-spec/validation';
import { isHeadless } from './defaults';

type Obj = Record<string, unknown>;

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function validatePort(p: Obj, requireName: boolean, path: string, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(p.name);
  if (requireName && !name) errs.push(fieldErrors.required(`${path}.name`));
  else if (name) {
    for (const msg of isDNS1123Label(name)) errs.push(fieldErrors.invalid(`${path}.name`, name, msg));
    if (names.has(name)) errs.push(fieldErrors.duplicate(`${path}.name`, name));
    names.add(name);
  }
  const port = typeof p.port === 'number' ? p.port : 0;
  for (const msg of isValidPortNum(port)) errs.push(fieldErrors.invalid(`${path}.port`, port, msg));
  if (!p.protocol) errs.push(fieldErrors.required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(str(p.protocol))) errs.push(fieldErrors.notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  const target = p.targetPort;
  if (typeof target === 'number') for (const msg of isValidPortNum(target)) errs.push(fieldErrors.invalid(`${path}.targetPort`, target, msg));
  else if (typeof target === 'string') for (const msg of isValidPortName(target)) errs.push(fieldErrors.invalid(`${path}.targetPort`, target, msg));
  if (p.appProtocol !== undefined && p.appProtocol !== null) {
    // appProtocol is a qualified name (validated like a label key).
    const errsAp = validateLabels({ [str(p.appProtocol)]: '' }, `${path}.appProtocol`).map((e) => ({ ...e, field: `${path}.appProtocol` }));
    errs.push(...errsAp);
  }
  return errs;
}

export function validateServiceSpec(svc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = rec(svc.spec);
  const type = str(spec.type);
  const ports = arr(spec.ports).map(rec);
  if (ports.length === 0 && !isHeadless(spec) && type !== 'ExternalName') errs.push(fieldErrors.required('spec.ports'));
  if (type === 'ExternalName') {
    if (arr(spec.clusterIPs).length > 0 && arr(spec.clusterIPs)[0] !== '') errs.push(fieldErrors.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    const externalName = str(spec.externalName).replace(/\.$/, '');
    if (!externalName) errs.push(fieldErrors.required('spec.externalName'));
    else for (const msg of isDNS1123Subdomain(externalName)) errs.push(fieldErrors.invalid('spec.externalName', spec.externalName, msg));
  }
  const names = new Set<string>();
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    errs.push(...validatePort(p, ports.length > 1, `spec.ports[${i}]`, names));
    const key = `${p.port}/${p.protocol}`;
    if (seen.has(key)) errs.push(fieldErrors.duplicate(`spec.ports[${i}]`, servicePortKey(p)));
    seen.add(key);
  });
  validateLabels(spec.selector as Record<string, string> | undefined, 'spec.selector').forEach((e) => errs.push(e));
  errs.push(...validateEnum(spec.sessionAffinity, 'spec.sessionAffinity', ['ClientIP', 'None']));
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = rec(rec(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
    if (typeof timeout === 'number' && (timeout <= 0 || timeout > 86400)) {
      errs.push(fieldErrors.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', timeout, 'must be greater than 0 and less than 86400'));
    }
  } else if (spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null) {
    errs.push(fieldErrors.invalid('spec.sessionAffinityConfig', spec.sessionAffinityConfig, `must not be set when session affinity is ${str(spec.sessionAffinity)}`));
  }
  if (!type) errs.push(fieldErrors.required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) errs.push(fieldErrors.notSupported('spec.type', type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (typeof p.nodePort === 'number' && p.nodePort !== 0) errs.push(fieldErrors.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  if (type === 'LoadBalancer' || type === 'NodePort') {
    if (isHeadless(spec)) errs.push(fieldErrors.invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${type} services`));
  }
  errs.push(...clusterIPErrors(spec));
  if (spec.externalTrafficPolicy) {
    const accessible = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && arr(spec.externalIPs).length > 0);
    if (!accessible) errs.push(fieldErrors.invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, "may only be set for externally-accessible services"));
    else errs.push(...validateEnum(spec.externalTrafficPolicy, 'spec.externalTrafficPolicy', ['Cluster', 'Local']));
  }
  if (spec.internalTrafficPolicy !== undefined && spec.internalTrafficPolicy !== null) {
    errs.push(...validateEnum(spec.internalTrafficPolicy, 'spec.internalTrafficPolicy', ['Cluster', 'Local']));
  }
  errs.push(...ipFamilyErrors(spec));
  return errs;
}

/** The clusterIP/clusterIPs checks (part of kube's ValidateServiceClusterIPsRelatedFields). */
export function clusterIPErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const clusterIPs = arr(spec.clusterIPs).map(String);
  clusterIPs.forEach((ip, i) => {
    if (ip === 'None' && i === 0) return;
    if (ip && !IPV4_RE.test(ip) && !ip.includes(':')) {
      errs.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"));
    }
  });
  if (spec.clusterIP !== undefined && clusterIPs.length && spec.clusterIP !== clusterIPs[0]) {
    errs.push(fieldErrors.invalid('spec.clusterIPs', goStringSlice(clusterIPs), 'must be empty or the first value must match spec.clusterIP'));
  }
  return errs;
}

/** The ipFamilyPolicy/ipFamilies checks (the rest of ValidateServiceClusterIPsRelatedFields used here). */
export function ipFamilyErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
    errs.push(...validateEnum(spec.ipFamilyPolicy, 'spec.ipFamilyPolicy', ['PreferDualStack', 'RequireDualStack', 'SingleStack'], false));
  }
  arr(spec.ipFamilies).forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(fieldErrors.notSupported(`spec.ipFamilies[${i}]`, f, ['IPv4', 'IPv6']));
  });
  return errs;
}

export function validateServiceUpdate(svc: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = rec(svc.spec);
  const oldSpec = rec(old.spec);
  if (spec.type !== 'ExternalName' && oldSpec.type !== 'ExternalName') {
    const now = arr(spec.clusterIPs);
    const before = arr(oldSpec.clusterIPs);
    if (before.length > 0 && now.length > 0 && now[0] !== before[0]) errs.push(fieldErrors.invalid('spec.clusterIPs[0]', goStringSlice(now.map(String)), 'may not change once set'));
    const families = arr(spec.ipFamilies);
    const oldFamilies = arr(oldSpec.ipFamilies);
    if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
      errs.push(fieldErrors.invalid('spec.ipFamilies[0]', families[0], 'may not change once set'));
    }
  }
  return errs;
}

/**
 * The duplicate check keys ports by a core.ServicePort holding only protocol
 * and port, and reports that key with %#v (the other fields at their zero values).
 */
function servicePortKey(p: Record<string, unknown>): GoLiteral {
  const port = typeof p.port === 'number' ? p.port : 0;
  return new GoLiteral(
    `core.ServicePort{Name:"", Protocol:${goQuote(str(p.protocol))}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
  );
}
