// The authorizer chain's configuration: --authorization-config
// (AuthorizationConfiguration, apiserver.config.k8s.io/v1) or the legacy
// --authorization-mode / --authorization-policy-file / --authorization-webhook-*
// flags, never both. Validation and texts are kube-apiserver 1.32's; the
// legacy flags are converted into an AuthorizationConfiguration as kube does
// (names are the lower-case modes, the webhook "webhook" with a 30 s timeout
// and failurePolicy NoOpinion).

import { fieldErrors, aggregateFieldErrors, childPath, indexPath, type FieldError } from '../../errors/field-errors';
import { formatGoDuration, parseGoDuration } from './duration';
import type { AuthorizationConfiguration, AuthorizerConfiguration, WebhookAuthorizerConfiguration } from '../types';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
const REPEATABLE = new Set(['Webhook']);
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** v1 defaulting: authorizedTTL 5m0s, unauthorizedTTL 30s. */
export function defaultAuthorizationConfiguration(cfg: AuthorizationConfiguration): AuthorizationConfiguration {
  return {
    ...cfg,
    authorizers: (cfg.authorizers ?? []).map((a) =>
      a.webhook ? { ...a, webhook: { authorizedTTL: '5m0s', unauthorizedTTL: '30s', ...a.webhook } } : a,
    ),
  };
}

function validateWebhook(path: string, w: WebhookAuthorizerConfiguration, compileMatchCondition?: (expr: string) => string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const timeout = w.timeout ? parseGoDuration(w.timeout) : 0;
  if (!timeout) errs.push(fieldErrors.required(childPath(path, 'timeout')));
  else if (timeout > 30_000 || timeout < 0) errs.push(fieldErrors.invalid(childPath(path, 'timeout'), formatGoDuration(timeout), 'must be > 0s and <= 30s'));
  for (const key of ['authorizedTTL', 'unauthorizedTTL'] as const) {
    const d = w[key] ? parseGoDuration(w[key]!) : 0;
    if (!d) errs.push(fieldErrors.required(childPath(path, key)));
    else if (d < 0) errs.push(fieldErrors.invalid(childPath(path, key), formatGoDuration(d), 'must be > 0s'));
  }
  if (!w.subjectAccessReviewVersion) errs.push(fieldErrors.required(childPath(path, 'subjectAccessReviewVersion')));
  else if (!['v1', 'v1beta1'].includes(w.subjectAccessReviewVersion)) {
    errs.push(fieldErrors.notSupported(childPath(path, 'subjectAccessReviewVersion'), w.subjectAccessReviewVersion, ['v1', 'v1beta1']));
  }
  const conditions = w.matchConditions ?? [];
  if (!w.matchConditionSubjectAccessReviewVersion) {
    if (conditions.length) errs.push(fieldErrors.required(childPath(path, 'matchConditionSubjectAccessReviewVersion'), 'required if match conditions are specified'));
  } else if (w.matchConditionSubjectAccessReviewVersion !== 'v1') {
    errs.push(fieldErrors.notSupported(childPath(path, 'matchConditionSubjectAccessReviewVersion'), w.matchConditionSubjectAccessReviewVersion, ['v1']));
  }
  if (!w.failurePolicy) errs.push(fieldErrors.required(childPath(path, 'failurePolicy')));
  else if (!['NoOpinion', 'Deny'].includes(w.failurePolicy)) errs.push(fieldErrors.notSupported(childPath(path, 'failurePolicy'), w.failurePolicy, ['NoOpinion', 'Deny']));
  const ci = w.connectionInfo ?? ({} as WebhookAuthorizerConfiguration['connectionInfo']);
  if (!ci.type) errs.push(fieldErrors.required(childPath(path, 'connectionInfo.type')));
  else if (ci.type === 'InClusterConfig') {
    if (ci.kubeConfigFile !== undefined) errs.push(fieldErrors.invalid(childPath(path, 'connectionInfo.kubeConfigFile'), ci.kubeConfigFile, 'can only be set when type=KubeConfigFile'));
  } else if (ci.type === 'KubeConfigFile') {
    if (!ci.kubeConfigFile) errs.push(fieldErrors.required(childPath(path, 'connectionInfo.kubeConfigFile')));
    else if (!ci.kubeConfigFile.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(ci.kubeConfigFile)) {
      // KubeTab also accepts a URL or an in-app rule set here (browser webhooks); a plain path must be absolute.
      errs.push(fieldErrors.invalid(childPath(path, 'connectionInfo.kubeConfigFile'), ci.kubeConfigFile, 'must be an absolute path'));
    }
  } else {
    errs.push(fieldErrors.notSupported(childPath(path, 'connectionInfo.type'), ci.type, ['InClusterConfig', 'KubeConfigFile']));
  }
  if (conditions.length > 64) {
    errs.push(fieldErrors.tooMany(childPath(path, 'matchConditions'), conditions.length, 64));
    return errs;
  }
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const p = childPath(indexPath(childPath(path, 'matchConditions'), i), 'expression');
    if (!c.expression?.trim()) {
      errs.push(fieldErrors.required(p));
      return;
    }
    if (seen.has(c.expression)) {
      errs.push(fieldErrors.duplicate(p, c.expression));
      return;
    }
    seen.add(c.expression);
    const problem = compileMatchCondition?.(c.expression);
    if (problem) errs.push(fieldErrors.invalid(p, c.expression, problem));
  });
  return errs;
}

/**
 * ValidateAuthorizationConfiguration. `compileMatchCondition` returns a
 * compile error text for a CEL expression, if any (see ../cel).
 */
export function validateAuthorizationConfiguration(cfg: AuthorizationConfiguration, compileMatchCondition?: (expr: string) => string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const authorizers = cfg.authorizers ?? [];
  if (authorizers.length === 0) errs.push(fieldErrors.required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  authorizers.forEach((a: AuthorizerConfiguration, i) => {
    const path = indexPath('authorizers', i);
    if (!a.type) {
      errs.push(fieldErrors.required(childPath(path, 'type')));
      return;
    }
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(a.type)) {
      errs.push(fieldErrors.notSupported(childPath(path, 'type'), a.type, [...AUTHORIZATION_MODES].sort()));
      return;
    }
    if (seenTypes.has(a.type) && !REPEATABLE.has(a.type)) {
      errs.push(fieldErrors.duplicate(childPath(path, 'type'), a.type));
      return;
    }
    seenTypes.add(a.type);
    if (!a.name) errs.push(fieldErrors.required(childPath(path, 'name')));
    else if (seenNames.has(a.name)) errs.push(fieldErrors.duplicate(childPath(path, 'name'), a.name));
    else if (a.name.length > 253 || !DNS1123_SUBDOMAIN.test(a.name)) {
      const why =
        a.name.length > 253
          ? 'must be no more than 253 characters'
          : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
      errs.push(fieldErrors.invalid(childPath(path, 'name'), a.name, `authorizer name is invalid: ${why}`));
    }
    seenNames.add(a.name);
    if (a.type === 'Webhook') {
      if (!a.webhook) errs.push(fieldErrors.required(childPath(path, 'webhook'), 'required when type=Webhook'));
      else errs.push(...validateWebhook(childPath(path, 'webhook'), a.webhook, compileMatchCondition));
    } else if (a.webhook) {
      errs.push(fieldErrors.invalid(childPath(path, 'webhook'), 'non-null', 'may only be specified when type=Webhook'));
    }
  });
  return errs;
}

/** The flags of kube-apiserver that configure authorization. */
export interface AuthorizationFlags {
  'authorization-config'?: string;
  'authorization-mode'?: string;
  'authorization-policy-file'?: string;
  'authorization-webhook-config-file'?: string;
  'authorization-webhook-version'?: string;
  'authorization-webhook-cache-authorized-ttl'?: string;
  'authorization-webhook-cache-unauthorized-ttl'?: string;
}

/**
 * What the flags configure, or the start-up errors kube-apiserver reports.
 * `loadConfig` reads and decodes the --authorization-config file.
 */
export function authorizationConfigurationFromFlags(
  flags: AuthorizationFlags,
  loadConfig?: (path: string) => AuthorizationConfiguration,
  compileMatchCondition?: (expr: string) => string | undefined,
): { config?: AuthorizationConfiguration; errors: string[] } {
  const legacySet =
    flags['authorization-mode'] !== undefined ||
    flags['authorization-webhook-config-file'] !== undefined ||
    flags['authorization-webhook-version'] !== undefined ||
    flags['authorization-webhook-cache-authorized-ttl'] !== undefined ||
    flags['authorization-webhook-cache-unauthorized-ttl'] !== undefined;
  if (flags['authorization-config']) {
    if (legacySet) return { errors: ['--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined'] };
    if (!loadConfig) return { errors: ['--authorization-config given but no way to read it'] };
    let cfg: AuthorizationConfiguration;
    try {
      cfg = defaultAuthorizationConfiguration(loadConfig(flags['authorization-config']));
    } catch (err) {
      return { errors: [err instanceof Error ? err.message : String(err)] };
    }
    const errs = validateAuthorizationConfiguration(cfg, compileMatchCondition);
    return errs.length ? { errors: [aggregateFieldErrors(errs)] } : { config: cfg, errors: [] };
  }
  // kube-apiserver's default is AlwaysAllow when nothing is configured.
  const modes = (flags['authorization-mode'] ?? 'AlwaysAllow').split(',').map((m) => m.trim()).filter((m) => m !== '');
  const errors: string[] = [];
  if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const mode of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) errors.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    if (mode === 'ABAC' && !flags['authorization-policy-file']) errors.push("authorization-mode ABAC's authorization policy file not passed");
    if (mode === 'Webhook' && !flags['authorization-webhook-config-file']) errors.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (flags['authorization-policy-file'] && !modes.includes('ABAC')) errors.push('cannot specify --authorization-policy-file without mode ABAC');
  if (flags['authorization-webhook-config-file'] && !modes.includes('Webhook')) errors.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(modes).size !== modes.length) errors.push(`authorization-mode [${modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`);
  if (errors.length) return { errors };
  const authorizers: AuthorizerConfiguration[] = modes.map((mode) => {
    if (mode !== 'Webhook') return { type: mode, name: mode.toLowerCase() };
    const authorized = parseGoDuration(flags['authorization-webhook-cache-authorized-ttl'] ?? '5m') ?? 300_000;
    const unauthorized = parseGoDuration(flags['authorization-webhook-cache-unauthorized-ttl'] ?? '30s') ?? 30_000;
    return {
      type: 'Webhook',
      name: 'webhook',
      webhook: {
        authorizedTTL: formatGoDuration(authorized),
        unauthorizedTTL: formatGoDuration(unauthorized),
        timeout: '30s',
        failurePolicy: 'NoOpinion',
        subjectAccessReviewVersion: flags['authorization-webhook-version'] === 'v1' ? 'v1' : 'v1beta1',
        matchConditionSubjectAccessReviewVersion: 'v1',
        connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: flags['authorization-webhook-config-file']! },
      },
    };
  });
  return { config: { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers }, errors: [] };
}
