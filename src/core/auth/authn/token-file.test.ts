// Static token file and bootstrap tokens (spec 001, "Methods": static token
// file; bootstrap token; "Bootstrap token Secret").
import { describe, expect, it } from 'vitest';
import { createStaticTokenAuthenticator, parseTokenFile } from './token-file';
import { createBootstrapTokenAuthenticator } from './bootstrap-token';
import { constantTimeEqual } from './constant-time';
import { manualClock } from '../../clock';
import type { KubeObject } from '../../kinds/types';

describe('static token file', () => {
  it('parses token,user,uid,"groups" lines as kube does', () => {
    const { entries, warnings } = parseTokenFile(
      ['t1,alice,uid-1,"dev,ops"', '', 't2, bob ,uid-2', ',nobody,uid-3', 't1,alice2,uid-4,admins'].join('\n'),
      'tokens.csv',
    );
    expect(entries.map((e) => e.user)).toEqual([
      { username: 'alice2', uid: 'uid-4', groups: ['admins'] },
      { username: 'bob ', uid: 'uid-2', groups: [] },
    ]);
    expect(warnings).toEqual([
      "empty token has been found in token file 'tokens.csv', record number '3'",
      "duplicate token has been found in token file 'tokens.csv', record number '4'",
    ]);
  });

  it('refuses lines with fewer than 3 columns and bad quoting', () => {
    expect(() => parseTokenFile('t1,alice', 'f.csv')).toThrow("token file 'f.csv' must have at least 3 columns (token, user name, user uid), found 2");
    expect(() => parseTokenFile('t"1,alice,u')).toThrow('parse error on line 1, column 2: bare " in non-quoted field');
  });

  it('authenticates known tokens only', async () => {
    const a = createStaticTokenAuthenticator(parseTokenFile('secret-token,alice,uid-1,"dev"').entries);
    expect(await a.authenticateToken('secret-token')).toMatchObject({ status: 'ok', user: { username: 'alice', uid: 'uid-1', groups: ['dev'] } });
    expect(await a.authenticateToken('secret-tokeN')).toEqual({ status: 'none' });
  });

  it('compares in constant time without early exit on content', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('bootstrap tokens', () => {
  const b64 = (s: string): string => btoa(s);
  const clock = manualClock(Date.UTC(2024, 0, 1));
  function secret(data: Record<string, string>, extra: Partial<KubeObject> = {}): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' },
      type: 'bootstrap.kubernetes.io/token',
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
      ...extra,
    };
  }
  const good = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };
  const authWith = (s: KubeObject | undefined) =>
    createBootstrapTokenAuthenticator({ clock, getSecret: (ns, name) => (ns === 'kube-system' && name === 'bootstrap-token-abcdef' ? s : undefined) });

  it('accepts a valid token as system:bootstrap:<id> with sorted extra groups', async () => {
    const a = authWith(secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token,system:bootstrappers:a' }));
    expect(await a.authenticateToken('abcdef.0123456789abcdef')).toMatchObject({
      status: 'ok',
      user: { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:kubeadm:default-node-token'] },
    });
  });

  it('ignores tokens of another shape', async () => {
    const a = authWith(secret(good));
    expect(await a.authenticateToken('ABCDEF.0123456789abcdef')).toEqual({ status: 'none' });
    expect(await a.authenticateToken('abcdef.0123456789abcde')).toEqual({ status: 'none' });
  });

  it('refuses a wrong secret, expiry, missing usage, bad groups, wrong type', async () => {
    const token = 'abcdef.0123456789abcdef';
    expect((await authWith(secret({ ...good, 'token-secret': '0123456789abcdee' })).authenticateToken(token)).status).toBe('error');
    expect((await authWith(secret({ ...good, expiration: '2023-12-31T23:59:59Z' })).authenticateToken(token)).status).toBe('error');
    expect((await authWith(secret({ ...good, expiration: '2024-01-01T00:00:01Z' })).authenticateToken(token)).status).toBe('ok');
    // Unparsable expiration counts as expired.
    expect((await authWith(secret({ ...good, expiration: 'tomorrow' })).authenticateToken(token)).status).toBe('error');
    expect((await authWith(secret({ ...good, 'usage-bootstrap-authentication': 'false' })).authenticateToken(token)).status).toBe('error');
    const badGroups = await authWith(secret({ ...good, 'auth-extra-groups': 'system:masters' })).authenticateToken(token);
    expect(badGroups.error).toBe('bootstrap group "system:masters" is invalid (must match ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$)');
    expect((await authWith(secret(good, { type: 'Opaque' })).authenticateToken(token)).status).toBe('error');
    expect((await authWith(undefined).authenticateToken(token)).status).toBe('error');
  });

  it('never puts the token secret in an error', async () => {
    const r = await authWith(secret({ ...good, 'token-secret': 'ffffffffffffffff' })).authenticateToken('abcdef.0123456789abcdef');
    expect(r.error).not.toContain('0123456789abcdef');
  });
});
