// A kubeadm-like cluster under Node,RBAC (issue 5: bootstrap tokens and the
// controllers' own identities): the controllers run as their service
// accounts in kube-system, authorized only by the default system:controller:*
// roles, and what they do is what a client of a kubeadm cluster observes —
// the accounts listed in kube-system, cluster-info readable without
// credentials and signed for a signing token, an expired token deleted when
// the Clock moves on, each write recorded under the controller's own name.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test-support/api-harness';
import { ANONYMOUS, secureCluster } from '../../api/access/test-cluster';
import { controllerServiceAccounts, KUBEADM_CONTROLLERS } from '../index';

const SECRETS = '/api/v1/namespaces/kube-system/secrets';
const CLUSTER_INFO = '/api/v1/namespaces/kube-public/configmaps/cluster-info';

describe('kubeadm cluster: bootstrap tokens and controller identities', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await secureCluster({}, { controllers: KUBEADM_CONTROLLERS });
  });
  afterAll(() => ts.close());

  it("lists one ServiceAccount per running kube-controller-manager controller in kube-system", async () => {
    const names = (await ts.get('/api/v1/namespaces/kube-system/serviceaccounts')).body.items.map((sa: { metadata: { name: string } }) => sa.metadata.name);
    // The namespace's `default` (service-account controller) and one account per controller, these among
    // them; kubeadm's add-ons (CoreDNS, kube-proxy) bring their own, which may not exist yet.
    const addOns = ['coredns', 'kube-proxy'];
    expect(names.filter((n: string) => !addOns.includes(n)).sort()).toEqual(['default', ...controllerServiceAccounts(KUBEADM_CONTROLLERS)].sort());
    expect(names).toEqual(expect.arrayContaining(['bootstrap-signer', 'token-cleaner', 'namespace-controller', 'generic-garbage-collector', 'root-ca-cert-publisher']));
  });

  it('serves cluster-info to a client without credentials, and signs it for a signing token', async () => {
    const anonymous = await ts.get(CLUSTER_INFO, ANONYMOUS);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.kubeconfig).toContain('certificate-authority-data: ');
    // Only that one ConfigMap: anything else in kube-public is forbidden to system:anonymous.
    const other = await ts.get('/api/v1/namespaces/kube-public/configmaps/kube-root-ca.crt', ANONYMOUS);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe(
      'configmaps "kube-root-ca.crt" is forbidden: User "system:anonymous" cannot get resource "configmaps" in API group "" in the namespace "kube-public"',
    );

    const expiration = new Date(ts.clock.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await ts.post(SECRETS, {
      metadata: { name: 'bootstrap-token-abcdef' },
      type: 'bootstrap.kubernetes.io/token',
      stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-signing': 'true', expiration },
    });
    expect(created.status).toBe(201);
    await ts.server.idle();
    const signed = (await ts.get(CLUSTER_INFO, ANONYMOUS)).body;
    // kubeadm init's default token signs it too (its id is random).
    const defaultToken = (await ts.get(SECRETS)).body.items.find((s: { metadata: { name: string } }) => s.metadata.name !== 'bootstrap-token-abcdef' && s.metadata.name.startsWith('bootstrap-token-'));
    const defaultKey = `jws-kubeconfig-${atob(defaultToken.data['token-id'])}`;
    expect(Object.keys(signed.data).sort()).toEqual([defaultKey, 'jws-kubeconfig-abcdef', 'kubeconfig'].sort());

    // The write was the bootstrap signer's, as its service account, allowed by its default Role in kube-public.
    const audit = (await ts.get('/kubetab/v1/audit?limit=500')).body.items as { event: Record<string, any> }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const update = audit.find((i) => i.event.verb === 'update' && i.event.objectRef?.name === 'cluster-info');
    expect(update?.event.user.username).toBe('system:serviceaccount:kube-system:bootstrap-signer');
    expect(update?.event.responseStatus.code).toBe(200);

    // The token cleaner (as system:serviceaccount:kube-system:token-cleaner) deletes the token once the Clock passes
    // its expiration; the signature goes with it.
    ts.clock.advance(3_600_000);
    await new Promise((r) => setTimeout(r, 1200)); // the default Clock re-read interval is 1 s
    await ts.server.idle();
    expect((await ts.get(`${SECRETS}/bootstrap-token-abcdef`)).status).toBe(404);
    expect(Object.keys((await ts.get(CLUSTER_INFO)).body.data).sort()).toEqual([defaultKey, 'kubeconfig']);
    const after = (await ts.get('/kubetab/v1/audit?limit=500')).body.items as { event: Record<string, any> }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const deletion = after.find((i) => i.event.verb === 'delete' && i.event.objectRef?.name === 'bootstrap-token-abcdef');
    expect(deletion?.event.user.username).toBe('system:serviceaccount:kube-system:token-cleaner');
    expect(deletion?.event.responseStatus.code).toBe(200);
  });
});
