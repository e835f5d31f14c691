// startControllers: which controllers run (kube-controller-manager's --controllers
// syntax), the identity their requests carry, stop() and idle().

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/api-harness';
import { selectControllers, startControllers, CONTROLLER_NAMES } from './index';

let ts: TestServer | undefined;
afterEach(async () => ts?.close());

// kube-controller-manager's ControllersDisabledByDefault (and kubeadm's cluster-info, KubeTab's own) stay out of '*'.
const OFF_BY_DEFAULT = ['bootstrap-signer-controller', 'token-cleaner-controller', 'kubeadm-cluster-info', 'kubeadm-addons', 'local-path-provisioner'];
const ON_BY_DEFAULT = CONTROLLER_NAMES.filter((n) => !OFF_BY_DEFAULT.includes(n));

describe('selectControllers', () => {
  it.each([
    [undefined, ON_BY_DEFAULT],
    [['*'], ON_BY_DEFAULT],
    [['*', '-garbagecollector'], ON_BY_DEFAULT.filter((n) => n !== 'garbage-collector-controller')],
    [['tokencleaner', 'bootstrap-signer-controller'], ['bootstrap-signer-controller', 'token-cleaner-controller']],
    [['namespace', 'serviceaccount-controller'], ['namespace-controller', 'serviceaccount-controller']],
    [['-namespace-controller'], []],
    [['no-such-controller'], []],
  ])('%j → %j', (enabled, expected) => {
    expect(selectControllers(enabled)).toEqual(expected);
  });
});

describe('startControllers', () => {
  it('talks to the server only through send, as kube-controller-manager and kube-apiserver clients', async () => {
    ts = await startTestServer();
    const agents = new Set<string>();
    const controllers = startControllers({
      send: (r) => {
        agents.add((r.headers.get('user-agent') ?? '').split(' ')[0]!);
        return ts!.server.handle(r);
      },
      clock: ts.clock,
      log: () => undefined,
      bootstrap: { leaseRenewIntervalMs: 0 },
    });
    await controllers.idle();
    // The field manager kube-apiserver derives from these is the part before the first '/'.
    expect([...agents].map((a) => a.split('/')[0]).sort()).toEqual(['kube-apiserver', 'kube-controller-manager']);
    await controllers.stop();
  });

  it('stops: no more reconciling after stop()', async () => {
    ts = await startTestServer();
    const controllers = startControllers({ send: (r) => ts!.server.handle(r), clock: ts.clock, enabled: ['serviceaccount-controller'], log: () => undefined });
    await controllers.idle();
    await controllers.stop();
    await ts.post('/api/v1/namespaces', { metadata: { name: 'after-stop' } });
    await new Promise((r) => setTimeout(r, 50));
    expect((await ts.get('/api/v1/namespaces/after-stop/serviceaccounts/default')).status).toBe(404);
  });

  it('all controllers together: a new namespace gets its service account and CA bundle; deleting it removes everything', async () => {
    ts = await startTestServer();
    const controllers = startControllers({ send: (r) => ts!.server.handle(r), clock: ts.clock, log: () => undefined, bootstrap: { leaseRenewIntervalMs: 0 } });
    await controllers.idle();
    await ts.post('/api/v1/namespaces', { metadata: { name: 'full' } });
    await controllers.idle();
    expect((await ts.get('/api/v1/namespaces/full/serviceaccounts/default')).status).toBe(200);
    expect((await ts.get('/api/v1/namespaces/full/configmaps/kube-root-ca.crt')).status).toBe(200);
    const owner = await ts.post('/api/v1/namespaces/full/configmaps', { metadata: { name: 'owner' } });
    await ts.post('/api/v1/namespaces/full/secrets', {
      metadata: { name: 'dep', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid, blockOwnerDeletion: true }] },
    });
    expect((await ts.del('/api/v1/namespaces/full')).status).toBe(200);
    await controllers.idle();
    expect((await ts.get('/api/v1/namespaces/full')).status).toBe(404);
    expect((await ts.get('/api/v1/namespaces/full/serviceaccounts')).body.items).toEqual([]);
    expect((await ts.get('/api/v1/namespaces/full/configmaps')).body.items).toEqual([]);
    await controllers.stop();
  });
});
