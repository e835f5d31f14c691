// Client certificates, the authenticating proxy and the token webhook
// (spec 001 "Methods", "Authenticating proxy", "Token-authentication webhook contract").
import { describe, expect, it } from 'vitest';
import { createRequestHeaderAuthenticator, createX509Authenticator } from './x509-and-proxy';
import { createTokenWebhookAuthenticator } from './token-webhook';
import { manualClock } from '../../clock';
import type { AuthnRequest } from '../types';

function req(headers: Record<string, string>, extra: Partial<AuthnRequest> = {}): AuthnRequest {
  const h = new Headers(headers);
  return {
    path: '/api',
    header: (n) => h.get(n),
    headerNames: () => [...h.entries()].map(([k]) => k),
    headerValues: (n) => (h.get(n) === null ? [] : h.get(n)!.split(/,\s*/)),
    ...extra,
  };
}

describe('client certificates', () => {
  it('CN is the user and each O a group', () => {
    const a = createX509Authenticator();
    expect(a.authenticateRequest(req({}, { clientCertificate: { commonName: 'jane', organizations: ['dev', 'ops'] } }))).toEqual({
      status: 'ok',
      authenticator: 'x509',
      user: { username: 'jane', groups: ['dev', 'ops'] },
    });
    expect(a.authenticateRequest(req({}))).toEqual({ status: 'none' });
  });

  it('a verified certificate without CN is not recognised; one that did not verify is an error (401 unless another credential is good)', () => {
    const a = createX509Authenticator();
    expect(a.authenticateRequest(req({}, { clientCertificate: { commonName: '', organizations: ['dev'] } }))).toEqual({ status: 'none' });
    const bad = { ...req({}), clientCertificateError: 'verifying certificate SN=1 failed: x509: certificate signed by unknown authority' };
    expect(a.authenticateRequest(bad)).toEqual({ status: 'error', authenticator: 'x509', error: 'verifying certificate SN=1 failed: x509: certificate signed by unknown authority' });
  });
});

describe('authenticating proxy', () => {
  const a = createRequestHeaderAuthenticator({
    usernameHeaders: ['X-Remote-User'],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-'],
    allowedNames: ['front-proxy-client'],
  });
  const headers = { 'X-Remote-User': 'fido', 'X-Remote-Group': 'dogs, dachshunds', 'X-Remote-Extra-Acme.com%2Fproject': 'some-project', 'X-Remote-Extra-Scopes': 'openid' };

  it('trusts headers only from a verified, allowed proxy', () => {
    expect(a.authenticateRequest(req(headers))).toEqual({ status: 'none' });
    expect(a.authenticateRequest(req(headers, { requestHeaderCertificate: { commonName: 'someone' } }))).toEqual({
      status: 'error',
      authenticator: 'requestheader',
      error: 'x509: subject with cn=someone is not in the allowed list',
    });
    expect(a.authenticateRequest(req(headers, { requestHeaderCertificate: { commonName: 'front-proxy-client' } }))).toEqual({
      status: 'ok',
      authenticator: 'requestheader',
      user: { username: 'fido', groups: ['dogs', 'dachshunds'], extra: { 'acme.com/project': ['some-project'], scopes: ['openid'] } },
    });
  });
});

describe('token webhook', () => {
  it('sends a TokenReview and maps the answer; caches it under a hash', async () => {
    const sent: Record<string, unknown>[] = [];
    const clock = manualClock();
    const a = createTokenWebhookAuthenticator({
      clock,
      send: async (r) => {
        sent.push(r);
        const token = (r.spec as { token: string }).token;
        if (token === 'good') return { status: { authenticated: true, user: { username: 'jane', uid: '42', groups: ['dev'] } } };
        if (token === 'bad') return { status: { authenticated: false, error: 'token revoked' } };
        return { status: { authenticated: false } };
      },
    });
    expect(await a.authenticateToken('good')).toEqual({ status: 'ok', authenticator: 'webhook', user: { username: 'jane', uid: '42', groups: ['dev'] } });
    expect(sent[0]).toEqual({ apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', spec: { token: 'good' } });
    expect(await a.authenticateToken('bad')).toEqual({ status: 'error', authenticator: 'webhook', error: 'token revoked' });
    expect(await a.authenticateToken('unknown')).toEqual({ status: 'none' });
    await a.authenticateToken('good');
    expect(sent).toHaveLength(3);
    clock.advance(121_000);
    await a.authenticateToken('good');
    expect(sent).toHaveLength(4);
  });

  it('checks audiences and fails on a webhook that does not answer', async () => {
    const a = createTokenWebhookAuthenticator({
      clock: manualClock(),
      implicitAudiences: ['api'],
      send: async () => ({ status: { authenticated: true, user: { username: 'jane' }, audiences: ['vault'] } }),
    });
    expect(await a.authenticateToken('t', ['api'])).toEqual({ status: 'none' });
    expect(await a.authenticateToken('t', ['vault'])).toMatchObject({ status: 'ok', audiences: ['vault'] });
    const slow = createTokenWebhookAuthenticator({ clock: manualClock(), timeoutMs: 20, send: () => new Promise(() => {}) });
    expect(await slow.authenticateToken('t')).toEqual({ status: 'error', authenticator: 'webhook', error: 'Failed to make webhook authenticator request: token webhook did not answer in time' });
  });
});
