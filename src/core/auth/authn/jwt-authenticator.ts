// JWT / OpenID Connect authenticators (--oidc-* flags or AuthenticationConfiguration
// jwt[]), as kube-apiserver 1.32 runs them:
// - a token whose unverified `iss` is not issuer.url is not this authenticator's;
// - the signature is checked with the issuer's keys and only the allowed
//   asymmetric algorithms (never "none", never HMAC);
// - `exp` is required and must not have passed; `nbf` may be up to 5 minutes
//   ahead (go-oidc's skew); one of issuer.audiences must be in `aud`;
// - claimValidationRules (claim/requiredValue or CEL over `claims`), then the
//   claim mappings (username required and non-empty; groups, uid, extra), then
//   userValidationRules (CEL over `user`) must all hold.
// Failures are errors (401 Unauthorized for the client); texts never contain the token.

import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTVerifyGetKey } from 'jose';
import { celToPlain, compileCel, type CompiledExpression } from '../cel/cel';
import type { Clock } from '../../clock';
import type { AuthnResult, JWTAuthenticator, TokenAuthenticator, UserInfo } from '../types';

/** Every asymmetric algorithm go-jose verifies (the structured configuration's set). */
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'] as const;
const NBF_SKEW_SECONDS = 300;

export interface JwtAuthenticatorDeps {
  readonly config: JWTAuthenticator;
  /** The issuer's keys (jose createLocalJWKSet / createRemoteJWKSet, or the built-in test issuer). */
  readonly keys: JWTVerifyGetKey;
  readonly clock: Clock;
  /** Allowed algorithms; default: all asymmetric ones (flags: --oidc-signing-algs, default RS256). */
  readonly algorithms?: readonly string[];
  /** The name shown in traces. */
  readonly name?: string;
}

interface Compiled {
  validations: { claim?: string; requiredValue?: string; expr?: CompiledExpression; message?: string }[];
  username: { claim?: string; prefix: string; expr?: CompiledExpression };
  groups?: { claim?: string; prefix: string; expr?: CompiledExpression };
  uid?: { claim?: string; expr?: CompiledExpression };
  extra: { key: string; expr: CompiledExpression }[];
  userRules: { expr: CompiledExpression; message?: string }[];
}

function compileOrThrow(variable: 'claims' | 'user', expression: string, kind: 'bool' | 'string' | 'string-or-list'): CompiledExpression {
  const r = compileCel(variable, expression, kind);
  if (!r.compiled) throw new Error(`${expression}: ${r.error}`);
  return r.compiled;
}

function compile(config: JWTAuthenticator): Compiled {
  const m = config.claimMappings;
  return {
    validations: (config.claimValidationRules ?? []).map((r) =>
      r.expression
        ? { expr: compileOrThrow('claims', r.expression, 'bool'), ...(r.message ? { message: r.message } : {}) }
        : { claim: r.claim ?? '', requiredValue: r.requiredValue ?? '' },
    ),
    username: m.username.expression
      ? { prefix: '', expr: compileOrThrow('claims', m.username.expression, 'string') }
      : { claim: m.username.claim ?? '', prefix: m.username.prefix ?? '' },
    ...(m.groups && (m.groups.claim || m.groups.expression)
      ? { groups: m.groups.expression ? { prefix: '', expr: compileOrThrow('claims', m.groups.expression, 'string-or-list') } : { claim: m.groups.claim!, prefix: m.groups.prefix ?? '' } }
      : {}),
    ...(m.uid && (m.uid.claim || m.uid.expression) ? { uid: m.uid.expression ? { expr: compileOrThrow('claims', m.uid.expression, 'string') } : { claim: m.uid.claim! } } : {}),
    extra: (m.extra ?? []).map((e) => ({ key: e.key, expr: compileOrThrow('claims', e.valueExpression, 'string-or-list') })),
    userRules: (config.userValidationRules ?? []).map((r) => ({ expr: compileOrThrow('user', r.expression, 'bool'), ...(r.message ? { message: r.message } : {}) })),
  };
}

class ClaimError extends Error {}

function evalString(expr: CompiledExpression, claims: unknown, what: string): string {
  const v = celToPlain(expr.evaluate(claims));
  if (typeof v !== 'string') throw new ClaimError(`oidc: error evaluating ${what} claim expression: expression '${expr.expression}' did not return a string`);
  return v;
}

function evalStrings(expr: CompiledExpression, claims: unknown, what: string): string[] {
  const v = celToPlain(expr.evaluate(claims));
  if (typeof v === 'string') return v === '' ? [] : [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.filter((x) => x !== '') as string[];
  throw new ClaimError(`oidc: error evaluating ${what} claim expression: expression '${expr.expression}' did not return a string or a list of strings`);
}

function evalRule(expr: CompiledExpression, value: unknown, describe: string, message?: string): void {
  let v: unknown;
  try {
    v = expr.evaluate(value);
  } catch (err) {
    throw new ClaimError(`oidc: error evaluating ${describe}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  if (v !== true) throw new ClaimError(`oidc: error evaluating ${describe}: ${message ?? `expression '${expr.expression}' resulted in error`}`);
}

export function createJwtAuthenticator(deps: JwtAuthenticatorDeps): TokenAuthenticator {
  const cfg = deps.config;
  const compiled = compile(cfg);
  const algorithms = [...(deps.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  const name = deps.name ?? `jwt:${cfg.issuer.url}`;
  const fail = (error: string): AuthnResult => ({ status: 'error', authenticator: name, error });

  return {
    name,
    async authenticateToken(token) {
      if (token.split('.').length !== 3) return { status: 'none' };
      let unverified: Record<string, unknown>;
      try {
        unverified = decodeJwt(token) as Record<string, unknown>;
      } catch {
        return { status: 'none' };
      }
      if (unverified.iss !== cfg.issuer.url) return { status: 'none' };
      let alg: string | undefined;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        return fail('oidc: malformed jwt header');
      }
      if (!alg || !algorithms.includes(alg)) return fail(`oidc: id token signed with unsupported algorithm, expected [${algorithms.join(' ')}] got ${JSON.stringify(alg ?? '')}`);
      let claims: Record<string, unknown>;
      try {
        const { payload } = await compactVerify(token, deps.keys, { algorithms });
        claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
      } catch {
        return fail('oidc: verify token: failed to verify signature');
      }
      const now = deps.clock.now();
      if (typeof claims.exp !== 'number' || claims.exp * 1000 < now) return fail('oidc: verify token: oidc: token is expired');
      if (typeof claims.nbf === 'number' && now + NBF_SKEW_SECONDS * 1000 < claims.nbf * 1000) return fail('oidc: verify token: oidc: current time before the nbf (not before) time');
      const aud = Array.isArray(claims.aud) ? claims.aud : typeof claims.aud === 'string' ? [claims.aud] : [];
      if (!cfg.issuer.audiences.some((a) => aud.includes(a))) {
        return fail(`oidc: verify token: oidc: expected audience in ${JSON.stringify(cfg.issuer.audiences)} got ${JSON.stringify(aud)}`);
      }
      try {
        const user = mapUser(claims);
        return { status: 'ok', authenticator: name, user };
      } catch (err) {
        if (err instanceof ClaimError) return fail(err.message);
        return fail(`oidc: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      }
    },
  };

  function mapUser(claims: Record<string, unknown>): UserInfo {
    for (const v of compiled.validations) {
      if (v.expr) {
        evalRule(v.expr, claims, 'claim validation expression', v.message);
        continue;
      }
      const value = claims[v.claim!];
      if (value === undefined) throw new ClaimError(`oidc: required claim ${v.claim} not present in ID token`);
      if (value !== v.requiredValue) throw new ClaimError(`oidc: required claim ${v.claim} value does not match. Got = ${String(value)}, want = ${v.requiredValue}`);
    }

    let username: string;
    if (compiled.username.expr) {
      username = evalString(compiled.username.expr, claims, 'username');
      if (username === '') throw new ClaimError('oidc: empty username via CEL expression is not allowed');
    } else {
      const claim = compiled.username.claim!;
      const value = claims[claim];
      if (value === undefined) throw new ClaimError(`oidc: parse username claims "${claim}": claim not present`);
      if (typeof value !== 'string') throw new ClaimError(`oidc: parse username claims "${claim}": json: cannot unmarshal into string`);
      if (claim === 'email' && claims.email_verified !== undefined && claims.email_verified !== true) {
        throw new ClaimError(`oidc: email not verified`);
      }
      username = compiled.username.prefix + value;
    }

    let groups: string[] = [];
    const g = compiled.groups;
    if (g?.expr) groups = evalStrings(g.expr, claims, 'groups');
    else if (g?.claim) {
      const value = claims[g.claim];
      if (typeof value === 'string') groups = [g.prefix + value];
      else if (Array.isArray(value) && value.every((x) => typeof x === 'string')) groups = (value as string[]).map((x) => g.prefix + x);
      else if (value !== undefined) throw new ClaimError(`oidc: parse groups claim "${g.claim}": json: cannot unmarshal into []string`);
    }

    let uid = '';
    if (compiled.uid?.expr) uid = evalString(compiled.uid.expr, claims, 'uid');
    else if (compiled.uid?.claim) {
      const value = claims[compiled.uid.claim];
      if (value !== undefined && typeof value !== 'string') throw new ClaimError(`oidc: parse uid claim "${compiled.uid.claim}": json: cannot unmarshal into string`);
      uid = (value as string | undefined) ?? '';
    }

    const extra: Record<string, string[]> = {};
    for (const e of compiled.extra) {
      const values = evalStrings(e.expr, claims, 'extra');
      if (values.length) extra[e.key] = values;
    }

    const user: UserInfo = { username, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
    if (compiled.userRules.length) {
      const celUser = { username, uid, groups, extra };
      for (const r of compiled.userRules) evalRule(r.expr, celUser, 'user info validation rule', r.message);
    }
    return user;
  }
}

/** The --oidc-* flags as a JWTAuthenticator, as kube-apiserver converts them. */
export function jwtAuthenticatorFromOidcFlags(flags: {
  'oidc-issuer-url': string;
  'oidc-client-id': string;
  'oidc-username-claim'?: string;
  'oidc-username-prefix'?: string;
  'oidc-groups-claim'?: string;
  'oidc-groups-prefix'?: string;
  'oidc-required-claim'?: readonly string[];
}): JWTAuthenticator {
  const claim = flags['oidc-username-claim'] || 'sub';
  let prefix = flags['oidc-username-prefix'];
  // Unset: claims other than email get the issuer as prefix; "-" disables prefixing.
  if (prefix === undefined || prefix === '') prefix = claim === 'email' ? '' : `${flags['oidc-issuer-url']}#`;
  if (prefix === '-') prefix = '';
  const cfg: JWTAuthenticator = {
    issuer: { url: flags['oidc-issuer-url'], audiences: [flags['oidc-client-id']] },
    claimMappings: { username: { claim, prefix } },
  };
  if (flags['oidc-groups-claim']) cfg.claimMappings.groups = { claim: flags['oidc-groups-claim'], prefix: flags['oidc-groups-prefix'] ?? '' };
  const required = flags['oidc-required-claim'] ?? [];
  if (required.length) {
    cfg.claimValidationRules = required.map((kv) => {
      const eq = kv.indexOf('=');
      return { claim: kv.slice(0, eq), requiredValue: kv.slice(eq + 1) };
    });
  }
  return cfg;
}
