// The baseline level of the Pod Security Standards as kube-apiserver 1.32
// evaluates it: each check's forbidden reason and detail texts are kube's, so
// that a refusal reads exactly as a real cluster's.

import {
  ALLOWED,
  containersOf,
  containersPhrase,
  forbidden,
  joinQuote,
  list,
  nameOf,
  obj,
  pluralize,
  podSecurityContext,
  securityContext,
  sortedUnique,
  type Check,
  type CheckPod,
} from './check-types';

const hostNamespaces: CheckPod = (_meta, spec) => {
  const found: string[] = [];
  if (spec.hostNetwork === true) found.push('hostNetwork=true');
  if (spec.hostPID === true) found.push('hostPID=true');
  if (spec.hostIPC === true) found.push('hostIPC=true');
  return found.length ? forbidden('host namespaces', found.join(', ')) : ALLOWED;
};

const privileged: CheckPod = (_meta, spec) => {
  const bad = containersOf(spec)
    .filter((c) => securityContext(c)?.privileged === true)
    .map(nameOf);
  return bad.length ? forbidden('privileged', `${containersPhrase(bad)} must not set securityContext.privileged=true`) : ALLOWED;
};

const DEFAULT_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

const capabilitiesBaseline: CheckPod = (_meta, spec) => {
  const bad: string[] = [];
  const caps: string[] = [];
  for (const c of containersOf(spec)) {
    const capabilities = obj(securityContext(c)?.capabilities);
    if (!capabilities) continue;
    const added = Array.isArray(capabilities.add) ? capabilities.add.map(String) : [];
    const nonDefault = added.filter((a) => !DEFAULT_CAPABILITIES.has(a));
    if (nonDefault.length) {
      bad.push(nameOf(c));
      caps.push(...nonDefault);
    }
  }
  return bad.length
    ? forbidden('non-default capabilities', `${containersPhrase(bad)} must not include ${joinQuote(sortedUnique(caps))} in securityContext.capabilities.add`)
    : ALLOWED;
};

const hostPathVolumes: CheckPod = (_meta, spec) => {
  const bad = list(spec.volumes)
    .filter((v) => v.hostPath !== undefined && v.hostPath !== null)
    .map((v) => String(v.name ?? ''));
  return bad.length ? forbidden('hostPath volumes', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`) : ALLOWED;
};

const hostPorts: CheckPod = (_meta, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containersOf(spec)) {
    const used = list(c.ports)
      .map((p) => p.hostPort)
      .filter((p): p is number => typeof p === 'number' && p !== 0);
    if (used.length) {
      bad.push(nameOf(c));
      ports.push(...used.map(String));
    }
  }
  if (!bad.length) return ALLOWED;
  const unique = sortedUnique(ports);
  return forbidden(
    'hostPort',
    `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', unique.length)} ${unique.join(', ')}`,
  );
};

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

function allowedAppArmorType(type: unknown): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

const appArmorProfile: CheckPod = (meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  const podProfile = obj(podSecurityContext(spec)?.appArmorProfile);
  if (podProfile && !allowedAppArmorType(podProfile.type)) {
    setters.push('pod');
    values.push(String(podProfile.type ?? ''));
  }
  const badContainers: string[] = [];
  for (const c of containersOf(spec)) {
    const profile = obj(securityContext(c)?.appArmorProfile);
    if (profile && !allowedAppArmorType(profile.type)) {
      badContainers.push(nameOf(c));
      values.push(String(profile.type ?? ''));
    }
  }
  if (badContainers.length) setters.push(containersPhrase(badContainers));
  const badValues = sortedUnique(values);
  const annotations = obj(meta.annotations) ?? {};
  const badAnnotations = Object.entries(annotations)
    .filter(([k, v]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !(v === '' || v === 'runtime/default' || String(v).startsWith('localhost/')))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .sort();
  if (badAnnotations.length) {
    badValues.push(...badAnnotations);
    setters.push(pluralize('annotation', 'annotations', badAnnotations.length));
  }
  if (!setters.length) return ALLOWED;
  return forbidden(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValues.length),
    `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValues)}`,
  );
};

const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

const seLinuxOptions: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (opts: Record<string, unknown>): boolean => {
    let ok = true;
    const type = typeof opts.type === 'string' ? opts.type : '';
    if (!SELINUX_TYPES.has(type)) {
      ok = false;
      badTypes.push(type);
    }
    if (typeof opts.user === 'string' && opts.user) {
      ok = false;
      setUser = true;
    }
    if (typeof opts.role === 'string' && opts.role) {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const podOpts = obj(podSecurityContext(spec)?.seLinuxOptions);
  if (podOpts && !valid(podOpts)) setters.push('pod');
  const bad = containersOf(spec)
    .filter((c) => {
      const opts = obj(securityContext(c)?.seLinuxOptions);
      return opts ? !valid(opts) : false;
    })
    .map(nameOf);
  if (bad.length) setters.push(containersPhrase(bad));
  if (!setters.length) return ALLOWED;
  // kube lists user/role only alongside a bad type (its formatting quirk, kept).
  const data: string[] = [];
  const types = sortedUnique(badTypes);
  if (types.length) {
    data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
  }
  return forbidden('seLinuxOptions', `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`);
};

const procMount: CheckPod = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containersOf(spec)) {
    const value = securityContext(c)?.procMount;
    if (value === undefined || value === null) continue;
    if (value !== 'Default') {
      bad.push(nameOf(c));
      types.push(String(value));
    }
  }
  return bad.length ? forbidden('procMount', `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedUnique(types))}`) : ALLOWED;
};

export function validSeccompType(type: unknown): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

function validSeccompAnnotation(value: string): boolean {
  return value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');
}

/** Before 1.19 the profile lived in alpha annotations. */
const seccompBaselineAnnotations: CheckPod = (meta, spec) => {
  const annotations = obj(meta.annotations) ?? {};
  const bad: string[] = [];
  const podValue = annotations[SECCOMP_POD_ANNOTATION];
  if (typeof podValue === 'string' && !validSeccompAnnotation(podValue)) bad.push(`${SECCOMP_POD_ANNOTATION}=${JSON.stringify(podValue)}`);
  for (const c of containersOf(spec)) {
    const key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + nameOf(c);
    const value = annotations[key];
    if (typeof value === 'string' && !validSeccompAnnotation(value)) bad.push(`${key}=${JSON.stringify(value)}`);
  }
  const sorted = sortedUnique(bad);
  return sorted.length ? forbidden('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', sorted.length)} ${sorted.join(', ')}`) : ALLOWED;
};

const seccompBaseline: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  const podProfile = obj(podSecurityContext(spec)?.seccompProfile);
  if (podProfile && !validSeccompType(podProfile.type)) {
    setters.push('pod');
    values.push(String(podProfile.type ?? ''));
  }
  const bad: string[] = [];
  for (const c of containersOf(spec)) {
    const profile = obj(securityContext(c)?.seccompProfile);
    if (profile && !validSeccompType(profile.type)) {
      bad.push(nameOf(c));
      values.push(String(profile.type ?? ''));
    }
  }
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length
    ? forbidden('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedUnique(values))}`)
    : ALLOWED;
};

const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_29 = [...SYSCTLS_1_0, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctls(allowed: readonly string[]): CheckPod {
  const set = new Set(allowed);
  return (_meta, spec) => {
    const bad = list(podSecurityContext(spec)?.sysctls)
      .map((s) => String(s.name ?? ''))
      .filter((n) => !set.has(n));
    return bad.length ? forbidden('forbidden sysctls', bad.join(', ')) : ALLOWED;
  };
}

const windowsHostProcess: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  if (obj(podSecurityContext(spec)?.windowsOptions)?.hostProcess === true) setters.push('pod');
  const bad = containersOf(spec)
    .filter((c) => obj(securityContext(c)?.windowsOptions)?.hostProcess === true)
    .map(nameOf);
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length ? forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`) : ALLOWED;
};

export const BASELINE_CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: appArmorProfile }] },
  { id: 'capabilities_baseline', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: capabilitiesBaseline }] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostNamespaces }] },
  { id: 'hostPathVolumes', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostPorts }] },
  { id: 'privileged', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: privileged }] },
  { id: 'procMount', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: procMount }] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: seLinuxOptions }] },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: seccompBaselineAnnotations },
      { minimumMinor: 19, checkPod: seccompBaseline },
    ],
  },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: sysctls(SYSCTLS_1_0) },
      { minimumMinor: 29, checkPod: sysctls(SYSCTLS_1_29) },
      { minimumMinor: 32, checkPod: sysctls(SYSCTLS_1_32) },
    ],
  },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: windowsHostProcess }] },
];
