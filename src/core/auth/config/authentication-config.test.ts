// AuthenticationConfiguration validation (spec 001 "AuthenticationConfiguration":
// at most 64 JWT authenticators, unique issuers, prefix with claim, CEL,
// email_verified, extra keys, anonymous conditions).
import { describe, expect, it } from 'vitest';
import { anonymousConflict, validateAuthenticationConfiguration } from './authentication-config';
import { fieldErrorString } from '../../errors/field-errors';
import type { AuthenticationConfiguration, JWTAuthenticator } from '../types';

const jwt = (over: Partial<JWTAuthenticator> = {}): JWTAuthenticator => ({
  issuer: { url: 'https://issuer.example.com', audiences: ['kubetab'] },
  claimMappings: { username: { claim: 'sub', prefix: '' } },
  ...over,
});
const cfg = (j: JWTAuthenticator[], extra: Partial<AuthenticationConfiguration> = {}): AuthenticationConfiguration => ({
  apiVersion: 'apiserver.config.k8s.io/v1beta1',
  kind: 'AuthenticationConfiguration',
  jwt: j,
  ...extra,
});
const texts = (c: AuthenticationConfiguration, disallowed: string[] = []) => validateAuthenticationConfiguration(c, disallowed).map(fieldErrorString);

describe('AuthenticationConfiguration validation', () => {
  it('accepts a valid configuration', () => {
    expect(texts(cfg([jwt()]))).toEqual([]);
  });

  it('limits JWT authenticators to 64', () => {
    expect(texts(cfg(Array.from({ length: 65 }, (_, i) => jwt({ issuer: { url: `https://i${i}.example.com`, audiences: ['a'] } }))))).toEqual([
      'jwt: Too many: 65: must have at most 64 items',
    ]);
  });

  it('checks issuer URLs and audiences', () => {
    expect(
      texts(
        cfg([
          jwt({ issuer: { url: 'http://insecure.example.com?x=1', audiences: [] } }),
          jwt({ issuer: { url: 'https://issuer.example.com', audiences: ['a', 'b'] } }),
          jwt({ issuer: { url: 'https://issuer.example.com', audiences: ['a'] } }),
        ]),
        ['https://kubernetes.default.svc'],
      ),
    ).toEqual([
      'jwt[0].issuer.url: Invalid value: "http://insecure.example.com?x=1": URL scheme must be https',
      'jwt[0].issuer.url: Invalid value: "http://insecure.example.com?x=1": URL must not contain a query',
      'jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required',
      'jwt[1].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
      'jwt[2].issuer.url: Duplicate value: "https://issuer.example.com"',
    ]);
    expect(texts(cfg([jwt({ issuer: { url: 'https://kubernetes.default.svc', audiences: ['a'] } })]), ['https://kubernetes.default.svc'])).toEqual([
      'jwt[0].issuer.url: Invalid value: "https://kubernetes.default.svc": URL must not overlap with disallowed issuers: [https://kubernetes.default.svc]',
    ]);
  });

  it('checks claim mappings: prefix with claim, claim XOR expression, CEL types, email_verified', () => {
    expect(texts(cfg([jwt({ claimMappings: { username: { claim: 'sub' } } })]))).toEqual([
      'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    ]);
    expect(texts(cfg([jwt({ claimMappings: { username: { claim: 'sub', prefix: '', expression: 'claims.sub' } } })]))).toEqual([
      'jwt[0].claimMappings.username: Invalid value: "": claim and expression can\'t both be set',
    ]);
    expect(texts(cfg([jwt({ claimMappings: { username: { expression: '1 + 2' } } })]))).toEqual([
      'jwt[0].claimMappings.username.expression: Invalid value: "1 + 2": must evaluate to string',
    ]);
    expect(texts(cfg([jwt({ claimMappings: { username: { expression: 'claims.email' } } })]))).toEqual([
      'jwt[0].claimMappings.username.expression: Invalid value: "claims.email": claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
    ]);
    expect(texts(cfg([jwt({ claimMappings: { username: { expression: 'claims.email' } }, claimValidationRules: [{ expression: 'claims.email_verified == true' }] })]))).toEqual([]);
  });

  it('checks extra keys and user validation rules', () => {
    expect(
      texts(
        cfg([
          jwt({
            claimMappings: {
              username: { claim: 'sub', prefix: '' },
              extra: [
                { key: 'Example.com/Foo', valueExpression: 'claims.foo' },
                { key: 'kubernetes.io/foo', valueExpression: 'claims.foo' },
                { key: 'example.com/bar', valueExpression: '' },
              ],
            },
            userValidationRules: [{ expression: 'user.username ==' }],
          }),
        ]),
      ),
    ).toEqual([
      expect.stringMatching(/^jwt\[0\]\.claimMappings\.extra\[0\]\.key: Invalid value: "Example\.com": a lowercase RFC 1123 subdomain/),
      'jwt[0].claimMappings.extra[0].key: Invalid value: "Example.com/Foo": must be lowercase',
      'jwt[0].claimMappings.extra[1].key: Invalid value: "kubernetes.io/foo": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use',
      'jwt[0].claimMappings.extra[2].valueExpression: Required value',
      expect.stringMatching(/^jwt\[0\]\.userValidationRules\[0\]\.expression: Invalid value: "user\.username ==": compilation failed/),
    ]);
  });

  it('anonymous: conditions need enabled; the field excludes --anonymous-auth', () => {
    expect(texts(cfg([], { anonymous: { enabled: false, conditions: [{ path: '/livez' }] } }))).toHaveLength(1);
    expect(anonymousConflict(cfg([], { anonymous: { enabled: true } }), true)).toBe(
      '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
    );
    expect(anonymousConflict(cfg([]), true)).toBeUndefined();
  });
});
