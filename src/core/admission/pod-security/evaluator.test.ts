// The Pod Security Standards checks as kube-apiserver 1.32 reports them:
// reasons, details and their order (baseline checks by ID, then restricted by
// ID), the level/version selection and the label parsing.

import { describe, expect, it } from 'vitest';
import { aggregate, evaluatePod, forbiddenDetail, forbiddenReason, type LevelVersion } from './evaluator';
import { policyToEvaluate } from './policy-labels';
import { podsInNamespaceWarnings } from './namespace-pods';

const restricted: LevelVersion = { level: 'restricted', version: { latest: true } };
const baseline: LevelVersion = { level: 'baseline', version: { latest: true } };
const detail = (lv: LevelVersion, spec: Record<string, unknown>, meta: Record<string, unknown> = {}) => forbiddenDetail(aggregate(evaluatePod(lv, meta, spec)));

describe('restricted:latest (pod security standards, restricted profile)', () => {
  it('lists what a bare `kubectl run` pod misses, in kube order and words', () => {
    expect(detail(restricted, { containers: [{ name: 'p', image: 'nginx' }] })).toBe(
      'allowPrivilegeEscalation != false (container "p" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "p" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "p" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "p" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('allows a pod that follows the profile', () => {
    const spec = {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } } }],
      volumes: [{ name: 'v', emptyDir: {} }],
    };
    expect(aggregate(evaluatePod(restricted, {}, spec)).allowed).toBe(true);
  });

  it('pluralizes containers and names forbidden capabilities sorted', () => {
    const spec = {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      initContainers: [{ name: 'i', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } } }],
      containers: [{ name: 'a', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_RAW', 'CHOWN'] } } }],
    };
    expect(detail(restricted, spec)).toBe('unrestricted capabilities (containers "i", "a" must not include "CHOWN", "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)');
  });

  it('replaces hostPathVolumes with restricted volume types, and reports runAsUser=0 and explicit runAsNonRoot=false', () => {
    const spec = {
      securityContext: { runAsNonRoot: false, runAsUser: 0, seccompProfile: { type: 'Unconfined' } },
      containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
      volumes: [
        { name: 'h', hostPath: { path: '/' } },
        { name: 'n', nfs: { server: 's', path: '/' } },
      ],
    };
    expect(forbiddenReason(aggregate(evaluatePod(restricted, {}, spec)))).toBe('restricted volume types, runAsNonRoot != true, runAsUser=0, seccompProfile');
    expect(detail(restricted, spec)).toContain('restricted volume types (volumes "h", "n" use restricted volume types "hostPath", "nfs")');
    expect(detail(restricted, spec)).toContain('runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)');
    expect(detail(restricted, spec)).toContain('seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")');
  });

  it('exempts windows pods from the Linux-only checks from v1.25 on, not before', () => {
    const spec = { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'c' }] };
    expect(aggregate(evaluatePod(restricted, {}, spec)).allowed).toBe(true);
    const older = aggregate(evaluatePod({ level: 'restricted', version: { latest: false, minor: 24 } }, {}, spec));
    expect(older.reasons).toEqual(['allowPrivilegeEscalation != false', 'unrestricted capabilities', 'seccompProfile']);
  });

  it('applies only the checks that existed at an older version (v1.18: no capabilities, runAsUser, seccomp fields)', () => {
    const old = aggregate(evaluatePod({ level: 'restricted', version: { latest: false, minor: 18 } }, {}, { containers: [{ name: 'c', securityContext: { runAsUser: 0 } }] }));
    expect(old.reasons).toEqual(['allowPrivilegeEscalation != false', 'runAsNonRoot != true']);
  });
});

describe('baseline:latest (pod security standards, baseline profile)', () => {
  it('reports host namespaces, hostPort, privileged and capabilities with kube texts', () => {
    const spec = {
      hostNetwork: true,
      hostPID: true,
      containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }], securityContext: { privileged: true, capabilities: { add: ['NET_ADMIN'] } } }],
      volumes: [{ name: 'v', hostPath: { path: '/' } }],
    };
    expect(detail(baseline, spec)).toBe(
      'non-default capabilities (container "c" must not include "NET_ADMIN" in securityContext.capabilities.add), ' +
        'host namespaces (hostNetwork=true, hostPID=true), ' +
        'hostPath volumes (volume "v"), ' +
        'hostPort (container "c" uses hostPort 8080), ' +
        'privileged (container "c" must not set securityContext.privileged=true)',
    );
  });

  it('reports sysctls, seLinuxOptions, procMount, seccomp, AppArmor and hostProcess', () => {
    const spec = {
      securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }, { name: 'net.ipv4.tcp_rmem', value: '1' }], seLinuxOptions: { type: 'spc_t', user: 'u' } },
      containers: [
        {
          name: 'c',
          securityContext: { procMount: 'Unmasked', seccompProfile: { type: 'Unconfined' }, appArmorProfile: { type: 'Unconfined' }, windowsOptions: { hostProcess: true } },
        },
      ],
    };
    expect(forbiddenDetail(aggregate(evaluatePod(baseline, {}, spec)))).toBe(
      'forbidden AppArmor profile (container "c" must not set AppArmor profile type to "Unconfined"), ' +
        'procMount (container "c" must not set securityContext.procMount to "Unmasked"), ' +
        'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set), ' +
        'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined"), ' +
        'forbidden sysctls (kernel.msgmax), ' +
        'hostProcess (container "c" must not set securityContext.windowsOptions.hostProcess=true)',
    );
  });

  it('allows a plain pod and everything at privileged', () => {
    const spec = { containers: [{ name: 'c', image: 'nginx' }] };
    expect(aggregate(evaluatePod(baseline, {}, spec)).allowed).toBe(true);
    expect(evaluatePod({ level: 'privileged', version: { latest: true } }, {}, { hostPID: true })).toEqual([]);
  });
});

describe('namespace labels (pod-security.kubernetes.io/*)', () => {
  it('defaults to privileged:latest and reads levels and versions', () => {
    const { policy, errors } = policyToEvaluate({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn-version': 'v1.25' });
    expect(errors).toEqual([]);
    expect(policy.enforce).toEqual({ level: 'baseline', version: { latest: true } });
    expect(policy.warn).toEqual({ level: 'privileged', version: { latest: false, minor: 25 } });
  });

  it('reports bad values as field errors; bad enforce is restricted, bad warn fails open', () => {
    const { policy, errors } = policyToEvaluate({ 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn': 'x', 'pod-security.kubernetes.io/audit-version': '1.2' });
    expect(policy.enforce.level).toBe('restricted');
    expect(policy.warn.level).toBe('privileged');
    expect(errors.map((e) => [e.field, e.value, e.detail])).toEqual([
      ['metadata.labels[pod-security.kubernetes.io/enforce]', 'strict', 'must be one of privileged, baseline, restricted'],
      ['metadata.labels[pod-security.kubernetes.io/audit-version]', '1.2', 'must be "latest" or "v1.x"'],
      ['metadata.labels[pod-security.kubernetes.io/warn]', 'x', 'must be one of privileged, baseline, restricted'],
    ]);
  });
});

describe('existing pods against a new enforce level', () => {
  it('groups pods by reasons, names the first, counts the others', () => {
    const pod = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
    const warnings = podsInNamespaceWarnings('ns', baseline, [
      pod('b', { hostPID: true, containers: [{ name: 'c' }] }),
      pod('a', { hostPID: true, containers: [{ name: 'c' }] }),
      pod('c', { hostPID: true, containers: [{ name: 'c' }] }),
      pod('z', { containers: [{ name: 'c', securityContext: { privileged: true } }] }),
      pod('ok', { containers: [{ name: 'c' }] }),
    ]);
    expect(warnings).toEqual(['existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"', 'a (and 2 other pods): host namespaces', 'z: privileged']);
  });
});
