// The restricted level of the Pod Security Standards as kube-apiserver 1.32
// evaluates it (on top of the baseline checks it does not replace). From
// policy version 1.25 a pod with spec.os.name=windows is exempt from the
// Linux-only checks, as kube's are.

import { validSeccompType } from './baseline-checks';
import {
  ALLOWED,
  containersOf,
  containersPhrase,
  forbidden,
  isWindowsPod,
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

function exemptWindows(check: CheckPod): CheckPod {
  return (meta, spec) => (isWindowsPod(spec) ? ALLOWED : check(meta, spec));
}

const allowPrivilegeEscalation: CheckPod = (_meta, spec) => {
  const bad = containersOf(spec)
    .filter((c) => securityContext(c)?.allowPrivilegeEscalation !== false)
    .map(nameOf);
  return bad.length ? forbidden('allowPrivilegeEscalation != false', `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`) : ALLOWED;
};

const capabilitiesRestricted: CheckPod = (_meta, spec) => {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const caps: string[] = [];
  for (const c of containersOf(spec)) {
    const capabilities = obj(securityContext(c)?.capabilities);
    if (!capabilities) {
      missingDropAll.push(nameOf(c));
      continue;
    }
    const drop = Array.isArray(capabilities.drop) ? capabilities.drop : [];
    if (!drop.includes('ALL')) missingDropAll.push(nameOf(c));
    const add = Array.isArray(capabilities.add) ? capabilities.add.map(String) : [];
    const bad = add.filter((a) => a !== 'NET_BIND_SERVICE');
    if (bad.length) {
      addingForbidden.push(nameOf(c));
      caps.push(...bad);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length) details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedUnique(caps))} in securityContext.capabilities.add`);
  return details.length ? forbidden('unrestricted capabilities', details.join('; ')) : ALLOWED;
};

/** Volume sources the restricted level allows. */
const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
/** The sources kube names when refusing, in its order; anything else is "unknown". */
const NAMED_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

function present(v: Record<string, unknown>, key: string): boolean {
  return v[key] !== undefined && v[key] !== null;
}

const restrictedVolumes: CheckPod = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of list(spec.volumes)) {
    if (ALLOWED_VOLUME_SOURCES.some((k) => present(v, k))) continue;
    bad.push(String(v.name ?? ''));
    types.push(NAMED_VOLUME_SOURCES.find((k) => present(v, k)) ?? 'unknown');
  }
  if (!bad.length) return ALLOWED;
  const unique = sortedUnique(types);
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', unique.length)} ${joinQuote(unique)}`,
  );
};

const runAsNonRoot: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  let podNonRoot = false;
  const podValue = podSecurityContext(spec)?.runAsNonRoot;
  if (podValue === false) setters.push('pod');
  else if (podValue === true) podNonRoot = true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const value = securityContext(c)?.runAsNonRoot;
    if (value === true || value === false) {
      if (value === false) explicit.push(nameOf(c));
    } else if (!podNonRoot) {
      implicit.push(nameOf(c));
    }
  }
  if (explicit.length) setters.push(containersPhrase(explicit));
  if (setters.length) return forbidden('runAsNonRoot != true', `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicit.length) return forbidden('runAsNonRoot != true', `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`);
  return ALLOWED;
};

const runAsUser: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  if (podSecurityContext(spec)?.runAsUser === 0) setters.push('pod');
  const bad = containersOf(spec)
    .filter((c) => securityContext(c)?.runAsUser === 0)
    .map(nameOf);
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length ? forbidden('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`) : ALLOWED;
};

const seccompRestricted: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  let podSet = false;
  const podProfile = obj(podSecurityContext(spec)?.seccompProfile);
  if (podProfile) {
    if (!validSeccompType(podProfile.type)) {
      setters.push('pod');
      values.push(String(podProfile.type ?? ''));
    } else podSet = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const profile = obj(securityContext(c)?.seccompProfile);
    if (profile) {
      if (!validSeccompType(profile.type)) {
        explicit.push(nameOf(c));
        values.push(String(profile.type ?? ''));
      }
    } else if (!podSet) implicit.push(nameOf(c));
  }
  if (explicit.length) setters.push(containersPhrase(explicit));
  if (setters.length) {
    return forbidden('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedUnique(values))}`);
  }
  if (implicit.length) {
    return forbidden('seccompProfile', `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  }
  return ALLOWED;
};

export const RESTRICTED_CHECKS: readonly Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    versions: [
      { minimumMinor: 8, checkPod: allowPrivilegeEscalation },
      { minimumMinor: 25, checkPod: exemptWindows(allowPrivilegeEscalation) },
    ],
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    versions: [
      { minimumMinor: 22, checkPod: capabilitiesRestricted, overrides: ['capabilities_baseline'] },
      { minimumMinor: 25, checkPod: exemptWindows(capabilitiesRestricted), overrides: ['capabilities_baseline'] },
    ],
  },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minimumMinor: 0, checkPod: restrictedVolumes, overrides: ['hostPathVolumes'] }] },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minimumMinor: 0, checkPod: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minimumMinor: 23, checkPod: runAsUser }] },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    versions: [
      { minimumMinor: 19, checkPod: seccompRestricted, overrides: ['seccompProfile_baseline'] },
      { minimumMinor: 25, checkPod: exemptWindows(seccompRestricted), overrides: ['seccompProfile_baseline'] },
    ],
  },
];
