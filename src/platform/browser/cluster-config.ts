// The browser cluster's configuration: ONE stored document holding what
// kube-apiserver takes from its flags and the files they name —
// the authorization chain (--authorization-config), the authentication
// configuration (--authentication-config), the static tokens
// (--token-auth-file), feature gates, runtime-config, any other flag, and the
// files those name (webhook kubeconfigs, an ABAC policy). The worker turns it
// into the flags and readFile of createApiServer (see toServerInput) and
// restarts the core with it when it changes.
//
// It also holds the simulated nodes (the topology: one kubelet each), which
// are not kube-apiserver flags but the machines of the cluster; a change to
// them is applied by the same restart.
//
// This module is shared by the page and the worker: types, presets and the
// translation only, nothing from the core but the topology's plain data
// (validation, which needs the core, is in cluster-config-validation.ts, used
// by the worker).

import { DEFAULT_TOPOLOGY, type NodeConfig } from '../../core/kubelet/topology';

export type { NodeConfig };

/** One line of the --token-auth-file: token,user,uid,"group1,group2". */
export interface StaticToken {
  token: string;
  user: string;
  uid: string;
  groups?: string[];
}

export interface ClusterConfiguration {
  apiVersion: 'kubetab.dev/v1';
  kind: 'ClusterConfiguration';
  /** An AuthorizationConfiguration (apiserver.config.k8s.io/v1); absent: kube's default, AlwaysAllow. */
  authorization?: Record<string, unknown>;
  /** An AuthenticationConfiguration (apiserver.config.k8s.io/v1beta1). */
  authentication?: Record<string, unknown>;
  /** Bearer tokens of static users. The first user in system:masters is the UI's administrator. */
  tokens?: StaticToken[];
  /** --feature-gates, e.g. {AllowUnsafeMalformedObjectDeletion: true}. */
  featureGates?: Record<string, boolean>;
  /** --runtime-config, e.g. {"batch/v1": "false"}. */
  runtimeConfig?: Record<string, string>;
  /** Any other kube-apiserver flag by its name without dashes, e.g. {"etcd-compaction-interval": "5m0s"}. */
  flags?: Record<string, string>;
  /** Files the configurations name by absolute path (webhook kubeconfigs, an ABAC policy file). */
  files?: Record<string, string>;
  /**
   * The simulated nodes, each with its kubelet (name, role, cpu, memory,
   * ephemeralStorage, maxPods, zone; role alone is enough, the rest default
   * as kind's shape). Absent: kind's default, a control plane and two
   * workers; [] is a bare API server without nodes.
   */
  nodes?: NodeConfig[];
}

export const CONFIGURATION_API_VERSION = 'kubetab.dev/v1';
export const CONFIGURATION_KIND = 'ClusterConfiguration';

/** The user kubeadm's admin.conf names; the UI's administrator in the secure set-up. */
export const ADMIN_USER = 'kubernetes-admin';
export const MASTERS_GROUP = 'system:masters';

/** The in-cluster address of the API server plus the test issuer's path (see src/core/api/access/test-issuer-endpoint.ts). */
export const TEST_ISSUER_URL = 'https://kubernetes.default.svc.cluster.local/kubetab/v1/oidc';
/** The audience the UI's OIDC identities ask the test issuer for. */
export const TEST_ISSUER_AUDIENCE = 'kubetab';

/** Where the files generated from the document are read from (only the core sees these paths). */
export const CONFIG_PATHS = {
  authorization: '/etc/kubernetes/authorization-config.yaml',
  authentication: '/etc/kubernetes/authentication-config.yaml',
  tokens: '/etc/kubernetes/tokens.csv',
} as const;

/** A random bearer token (32 bytes, base64url), as a generated token file would hold. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A JWT authenticator trusting the built-in test issuer; usernames and groups get an `oidc:` prefix so nobody becomes system:*. */
export function testIssuerAuthenticator(): Record<string, unknown> {
  return {
    issuer: { url: TEST_ISSUER_URL, audiences: [TEST_ISSUER_AUDIENCE] },
    claimMappings: {
      username: { claim: 'sub', prefix: 'oidc:' },
      groups: { claim: 'groups', prefix: 'oidc:' },
    },
  };
}

/**
 * The default: a secure cluster as kubeadm sets one up — Node,RBAC, anonymous
 * requests on (RBAC lets them reach only the health and version endpoints), an
 * administrator in system:masters, two ordinary users for the lessons, and the
 * test issuer trusted for OIDC users.
 */
export function secureConfiguration(): ClusterConfiguration {
  return {
    apiVersion: CONFIGURATION_API_VERSION,
    kind: CONFIGURATION_KIND,
    authorization: {
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AuthorizationConfiguration',
      authorizers: [
        { type: 'Node', name: 'node' },
        { type: 'RBAC', name: 'rbac' },
      ],
    },
    authentication: {
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthenticationConfiguration',
      jwt: [testIssuerAuthenticator()],
    },
    tokens: [
      { token: randomToken(), user: ADMIN_USER, uid: ADMIN_USER, groups: [MASTERS_GROUP] },
      { token: randomToken(), user: 'jane', uid: 'jane', groups: ['developers'] },
      { token: randomToken(), user: 'bob', uid: 'bob', groups: [] },
    ],
    // kubeadm turns bootstrap tokens on (kubeadm join authenticates with them).
    flags: { 'enable-bootstrap-token-auth': 'true' },
    featureGates: {},
    runtimeConfig: {},
  };
}

/**
 * The open set-up: no access-control flags at all, kube-apiserver's defaults
 * (AlwaysAllow); requests without credentials are served with no user, as
 * `npm run serve -- --open` does.
 */
export function openConfiguration(previous?: ClusterConfiguration): ClusterConfiguration {
  return {
    apiVersion: CONFIGURATION_API_VERSION,
    kind: CONFIGURATION_KIND,
    featureGates: { ...(previous?.featureGates ?? {}) },
    runtimeConfig: { ...(previous?.runtimeConfig ?? {}) },
    ...(previous?.nodes ? { nodes: structuredClone(previous.nodes) } : {}),
  };
}

/** The nodes the document stands for (kind's default when it names none). */
export function nodesOf(config: ClusterConfiguration): readonly NodeConfig[] {
  return config.nodes ?? DEFAULT_TOPOLOGY;
}

/** The static user the UI sends as its administrator: the first in system:masters. */
export function administratorOf(config: ClusterConfiguration): StaticToken | undefined {
  return config.tokens?.find((t) => t.groups?.includes(MASTERS_GROUP));
}

/** True when the document sets no access control (the open set-up). */
export function isOpen(config: ClusterConfiguration): boolean {
  const accessFlags = Object.keys(config.flags ?? {}).some((f) => /^(authorization-|anonymous-auth$|token-auth-file$|authentication-|oidc-|enable-bootstrap-token-auth$)/.test(f));
  return !config.authorization && !config.authentication && !(config.tokens?.length) && !accessFlags;
}

/** A CSV field as Go's encoding/csv reads it: quoted when it holds a comma, quote or space. */
function csvField(value: string): string {
  return /[",\s]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function tokenFileText(tokens: readonly StaticToken[]): string {
  return tokens
    .map((t) => {
      const fields = [t.token, t.user, t.uid];
      if (t.groups?.length) fields.push(t.groups.join(','));
      return fields.map(csvField).join(',');
    })
    .join('\n')
    .concat(tokens.length ? '\n' : '');
}

export interface ServerInput {
  readonly flags: Record<string, string>;
  readonly files: Record<string, string>;
}

/** The kube-apiserver flags and files the document stands for. */
export function toServerInput(config: ClusterConfiguration): ServerInput {
  const flags: Record<string, string> = { ...(config.flags ?? {}) };
  const files: Record<string, string> = { ...(config.files ?? {}) };
  if (config.authorization) {
    flags['authorization-config'] = CONFIG_PATHS.authorization;
    files[CONFIG_PATHS.authorization] = JSON.stringify(config.authorization, null, 2);
  }
  if (config.authentication) {
    flags['authentication-config'] = CONFIG_PATHS.authentication;
    files[CONFIG_PATHS.authentication] = JSON.stringify(config.authentication, null, 2);
  }
  if (config.tokens?.length) {
    flags['token-auth-file'] = CONFIG_PATHS.tokens;
    files[CONFIG_PATHS.tokens] = tokenFileText(config.tokens);
  }
  const gates = Object.entries(config.featureGates ?? {});
  if (gates.length) flags['feature-gates'] = gates.map(([name, on]) => `${name}=${String(on)}`).join(',');
  const runtime = Object.entries(config.runtimeConfig ?? {});
  if (runtime.length) flags['runtime-config'] = runtime.map(([key, value]) => (value === '' ? key : `${key}=${value}`)).join(',');
  return { flags, files };
}
