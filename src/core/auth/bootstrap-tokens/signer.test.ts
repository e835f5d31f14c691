// Bootstrap-signer and token-cleaner (spec 001 "Bootstrap token Secret",
// "States and transitions"): detached HS256 JWS per signing token, verifiable
// by the documented procedure; expired tokens deleted.
import { describe, expect, it } from 'vitest';
import { compactVerify } from 'jose';
import { computeDetachedSignature, signClusterInfo, tokenCleanerPlan } from './signer';
import type { KubeObject } from '../../kinds/types';

const now = Date.UTC(2024, 0, 1);
const secret = (id: string, data: Record<string, string>): KubeObject => ({
  metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system', uid: `uid-${id}` },
  type: 'bootstrap.kubernetes.io/token',
  data: Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': '0123456789abcdef', ...data }).map(([k, v]) => [k, btoa(v)])),
});
const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://10.0.0.1:6443\n  name: ""\n';
const cm: KubeObject = { metadata: { name: 'cluster-info', namespace: 'kube-public' }, data: { kubeconfig, 'jws-kubeconfig-gone00': 'x..y' } };

/** The verification procedure: base64url(payload) between the two dots, HS256. */
async function verify(detached: string, payload: string, key: string): Promise<boolean> {
  const b64 = btoa(payload).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const [h, , s] = detached.split('.');
  try {
    await compactVerify(`${h}.${b64}.${s}`, new TextEncoder().encode(key), { algorithms: ['HS256'] });
    return true;
  } catch {
    return false;
  }
}

describe('bootstrap signer', () => {
  it('signs cluster-info for signing tokens only and drops stale signatures', async () => {
    const data = await signClusterInfo(
      cm,
      [secret('abcdef', { 'usage-bootstrap-signing': 'true' }), secret('nosign', {}), secret('expird', { 'usage-bootstrap-signing': 'true', expiration: '2023-01-01T00:00:00Z' })],
      now,
    );
    expect(Object.keys(data!).sort()).toEqual(['jws-kubeconfig-abcdef', 'kubeconfig']);
    const sig = data!['jws-kubeconfig-abcdef']!;
    expect(sig).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    expect(JSON.parse(atob(sig.split('.')[0]!))).toEqual({ alg: 'HS256', kid: 'abcdef' });
    // The specification's procedure: HS256 keyed with the full token <token-id>.<token-secret>.
    expect(await verify(sig, kubeconfig, 'abcdef.0123456789abcdef')).toBe(true);
    expect(await verify(sig, kubeconfig, '0123456789abcdef')).toBe(false);
    expect(await verify(sig, `${kubeconfig}tampered`, 'abcdef.0123456789abcdef')).toBe(false);
  });

  it("offers kube's own key form, the token secret alone", async () => {
    const sig = await computeDetachedSignature(kubeconfig, 'abcdef', '0123456789abcdef', 'secret');
    expect(await verify(sig, kubeconfig, '0123456789abcdef')).toBe(true);
  });

  it('needs no update when the signatures are current', async () => {
    const first = await signClusterInfo(cm, [secret('abcdef', { 'usage-bootstrap-signing': 'true' })], now);
    expect(await signClusterInfo({ ...cm, data: first }, [secret('abcdef', { 'usage-bootstrap-signing': 'true' })], now)).toBeUndefined();
  });
});

describe('token cleaner', () => {
  it('deletes expired tokens and tells when the next expires', () => {
    expect(
      tokenCleanerPlan(
        [secret('old000', { expiration: '2023-12-31T00:00:00Z' }), secret('new000', { expiration: '2024-02-01T00:00:00Z' }), secret('forevr', {}), secret('bad000', { expiration: 'soon' })],
        now,
      ),
    ).toEqual({ delete: [{ name: 'bootstrap-token-old000', uid: 'uid-old000' }, { name: 'bootstrap-token-bad000', uid: 'uid-bad000' }], nextCheckAt: Date.UTC(2024, 1, 1) });
  });
});
