// Validation of the cluster configuration document before the worker saves
// it: the document's own shape, then each embedded configuration with
// kube-apiserver's validators (AuthorizationConfiguration: names required,
// webhook timeout at most 30s, at most 64 match conditions…;
// AuthenticationConfiguration: at most 64 JWT authenticators, https issuers…),
// feature gates and runtime-config as kube parses them, and finally the
// access-control start-up itself (loadAccessConfig), whose errors are the
// texts kube-apiserver exits with; the node topology as the Node host checks
// --nodes-config. Field paths are the document's.
//
// Worker-side only: it imports the core.

import {
  compileCel,
  defaultAuthorizationConfiguration,
  validateAuthenticationConfiguration,
  validateAuthorizationConfiguration,
  type AuthenticationConfiguration,
  type AuthorizationConfiguration,
} from '../../core/auth';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, loadAccessConfig } from '../../core/api/access';
import { FeatureGates } from '../../core/api/feature-gates';
import { parseRuntimeConfig } from '../../core/api/runtime-config';
import { fieldErrorString, type FieldError } from '../../core/errors/field-errors';
import { validateTopology } from '../../core/kubelet/node/topology-spec';
import { administratorOf, CONFIGURATION_API_VERSION, CONFIGURATION_KIND, isOpen, toServerInput, type ClusterConfiguration } from './cluster-config';

export interface ConfigurationProblem {
  /** Path in the document ('' for the document as a whole). */
  readonly field: string;
  readonly message: string;
}

export interface ConfigurationValidation {
  readonly valid: boolean;
  readonly problems: ConfigurationProblem[];
  /** What kube-apiserver would log at start (not errors). */
  readonly warnings: string[];
}

const TOP_LEVEL = new Set(['apiVersion', 'kind', 'authorization', 'authentication', 'tokens', 'featureGates', 'runtimeConfig', 'flags', 'files', 'nodes']);
const MAX_NODES = 100;
const AUTHORIZATION_VERSIONS = ['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1'];
const AUTHENTICATION_VERSIONS = ['apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.config.k8s.io/v1'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fromFieldErrors(prefix: string, errors: readonly FieldError[]): ConfigurationProblem[] {
  return errors.map((e) => ({ field: e.field ? `${prefix}.${e.field}` : prefix, message: fieldErrorString({ ...e, field: e.field ? `${prefix}.${e.field}` : prefix }) }));
}

function checkKind(doc: Record<string, unknown>, path: string, kind: string, versions: readonly string[]): ConfigurationProblem[] {
  const problems: ConfigurationProblem[] = [];
  if (doc.kind !== kind) problems.push({ field: `${path}.kind`, message: `${path}.kind: Unsupported value: ${JSON.stringify(doc.kind ?? '')}: supported values: "${kind}"` });
  if (!versions.includes(String(doc.apiVersion))) {
    problems.push({ field: `${path}.apiVersion`, message: `${path}.apiVersion: Unsupported value: ${JSON.stringify(doc.apiVersion ?? '')}: supported values: ${versions.map((v) => JSON.stringify(v)).join(', ')}` });
  }
  return problems;
}

function shapeProblems(doc: Record<string, unknown>): ConfigurationProblem[] {
  const problems: ConfigurationProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message: `${field}: ${message}` });
  if (doc.apiVersion !== CONFIGURATION_API_VERSION) add('apiVersion', `Unsupported value: ${JSON.stringify(doc.apiVersion ?? '')}: supported values: "${CONFIGURATION_API_VERSION}"`);
  if (doc.kind !== CONFIGURATION_KIND) add('kind', `Unsupported value: ${JSON.stringify(doc.kind ?? '')}: supported values: "${CONFIGURATION_KIND}"`);
  for (const key of Object.keys(doc)) if (!TOP_LEVEL.has(key)) add(key, 'Forbidden: unknown field');
  for (const key of ['authorization', 'authentication'] as const) {
    if (doc[key] !== undefined && !isObject(doc[key])) add(key, 'Invalid value: must be an object');
  }
  if (doc.tokens !== undefined) {
    if (!Array.isArray(doc.tokens)) add('tokens', 'Invalid value: must be a list');
    else {
      const seen = new Set<string>();
      doc.tokens.forEach((t: unknown, i) => {
        const p = `tokens[${i}]`;
        if (!isObject(t)) return add(p, 'Invalid value: must be an object');
        for (const f of ['token', 'user', 'uid'] as const) {
          if (typeof t[f] !== 'string' || t[f] === '') add(`${p}.${f}`, 'Required value');
        }
        if (typeof t.token === 'string' && t.token) {
          if (seen.has(t.token)) add(`${p}.token`, 'Duplicate value: (the token of another user)');
          seen.add(t.token);
          if (/[\s,"]/.test(t.token)) add(`${p}.token`, 'Invalid value: a token cannot contain spaces, commas or quotes');
        }
        if (t.groups !== undefined && (!Array.isArray(t.groups) || t.groups.some((g) => typeof g !== 'string' || g === '' || g.includes(',')))) {
          add(`${p}.groups`, 'Invalid value: must be a list of group names (no commas)');
        }
      });
    }
  }
  const mapOf = (key: string, type: 'boolean' | 'string') => {
    const value = doc[key];
    if (value === undefined) return;
    if (!isObject(value)) return add(key, 'Invalid value: must be a map');
    for (const [k, v] of Object.entries(value)) if (typeof v !== type) add(`${key}.${k}`, `Invalid value: must be a ${type}`);
  };
  mapOf('featureGates', 'boolean');
  mapOf('runtimeConfig', 'string');
  mapOf('flags', 'string');
  mapOf('files', 'string');
  if (isObject(doc.files)) for (const path of Object.keys(doc.files)) if (!path.startsWith('/')) add(`files[${path}]`, 'Invalid value: must be an absolute path');
  if (isObject(doc.flags)) {
    // The document's own sections stand for these flags; giving both would be ambiguous.
    const owned: Record<string, string> = { 'authorization-config': 'authorization', 'authentication-config': 'authentication', 'token-auth-file': 'tokens', 'feature-gates': 'featureGates', 'runtime-config': 'runtimeConfig' };
    for (const [flag, section] of Object.entries(owned)) if (flag in doc.flags) add(`flags.${flag}`, `Forbidden: set ${section} instead`);
  }
  if (doc.nodes !== undefined) {
    const problem = topologyProblem(doc.nodes);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The first problem of a node list (the Node host's --nodes-config check), its field taken from the message. */
function topologyProblem(nodes: unknown): ConfigurationProblem | undefined {
  // The same bound as --nodes: each node is a kubelet running in this worker.
  if (Array.isArray(nodes) && nodes.length > MAX_NODES) return { field: 'nodes', message: `nodes: Too many: ${nodes.length}: must have at most ${MAX_NODES} items` };
  try {
    validateTopology(nodes);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const field = /^(nodes\[\d+\]\.\w+):/.exec(message)?.[1] ?? 'nodes';
    return { field, message: field === 'nodes' ? `nodes: ${message}` : message };
  }
}

/** Validates a document as the worker would start the server with it. */
export async function validateConfiguration(input: unknown): Promise<ConfigurationValidation> {
  if (!isObject(input)) return { valid: false, problems: [{ field: '', message: 'the configuration must be an object (kind: ClusterConfiguration)' }], warnings: [] };
  const problems = shapeProblems(input);
  if (problems.length) return { valid: false, problems, warnings: [] };
  const doc = input as unknown as ClusterConfiguration;

  const compile = (expression: string) => compileCel('request', expression, 'bool').error;
  if (doc.authorization) {
    const authz = doc.authorization;
    const kindProblems = checkKind(authz, 'authorization', 'AuthorizationConfiguration', AUTHORIZATION_VERSIONS);
    problems.push(...kindProblems);
    if (!kindProblems.length) {
      problems.push(...fromFieldErrors('authorization', validateAuthorizationConfiguration(defaultAuthorizationConfiguration(authz as unknown as AuthorizationConfiguration), compile)));
    }
  }
  if (doc.authentication) {
    const authn = doc.authentication;
    const kindProblems = checkKind(authn, 'authentication', 'AuthenticationConfiguration', AUTHENTICATION_VERSIONS);
    problems.push(...kindProblems);
    const issuers = (doc.flags?.['service-account-issuer'] ?? DEFAULT_SERVICE_ACCOUNT_ISSUER).split(',').map((s) => s.trim()).filter(Boolean);
    if (!kindProblems.length) problems.push(...fromFieldErrors('authentication', validateAuthenticationConfiguration(authn as unknown as AuthenticationConfiguration, issuers)));
  }
  const { flags, files } = toServerInput(doc);
  try {
    new FeatureGates(flags['feature-gates']);
  } catch (err) {
    problems.push({ field: 'featureGates', message: `featureGates: ${(err as Error).message}` });
  }
  try {
    if (flags['runtime-config']) parseRuntimeConfig(flags['runtime-config']);
  } catch (err) {
    problems.push({ field: 'runtimeConfig', message: `runtimeConfig: ${(err as Error).message}` });
  }
  if (problems.length) return { valid: false, problems, warnings: [] };

  // What is left is what only starting would show (flags combined, files named, keys): kube's start-up errors.
  try {
    const config = await loadAccessConfig(flags, async (path) => {
      const text = files[path];
      if (text === undefined) throw new Error('no such file or directory');
      return text;
    });
    const warnings = [...config.warnings];
    if (!isOpen(doc) && !administratorOf(doc)) warnings.push('no static token user is in system:masters: the app will have no administrator to send requests as');
    return { valid: true, problems: [], warnings };
  } catch (err) {
    return { valid: false, problems: [{ field: '', message: err instanceof Error ? err.message : String(err) }], warnings: [] };
  }
}
