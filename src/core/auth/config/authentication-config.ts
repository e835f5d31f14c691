// AuthenticationConfiguration (apiserver.config.k8s.io/v1beta1) validation as
// kube-apiserver 1.32 does it: at most 64 JWT authenticators, unique issuer
// and discovery URLs, https URLs without user/query/fragment, audiences and
// audienceMatchPolicy, claim XOR expression with the required prefix, CEL that
// compiles to the right type, claims.email_verified checked whenever
// claims.email is the username, extra keys (lowercase, domain-prefixed, not
// kubernetes.io / k8s.io), anonymous conditions only when enabled. Also: the
// anonymous field cannot be combined with --anonymous-auth.

import { fieldErrors, childPath, indexPath, type FieldError } from '../../errors/field-errors';
import { compileCel } from '../cel/cel';
import type { AuthenticationConfiguration, JWTAuthenticator } from '../types';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validateUrl(path: string, value: string, disallowed: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  if (disallowed.includes(value)) errs.push(fieldErrors.invalid(path, value, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`));
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    errs.push(fieldErrors.invalid(path, value, `parse ${JSON.stringify(value)}: invalid URI for request`));
    return errs;
  }
  if (u.protocol !== 'https:') errs.push(fieldErrors.invalid(path, value, 'URL scheme must be https'));
  if (/^https?:\/\/[^/]*@/i.test(value)) errs.push(fieldErrors.invalid(path, value, 'URL must not contain a username or password'));
  if (u.search.length > 1) errs.push(fieldErrors.invalid(path, value, 'URL must not contain a query'));
  if (u.hash.length > 1) errs.push(fieldErrors.invalid(path, value, 'URL must not contain a fragment'));
  return errs;
}

/** Whether an expression selects claims.<field> (plain or optional select). */
function selects(expression: string, field: string): boolean {
  return new RegExp(`\\bclaims\\s*\\.\\s*\\??\\s*${field}\\b`).test(expression) || new RegExp(`\\bclaims\\s*\\[\\s*['"]${field}['"]\\s*\\]`).test(expression);
}

function validateJwt(a: JWTAuthenticator, path: string, disallowedIssuers: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const issuer = a.issuer ?? ({} as JWTAuthenticator['issuer']);
  const ip = childPath(path, 'issuer');
  if (!issuer.url) errs.push(fieldErrors.required(childPath(ip, 'url')));
  else errs.push(...validateUrl(childPath(ip, 'url'), issuer.url, disallowedIssuers));
  if (issuer.discoveryURL) {
    if (issuer.url && issuer.url.replace(/\/+$/, '') === issuer.discoveryURL.replace(/\/+$/, '')) {
      errs.push(fieldErrors.invalid(childPath(ip, 'discoveryURL'), issuer.discoveryURL, 'discoveryURL must be different from URL'));
    }
    errs.push(...validateUrl(childPath(ip, 'discoveryURL'), issuer.discoveryURL, []));
  }
  const audiences = issuer.audiences ?? [];
  const ap = childPath(ip, 'audiences');
  if (audiences.length === 0) errs.push(fieldErrors.required(ap, `at least one ${ap} is required`));
  else {
    const seen = new Set<string>();
    audiences.forEach((aud, i) => {
      if (!aud) errs.push(fieldErrors.required(indexPath(ap, i)));
      if (seen.has(aud)) errs.push(fieldErrors.duplicate(indexPath(ap, i), aud));
      seen.add(aud);
    });
    const policy = issuer.audienceMatchPolicy ?? '';
    if (audiences.length > 1 && policy !== 'MatchAny') errs.push(fieldErrors.invalid(childPath(ip, 'audienceMatchPolicy'), policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
    if (audiences.length === 1 && policy && policy !== 'MatchAny') {
      errs.push(fieldErrors.invalid(childPath(ip, 'audienceMatchPolicy'), policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
    }
  }

  let usesEmailVerified = false;
  const compileInto = (p: string, variable: 'claims' | 'user', expr: string, kind: 'bool' | 'string' | 'string-or-list'): void => {
    const r = compileCel(variable, expr, kind);
    if (r.error) errs.push(fieldErrors.invalid(p, expr, r.error));
  };

  const seenClaims = new Set<string>();
  const seenExprs = new Set<string>();
  (a.claimValidationRules ?? []).forEach((rule, i) => {
    const p = indexPath(childPath(path, 'claimValidationRules'), i);
    if (rule.claim && rule.expression) errs.push(fieldErrors.invalid(p, rule.claim, "claim and expression can't both be set"));
    else if (!rule.claim && !rule.expression) errs.push(fieldErrors.required(p, 'claim or expression is required'));
    else if (rule.claim) {
      if (rule.message) errs.push(fieldErrors.invalid(childPath(p, 'message'), rule.message, 'may not be specified when claim is set'));
      if (seenClaims.has(rule.claim)) errs.push(fieldErrors.duplicate(childPath(p, 'claim'), rule.claim));
      seenClaims.add(rule.claim);
    } else if (rule.expression) {
      if (rule.requiredValue) errs.push(fieldErrors.invalid(childPath(p, 'requiredValue'), rule.requiredValue, 'may not be specified when expression is set'));
      if (seenExprs.has(rule.expression)) {
        errs.push(fieldErrors.duplicate(childPath(p, 'expression'), rule.expression));
        return;
      }
      seenExprs.add(rule.expression);
      compileInto(childPath(p, 'expression'), 'claims', rule.expression, 'bool');
      usesEmailVerified ||= selects(rule.expression, 'email_verified');
    }
  });

  const m = a.claimMappings ?? ({} as JWTAuthenticator['claimMappings']);
  const mp = childPath(path, 'claimMappings');
  const prefixed = (name: 'username' | 'groups', required: boolean): void => {
    const mapping = (m as Record<string, { claim?: string; prefix?: string; expression?: string } | undefined>)[name] ?? {};
    const p = childPath(mp, name);
    if (mapping.expression && mapping.claim) errs.push(fieldErrors.invalid(p, '', "claim and expression can't both be set"));
    else if (!mapping.expression && !mapping.claim && required) errs.push(fieldErrors.required(p, 'claim or expression is required'));
    else if (mapping.expression) {
      if (mapping.prefix !== undefined) errs.push(fieldErrors.invalid(childPath(p, 'prefix'), mapping.prefix, 'may not be specified when expression is set'));
      compileInto(childPath(p, 'expression'), 'claims', mapping.expression, name === 'username' ? 'string' : 'string-or-list');
    } else if (mapping.claim && mapping.prefix === undefined) {
      errs.push(fieldErrors.required(childPath(p, 'prefix'), 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
    }
  };
  prefixed('username', true);
  prefixed('groups', false);
  const uid = m.uid ?? {};
  if (uid.claim && uid.expression) errs.push(fieldErrors.invalid(childPath(mp, 'uid'), '', "claim and expression can't both be set"));
  else if (uid.expression) compileInto(childPath(childPath(mp, 'uid'), 'expression'), 'claims', uid.expression, 'string');

  const seenKeys = new Set<string>();
  (m.extra ?? []).forEach((e, i) => {
    const p = indexPath(childPath(mp, 'extra'), i);
    const kp = childPath(p, 'key');
    const slash = (e.key ?? '').indexOf('/');
    if (!e.key) errs.push(fieldErrors.required(kp));
    else if (slash < 0) errs.push(fieldErrors.invalid(kp, e.key, 'must be a domain-prefixed path (such as "acme.io/foo")'));
    else if (!DNS1123_SUBDOMAIN.test(e.key.slice(0, slash)) || e.key.slice(0, slash).length > 253) {
      errs.push(fieldErrors.invalid(kp, e.key.slice(0, slash), "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
    }
    if (e.key && e.key !== e.key.toLowerCase()) errs.push(fieldErrors.invalid(kp, e.key, 'must be lowercase'));
    const domain = slash >= 0 ? e.key.slice(0, slash) : '';
    if (domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io')) {
      errs.push(fieldErrors.invalid(kp, e.key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    }
    if (seenKeys.has(e.key)) {
      errs.push(fieldErrors.duplicate(kp, e.key));
      return;
    }
    seenKeys.add(e.key);
    if (!e.valueExpression) {
      errs.push(fieldErrors.required(childPath(p, 'valueExpression')));
      return;
    }
    compileInto(childPath(p, 'valueExpression'), 'claims', e.valueExpression, 'string-or-list');
    usesEmailVerified ||= selects(e.valueExpression, 'email_verified');
  });
  const usernameExpr = m.username?.expression ?? '';
  usesEmailVerified ||= selects(usernameExpr, 'email_verified');
  if (usernameExpr && selects(usernameExpr, 'email') && !usesEmailVerified) {
    errs.push(
      fieldErrors.invalid(
        childPath(childPath(mp, 'username'), 'expression'),
        usernameExpr,
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }

  const seenUserExprs = new Set<string>();
  (a.userValidationRules ?? []).forEach((rule, i) => {
    const p = childPath(indexPath(childPath(path, 'userValidationRules'), i), 'expression');
    if (!rule.expression) {
      errs.push(fieldErrors.required(p));
      return;
    }
    if (seenUserExprs.has(rule.expression)) {
      errs.push(fieldErrors.duplicate(p, rule.expression));
      return;
    }
    seenUserExprs.add(rule.expression);
    compileInto(p, 'user', rule.expression, 'bool');
  });
  return errs;
}

/** disallowedIssuers: the service-account issuers (--service-account-issuer). */
export function validateAuthenticationConfiguration(cfg: AuthenticationConfiguration, disallowedIssuers: readonly string[] = []): FieldError[] {
  const errs: FieldError[] = [];
  const jwt = cfg.jwt ?? [];
  if (jwt.length > 64) return [fieldErrors.tooMany('jwt', jwt.length, 64)];
  const issuers = new Set<string>();
  const discovery = new Set<string>();
  jwt.forEach((a, i) => {
    const path = indexPath('jwt', i);
    errs.push(...validateJwt(a, path, disallowedIssuers));
    const url = a.issuer?.url ?? '';
    if (issuers.has(url)) errs.push(fieldErrors.duplicate(childPath(childPath(path, 'issuer'), 'url'), url));
    issuers.add(url);
    const d = a.issuer?.discoveryURL;
    if (d) {
      if (discovery.has(d)) errs.push(fieldErrors.duplicate(childPath(childPath(path, 'issuer'), 'discoveryURL'), d));
      discovery.add(d);
    }
  });
  if (cfg.anonymous && !cfg.anonymous.enabled && (cfg.anonymous.conditions ?? []).length) {
    errs.push(fieldErrors.invalid('anonymous.conditions', cfg.anonymous.conditions, 'enabled should be set to true when conditions are defined'));
  }
  return errs;
}

/** The anonymous field of the file and the --anonymous-auth flag are exclusive. */
export function anonymousConflict(cfg: AuthenticationConfiguration | undefined, anonymousAuthFlagSet: boolean): string | undefined {
  if (cfg?.anonymous && anonymousAuthFlagSet) {
    return '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file';
  }
  return undefined;
}
