// The options of startKubeTab: the Node CLI's, as an object. Checked before
// anything starts; a wrong one is an error that names the option and what it
// takes. They become kube-apiserver flags (the core's own vocabulary) and the
// host's settings.

import type { NodeConfig } from '../../core/server';
import { parseNodesFlag, validateTopology } from '../../core/kubelet/node/topology-spec';

export interface KubeTabUser {
  /** The username (kube's user.Info name). */
  readonly name: string;
  /** Its bearer token; generated when absent (kube.users[name] gives it). */
  readonly token?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
}

export interface KubeTabOptions {
  /**
   * No access control: AlwaysAllow over plain http, no credentials needed
   * (the CLI's --open). Default false: secured like a kubeadm cluster —
   * https with a self-signed certificate (its PEM is `kube.ca`),
   * --authorization-mode=Node,RBAC, an administrator token (`kube.token`).
   */
  readonly open?: boolean;
  /** Port on 127.0.0.1 (default 0: a free one). */
  readonly port?: number;
  readonly host?: string;
  /**
   * The simulated nodes, each with a kubelet that runs its pods: a count (a
   * control plane and count-1 workers), roles in order
   * ("control-plane,worker"), or node configurations. Default 1 (kind's
   * default cluster: one control-plane node); 0 or [] for none (pods stay
   * Pending, start-up is fastest).
   */
  readonly nodes?: number | string | readonly Partial<NodeConfig>[];
  /**
   * The controllers, in kube-controller-manager's --controllers syntax
   * ("*", names, "-name"). Default: kubeadm's set. false: none (a bare API
   * server: no namespaces' service accounts, no Deployment rollouts, no
   * garbage collection).
   */
  readonly controllers?: false | readonly string[];
  /** --feature-gates: "A=true,B=false" or { A: true, B: false }. */
  readonly featureGates?: string | Readonly<Record<string, boolean>>;
  /** --runtime-config: "batch/v1=false" or { 'batch/v1': false }. */
  readonly runtimeConfig?: string | Readonly<Record<string, boolean | string>>;
  /** --authorization-mode (default Node,RBAC when secured; ignored with open, which is AlwaysAllow). */
  readonly authorizationMode?: string;
  /** Static users with tokens (a --token-auth-file), besides the administrator. Bind them with RBAC to let them do things. */
  readonly users?: readonly KubeTabUser[];
  /** --cors-allowed-origins: regular expressions of the origins of browser apps that call the server directly. */
  readonly corsAllowedOrigins?: readonly string[];
  /** Any other kube-apiserver flag, by name without dashes (e.g. { 'etcd-compaction-interval': '1m' }). */
  readonly flags?: Readonly<Record<string, string>>;
  /** Where to write the kubeconfig (default: a file in a new temporary directory, removed by close()). */
  readonly kubeconfigPath?: string;
  /** Where controllers and kubelets report what they could not do (default: nowhere). */
  readonly log?: (message: string) => void;
}

const KNOWN = [
  'open',
  'port',
  'host',
  'nodes',
  'controllers',
  'featureGates',
  'runtimeConfig',
  'authorizationMode',
  'users',
  'corsAllowedOrigins',
  'flags',
  'kubeconfigPath',
  'log',
] as const;

/** The host settings the options come to. */
export interface ResolvedOptions {
  readonly open: boolean;
  readonly port: number;
  readonly host: string;
  readonly nodes: NodeConfig[];
  readonly controllers: readonly string[] | undefined;
  /** kube-apiserver flags before the secure defaults are added. */
  readonly flags: Record<string, string>;
  readonly users: readonly KubeTabUser[];
  readonly kubeconfigPath: string | undefined;
  readonly log: (message: string) => void;
}

export class KubeTabOptionsError extends Error {
  constructor(message: string) {
    super(`startKubeTab: ${message}`);
    this.name = 'KubeTabOptionsError';
  }
}

function mapFlag(name: string, value: unknown, option: string): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => {
        if (typeof v !== 'boolean' && typeof v !== 'string') throw new KubeTabOptionsError(`${option}.${k} must be true, false or a string`);
        return `${k}=${String(v)}`;
      })
      .join(',');
  }
  throw new KubeTabOptionsError(`${option} is a string such as "${name === 'feature-gates' ? 'InPlacePodVerticalScaling=true' : 'batch/v1=false'}" or an object`);
}

function nodesOf(value: KubeTabOptions['nodes']): NodeConfig[] {
  try {
    if (value === undefined) return parseNodesFlag('1');
    if (typeof value === 'number') {
      if (!Number.isInteger(value) || value < 0) throw new Error(`a count must be an integer >= 0, not ${value}`);
      return parseNodesFlag(String(value));
    }
    if (typeof value === 'string') return parseNodesFlag(value);
    if (Array.isArray(value)) return value.length === 0 ? [] : validateTopology(value);
    throw new Error('a count, roles ("control-plane,worker") or a list of nodes');
  } catch (error) {
    throw new KubeTabOptionsError(`nodes: ${(error as Error).message}`);
  }
}

export function resolveOptions(input: KubeTabOptions | undefined): ResolvedOptions {
  const options = input ?? {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new KubeTabOptionsError('options must be an object');
  const unknown = Object.keys(options).filter((k) => !(KNOWN as readonly string[]).includes(k));
  if (unknown.length) throw new KubeTabOptionsError(`unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${KNOWN.join(', ')}; other kube-apiserver flags go in "flags")`);
  if (options.open !== undefined && typeof options.open !== 'boolean') throw new KubeTabOptionsError('open must be true or false');
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new KubeTabOptionsError(`port must be an integer from 0 to 65535, not ${JSON.stringify(options.port)}`);

  const flags: Record<string, string> = {};
  if (options.flags !== undefined) {
    if (typeof options.flags !== 'object' || options.flags === null || Array.isArray(options.flags)) throw new KubeTabOptionsError('flags is an object of kube-apiserver flags by name, e.g. { "etcd-compaction-interval": "1m" }');
    for (const [name, value] of Object.entries(options.flags)) {
      if (name.startsWith('-')) throw new KubeTabOptionsError(`flags: write ${JSON.stringify(name)} without its dashes`);
      if (typeof value !== 'string') throw new KubeTabOptionsError(`flags[${JSON.stringify(name)}] must be a string`);
      flags[name] = value;
    }
  }
  if (options.featureGates !== undefined) flags['feature-gates'] = mapFlag('feature-gates', options.featureGates, 'featureGates');
  if (options.runtimeConfig !== undefined) flags['runtime-config'] = mapFlag('runtime-config', options.runtimeConfig, 'runtimeConfig');
  if (options.authorizationMode !== undefined) {
    if (typeof options.authorizationMode !== 'string') throw new KubeTabOptionsError('authorizationMode is a string such as "Node,RBAC"');
    if (options.open) throw new KubeTabOptionsError('authorizationMode and open do not go together: open is AlwaysAllow');
    flags['authorization-mode'] = options.authorizationMode;
  }
  if (options.corsAllowedOrigins !== undefined) {
    if (!Array.isArray(options.corsAllowedOrigins) || options.corsAllowedOrigins.some((o) => typeof o !== 'string')) {
      throw new KubeTabOptionsError('corsAllowedOrigins is a list of regular expressions, e.g. ["^http://localhost(:|$)"]');
    }
    flags['cors-allowed-origins'] = options.corsAllowedOrigins.join(',');
  }

  let controllers: readonly string[] | undefined;
  if (options.controllers === false) controllers = [];
  else if (options.controllers !== undefined) {
    if (!Array.isArray(options.controllers) || options.controllers.some((c) => typeof c !== 'string')) throw new KubeTabOptionsError('controllers is false or a list such as ["*", "-garbage-collector-controller"]');
    controllers = options.controllers;
  }

  const users = options.users ?? [];
  if (!Array.isArray(users)) throw new KubeTabOptionsError('users is a list of { name, token?, groups?, uid? }');
  const names = new Set<string>();
  for (const [i, user] of users.entries()) {
    if (!user || typeof user.name !== 'string' || user.name === '') throw new KubeTabOptionsError(`users[${i}].name must be a non-empty string`);
    if (user.token !== undefined && (typeof user.token !== 'string' || !/^[^\s,"]+$/.test(user.token))) throw new KubeTabOptionsError(`users[${i}].token must be a string without spaces, commas or quotes`);
    if (user.groups !== undefined && (!Array.isArray(user.groups) || user.groups.some((g: unknown) => typeof g !== 'string' || g.includes('"')))) throw new KubeTabOptionsError(`users[${i}].groups must be a list of group names`);
    if (names.has(user.name)) throw new KubeTabOptionsError(`users: ${JSON.stringify(user.name)} is listed twice`);
    names.add(user.name);
  }
  if (users.length && flags['token-auth-file'] !== undefined) throw new KubeTabOptionsError('users and flags["token-auth-file"] do not go together: users are written to a token file of KubeTab\'s own');
  if (options.kubeconfigPath !== undefined && typeof options.kubeconfigPath !== 'string') throw new KubeTabOptionsError('kubeconfigPath must be a path');
  if (options.log !== undefined && typeof options.log !== 'function') throw new KubeTabOptionsError('log must be a function');

  return {
    open: options.open ?? false,
    port,
    host: options.host ?? '127.0.0.1',
    // Without controllers nothing schedules a pod: no nodes unless asked for.
    nodes: options.nodes === undefined && controllers?.length === 0 ? [] : nodesOf(options.nodes),
    controllers,
    flags,
    users,
    kubeconfigPath: options.kubeconfigPath,
    log: options.log ?? (() => undefined),
  };
}
