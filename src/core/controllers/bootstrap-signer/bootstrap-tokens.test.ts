// Bootstrap tokens (spec 001 "Bootstrap token Secret", "States and transitions";
// issue 5 "Bootstrap tokens"): the token cleaner deletes expired token Secrets
// of kube-system when the cluster's Clock passes their expiration; the
// bootstrap signer keeps one detached HS256 JWS per signing token in
// kube-public/cluster-info, verifiable by the documented procedure; kubeadm's
// cluster-info ConfigMap and its anonymous-read Role exist.

import { afterEach, describe, expect, it } from 'vitest';
import { compactVerify } from 'jose';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';
import { CONTROLLER_NAMES, KUBEADM_CONTROLLERS, selectControllers } from '../index';

let bed: ControllerTestBed;
afterEach(async () => bed?.close());

const POLL_MS = 5;
const SECRETS = '/api/v1/namespaces/kube-system/secrets';
const CLUSTER_INFO = '/api/v1/namespaces/kube-public/configmaps/cluster-info';
const HOUR = 3_600_000;
const b64 = (s: string) => btoa(s);
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const settle = async () => {
  // Long enough for an alarm to re-read the Clock, then everything it started.
  await new Promise((r) => setTimeout(r, POLL_MS * 6));
  await bed.idle();
};

function tokenSecret(id: string, data: Record<string, string>, namespace = 'kube-system') {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace },
    type: 'bootstrap.kubernetes.io/token',
    data: Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': `${id}0123456789`, ...data }).map(([k, v]) => [k, b64(v)])),
  };
}

/** The verification procedure of the specification: HS256 keyed with the full token <token-id>.<token-secret> (decision 0301). */
async function verifies(detached: string, payload: string, key: string): Promise<boolean> {
  const encoded = btoa(payload).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const [header, , signature] = detached.split('.');
  try {
    await compactVerify(`${header}.${encoded}.${signature}`, new TextEncoder().encode(key), { algorithms: ['HS256'] });
    return true;
  } catch {
    return false;
  }
}

describe('controller selection', () => {
  it("leaves bootstrapsigner and tokencleaner out of '*', as kube-controller-manager does", () => {
    expect(selectControllers(['*'])).not.toContain('bootstrap-signer-controller');
    expect(selectControllers(['*'])).not.toContain('token-cleaner-controller');
    expect(selectControllers(undefined)).toEqual(selectControllers(['*']));
    expect(selectControllers(['*', 'bootstrapsigner', 'tokencleaner'])).toEqual(
      // kubeadm's own (cluster-info, the add-ons) and kind's local-path provisioner are not kube-controller-manager's.
      CONTROLLER_NAMES.filter((n) => !['kubeadm-cluster-info', 'kubeadm-addons', 'local-path-provisioner'].includes(n)),
    );
  });

  it("runs kubeadm's set by default on KubeTab's hosts: --controllers=*,bootstrapsigner,tokencleaner plus cluster-info", () => {
    expect(selectControllers(KUBEADM_CONTROLLERS)).toEqual(CONTROLLER_NAMES);
  });
});

describe('token cleaner', () => {
  it('deletes an expired token Secret when the Clock passes its expiration, and only then', async () => {
    bed = await startControllerTestBed({ enabled: ['tokencleaner'], clockPollMs: POLL_MS });
    const { ts } = bed;
    const now = ts.clock.now();
    expect((await ts.post(SECRETS, tokenSecret('abcdef', { expiration: rfc3339(now + HOUR) }))).status).toBe(201);
    expect((await ts.post(SECRETS, tokenSecret('forevr', {}))).status).toBe(201);
    // Another type with an expiration key, and a token Secret outside kube-system: not the cleaner's.
    expect((await ts.post(SECRETS, { metadata: { name: 'opaque' }, data: { expiration: b64(rfc3339(now - HOUR)) } })).status).toBe(201);
    expect((await ts.post('/api/v1/namespaces/default/secrets', tokenSecret('elsewh', { expiration: rfc3339(now - HOUR) }, 'default'))).status).toBe(201);
    await settle();
    expect((await ts.get(`${SECRETS}/bootstrap-token-abcdef`)).status).toBe(200);

    ts.clock.advance(HOUR - 1000);
    await settle();
    expect((await ts.get(`${SECRETS}/bootstrap-token-abcdef`)).status).toBe(200);

    ts.clock.advance(1000); // exactly at the expiration: the time left is zero, so it has expired
    await settle();
    expect((await ts.get(`${SECRETS}/bootstrap-token-abcdef`)).status).toBe(404);
    expect((await ts.get(`${SECRETS}/bootstrap-token-forevr`)).status).toBe(200);
    expect((await ts.get(`${SECRETS}/opaque`)).status).toBe(200);
    expect((await ts.get('/api/v1/namespaces/default/secrets/bootstrap-token-elsewh')).status).toBe(200);
  });

  it('deletes at once a token already expired or whose expiration cannot be read', async () => {
    bed = await startControllerTestBed({ enabled: ['token-cleaner-controller'], clockPollMs: POLL_MS });
    const { ts } = bed;
    await ts.post(SECRETS, tokenSecret('old000', { expiration: rfc3339(ts.clock.now() - 1000) }));
    await ts.post(SECRETS, tokenSecret('garble', { expiration: 'tomorrow' }));
    await bed.idle();
    expect((await ts.get(`${SECRETS}/bootstrap-token-old000`)).status).toBe(404);
    expect((await ts.get(`${SECRETS}/bootstrap-token-garble`)).status).toBe(404);
  });
});

describe('bootstrap signer', () => {
  const kubeconfig = 'apiVersion: v1\nclusters:\n- cluster:\n    server: https://10.0.0.1:6443\n  name: ""\nkind: Config\n';
  const createClusterInfo = () => bed.ts.post('/api/v1/namespaces/kube-public/configmaps', { metadata: { name: 'cluster-info' }, data: { kubeconfig } });

  it('adds jws-kubeconfig-<token-id> for each signing token and removes it when the token goes', async () => {
    bed = await startControllerTestBed({ enabled: ['bootstrapsigner'], clockPollMs: POLL_MS });
    const { ts } = bed;
    expect((await createClusterInfo()).status).toBe(201);
    await ts.post(SECRETS, tokenSecret('signer', { 'usage-bootstrap-signing': 'true' }));
    await ts.post(SECRETS, tokenSecret('authnx', { 'usage-bootstrap-authentication': 'true' }));
    await bed.idle();
    let cm = (await ts.get(CLUSTER_INFO)).body;
    expect(Object.keys(cm.data).sort()).toEqual(['jws-kubeconfig-signer', 'kubeconfig']);
    const jws = cm.data['jws-kubeconfig-signer'] as string;
    expect(jws).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    expect(JSON.parse(atob(jws.split('.')[0]!))).toEqual({ alg: 'HS256', kid: 'signer' });
    expect(await verifies(jws, kubeconfig, 'signer.signer0123456789')).toBe(true);
    // The controller wrote it as its service account's client (field manager from its User-Agent).
    expect(cm.metadata.managedFields.map((f: { manager: string }) => f.manager)).toContain('kube-controller-manager');

    // A new kubeconfig is signed again.
    const changed = `${kubeconfig}preferences: {}\n`;
    await ts.patch(CLUSTER_INFO, { data: { kubeconfig: changed } }, 'application/merge-patch+json');
    await bed.idle();
    cm = (await ts.get(CLUSTER_INFO)).body;
    expect(await verifies(cm.data['jws-kubeconfig-signer'], changed, 'signer.signer0123456789')).toBe(true);

    // A token that no longer signs loses its signature; a tampered signature is put right.
    await ts.post(SECRETS, tokenSecret('second', { 'usage-bootstrap-signing': 'true' }));
    await bed.idle();
    await ts.patch(CLUSTER_INFO, { data: { 'jws-kubeconfig-second': 'x..y' } }, 'application/merge-patch+json');
    expect((await ts.del(`${SECRETS}/bootstrap-token-signer`)).status).toBe(200);
    await bed.idle();
    cm = (await ts.get(CLUSTER_INFO)).body;
    expect(Object.keys(cm.data).sort()).toEqual(['jws-kubeconfig-second', 'kubeconfig']);
    expect(await verifies(cm.data['jws-kubeconfig-second'], changed, 'second.second0123456789')).toBe(true);
  });

  it('drops the signature of a token when the Clock passes its expiration', async () => {
    bed = await startControllerTestBed({ enabled: ['bootstrapsigner'], clockPollMs: POLL_MS });
    const { ts } = bed;
    await createClusterInfo();
    await ts.post(SECRETS, tokenSecret('expire', { 'usage-bootstrap-signing': 'true', expiration: rfc3339(ts.clock.now() + HOUR) }));
    await bed.idle();
    expect(Object.keys((await ts.get(CLUSTER_INFO)).body.data)).toContain('jws-kubeconfig-expire');
    ts.clock.advance(HOUR);
    await settle();
    expect(Object.keys((await ts.get(CLUSTER_INFO)).body.data)).toEqual(['kubeconfig']);
  });

  it('does nothing without cluster-info, and signs it once it appears', async () => {
    bed = await startControllerTestBed({ enabled: ['bootstrapsigner'], clockPollMs: POLL_MS });
    const { ts } = bed;
    await ts.post(SECRETS, tokenSecret('signer', { 'usage-bootstrap-signing': 'true' }));
    await bed.idle();
    expect((await ts.get(CLUSTER_INFO)).status).toBe(404);
    await createClusterInfo();
    await bed.idle();
    expect(Object.keys((await ts.get(CLUSTER_INFO)).body.data).sort()).toEqual(['jws-kubeconfig-signer', 'kubeconfig']);
  });
});

describe("kubeadm's cluster-info", () => {
  it('is created with a kubeconfig naming the server and the cluster CA, readable by system:anonymous', async () => {
    bed = await startControllerTestBed({ enabled: ['root-ca-cert-publisher', 'kubeadm-cluster-info', 'bootstrapsigner'], clockPollMs: POLL_MS, asInternalClients: true });
    const { ts } = bed;
    const cm = (await ts.get(CLUSTER_INFO)).body;
    const ca = (await ts.get('/api/v1/namespaces/kube-system/configmaps/kube-root-ca.crt')).body.data['ca.crt'] as string;
    // Besides the kubeconfig, only signatures (of kubeadm's default token: see the next test).
    expect(Object.keys(cm.data).filter((k) => !k.startsWith('jws-kubeconfig-'))).toEqual(['kubeconfig']);
    expect(cm.data.kubeconfig).toEqual(
      [
        'apiVersion: v1',
        'clusters:',
        '- cluster:',
        `    certificate-authority-data: ${btoa(ca)}`,
        '    server: https://172.18.0.2:6443',
        '  name: ""',
        'contexts: null',
        'current-context: ""',
        'kind: Config',
        'preferences: {}',
        'users: null',
        '',
      ].join('\n'),
    );
    const role = (await ts.get('/apis/rbac.authorization.k8s.io/v1/namespaces/kube-public/roles/kubeadm:bootstrap-signer-clusterinfo')).body;
    expect(role.rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'] }]);
    const binding = (await ts.get('/apis/rbac.authorization.k8s.io/v1/namespaces/kube-public/rolebindings/kubeadm:bootstrap-signer-clusterinfo')).body;
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'kubeadm:bootstrap-signer-clusterinfo' });
    expect(binding.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:anonymous' }]);

    // A signing token added later is signed into it.
    await ts.post(SECRETS, tokenSecret('joinme', { 'usage-bootstrap-signing': 'true' }));
    await bed.idle();
    const signed = (await ts.get(CLUSTER_INFO)).body.data;
    expect(await verifies(signed['jws-kubeconfig-joinme'], signed.kubeconfig, 'joinme.joinme0123456789')).toBe(true);
  });

  it("comes with kubeadm's default token (24 h, both usages, the default node group), which signs it, and the RBAC for joining nodes", async () => {
    bed = await startControllerTestBed({ enabled: ['root-ca-cert-publisher', 'kubeadm-cluster-info', 'bootstrapsigner'], clockPollMs: POLL_MS, asInternalClients: true });
    const { ts } = bed;
    const startedAt = ts.clock.now();
    const tokens = (await ts.get(SECRETS)).body.items.filter((s: { type: string }) => s.type === 'bootstrap.kubernetes.io/token');
    expect(tokens).toHaveLength(1);
    const data = Object.fromEntries(Object.entries(tokens[0].data as Record<string, string>).map(([k, v]) => [k, atob(v)]));
    expect(data['token-id']).toMatch(/^[a-z0-9]{6}$/);
    expect(data['token-secret']).toMatch(/^[a-z0-9]{16}$/);
    expect(tokens[0].metadata.name).toBe(`bootstrap-token-${data['token-id']}`);
    expect(data).toMatchObject({
      'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
      description: "The default bootstrap token generated by 'kubeadm init'.",
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
    });
    const left = Date.parse(data['expiration']!) - startedAt;
    expect(left).toBeGreaterThan(24 * HOUR - 60_000);
    expect(left).toBeLessThanOrEqual(24 * HOUR + 1000);
    await settle();
    const signed = (await ts.get(CLUSTER_INFO)).body.data;
    expect(await verifies(signed[`jws-kubeconfig-${data['token-id']}`], signed.kubeconfig, `${data['token-id']}.${data['token-secret']}`)).toBe(true);

    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    const bindings: Record<string, [string, string]> = {
      'kubeadm:get-nodes': ['kubeadm:get-nodes', 'system:bootstrappers:kubeadm:default-node-token'],
      'kubeadm:kubelet-bootstrap': ['system:node-bootstrapper', 'system:bootstrappers:kubeadm:default-node-token'],
      'kubeadm:node-autoapprove-bootstrap': ['system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'system:bootstrappers:kubeadm:default-node-token'],
      'kubeadm:node-autoapprove-certificate-rotation': ['system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes'],
    };
    for (const [name, [role, group]] of Object.entries(bindings)) {
      const binding = (await ts.get(`${rbac}/clusterrolebindings/${name}`)).body;
      expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role });
      expect(binding.subjects).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: group }]);
    }
    expect((await ts.get(`${rbac}/clusterroles/kubeadm:get-nodes`)).body.rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }]);
  });

  it('is left alone when it exists, and not re-created after a delete', async () => {
    bed = await startControllerTestBed({ enabled: ['root-ca-cert-publisher', 'kubeadm-cluster-info'], clockPollMs: POLL_MS, asInternalClients: true });
    const { ts } = bed;
    expect((await ts.del(CLUSTER_INFO)).status).toBe(200);
    await ts.post('/api/v1/namespaces', { metadata: { name: 'another' } }); // root-CA activity
    await bed.idle();
    expect((await ts.get(CLUSTER_INFO)).status).toBe(404);
  });

  it('uses the server URL the host gives', async () => {
    bed = await startControllerTestBed({ asInternalClients: true, enabled: ['root-ca-cert-publisher', 'kubeadm-cluster-info'], clusterInfo: { server: 'https://127.0.0.1:18443' } });
    expect((await bed.ts.get(CLUSTER_INFO)).body.data.kubeconfig).toContain('    server: https://127.0.0.1:18443\n');
  });
});

describe("controllers' service accounts (--use-service-account-credentials)", () => {
  it('creates the account of each running kube-controller-manager controller in kube-system', async () => {
    bed = await startControllerTestBed({ enabled: ['bootstrapsigner', 'tokencleaner', 'namespace', 'scheduler'] });
    const names = (await bed.ts.get('/api/v1/namespaces/kube-system/serviceaccounts')).body.items.map((sa: { metadata: { name: string } }) => sa.metadata.name);
    // No `default` here: the service-account controller is not running.
    expect(names.sort()).toEqual(['bootstrap-signer', 'namespace-controller', 'token-cleaner']);
  });
});
