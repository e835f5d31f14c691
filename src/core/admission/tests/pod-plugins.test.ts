// The pod-mutating plugins of kube-apiserver 1.32's default chain, through
// the HTTP API: what a created pod looks like (ServiceAccount,
// DefaultTolerationSeconds, Priority) and the 403s they answer.

import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// The harness runs no controllers: ServiceAccount is enabled by name and the account created by hand.
async function server(flags: Record<string, string> = { 'enable-admission-plugins': 'ServiceAccount' }): Promise<TestServer> {
  t = await startTestServer(flags);
  return t;
}

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

describe('ServiceAccount', () => {
  it('sets the default account and mounts the kube-api-access projected volume in every container and init container (not ephemeral)', async () => {
    const ts = await server();
    expect((await ts.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } })).status).toBe(201);
    const res = await ts.post(PODS, pod('p1', { initContainers: [{ name: 'init', image: 'busybox' }] }));
    expect(res.status).toBe(201);
    const spec = res.body.spec;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.serviceAccount).toBe('default');
    const volume = spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    const mount = { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    expect(spec.containers[0].volumeMounts).toEqual([mount]);
    expect(spec.initContainers[0].volumeMounts).toEqual([mount]);
    // The stored object is the one returned.
    const got = await ts.get(`${PODS}/p1`);
    expect(got.body.spec.volumes).toEqual(spec.volumes);
  });

  it('mounts nothing when the pod or the account says automountServiceAccountToken: false, the pod winning', async () => {
    const ts = await server();
    await ts.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    await ts.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'quiet' }, automountServiceAccountToken: false });
    const off = await ts.post(PODS, pod('off', { automountServiceAccountToken: false }));
    expect(off.body.spec.volumes).toBeUndefined();
    expect(off.body.spec.containers[0].volumeMounts).toBeUndefined();
    const quiet = await ts.post(PODS, pod('quiet', { serviceAccountName: 'quiet' }));
    expect(quiet.body.spec.volumes).toBeUndefined();
    const podWins = await ts.post(PODS, pod('wins', { serviceAccountName: 'quiet', automountServiceAccountToken: true }));
    expect(podWins.body.spec.volumes).toHaveLength(1);
  });

  it('leaves a container with its own mount at the token path alone', async () => {
    const ts = await server();
    await ts.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    const res = await ts.post(PODS, {
      metadata: { name: 'own' },
      spec: {
        containers: [
          { name: 'a', image: 'busybox', volumeMounts: [{ name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] },
        ],
        volumes: [{ name: 'mine', emptyDir: {} }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.spec.volumes.map((v: { name: string }) => v.name)).toEqual(['mine']);
  });

  it("answers kube's 403 when the account does not exist, naming a generateName pod by its prefix", async () => {
    const ts = await server();
    const res = await ts.post(PODS, pod('p1', { serviceAccountName: 'ghost' }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'pods "p1" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found',
      details: { name: 'p1', kind: 'pods' },
    });
    const generated = await ts.post(PODS, { metadata: { generateName: 'web-' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    expect(generated.body.message).toBe('pods "web-" is forbidden: error looking up service account default/default: serviceaccount "default" not found');
    expect((await ts.get(PODS)).body.items).toEqual([]);
  });

  it("copies the account's imagePullSecrets to a pod that has none", async () => {
    const ts = await server();
    await ts.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' }, imagePullSecrets: [{ name: 'regcred' }] });
    const res = await ts.post(PODS, pod('p'));
    expect(res.body.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
  });
});

describe('DefaultTolerationSeconds', () => {
  it('adds the not-ready and unreachable NoExecute tolerations for 300 s', async () => {
    const ts = await server({});
    const res = await ts.post(PODS, pod('p'));
    expect(res.body.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  it('adds none for a taint the pod already tolerates (an empty key tolerates all), and reads the flags', async () => {
    const ts = await server({ 'default-unreachable-toleration-seconds': '60' });
    const all = await ts.post(PODS, pod('all', { tolerations: [{ operator: 'Exists' }] }));
    expect(all.body.spec.tolerations).toEqual([{ operator: 'Exists' }]);
    const some = await ts.post(PODS, pod('some', { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }] }));
    expect(some.body.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    ]);
  });
});

describe('Priority', () => {
  it('gives a pod without a class priority 0 and PreemptLowerPriority', async () => {
    const ts = await server({});
    const res = await ts.post(PODS, pod('p'));
    expect(res.body.spec.priority).toBe(0);
    expect(res.body.spec.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(res.body.spec.priorityClassName).toBeUndefined();
  });

  it('resolves a named class and the global default; refuses an unknown class and a contradicting priority', async () => {
    const ts = await server({});
    const pcs = '/apis/scheduling.k8s.io/v1/priorityclasses';
    expect((await ts.post(pcs, { metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' })).status).toBe(201);
    const high = await ts.post(PODS, pod('high', { priorityClassName: 'high' }));
    expect(high.body.spec).toMatchObject({ priority: 1000, preemptionPolicy: 'Never' });

    const unknown = await ts.post(PODS, pod('u', { priorityClassName: 'nope' }));
    expect(unknown.status).toBe(403);
    expect(unknown.body.message).toBe('pods "u" is forbidden: no PriorityClass with name nope was found');
    const wrong = await ts.post(PODS, pod('w', { priorityClassName: 'high', priority: 5 }));
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe(
      'pods "w" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    );

    expect((await ts.post(pcs, { metadata: { name: 'low' }, value: 10, globalDefault: true })).status).toBe(201);
    const defaulted = await ts.post(PODS, pod('d'));
    expect(defaulted.body.spec).toMatchObject({ priorityClassName: 'low', priority: 10, preemptionPolicy: 'PreemptLowerPriority' });
    const second = await ts.post(pcs, { metadata: { name: 'other' }, value: 20, globalDefault: true });
    expect(second.status).toBe(403);
    expect(second.body.message).toBe(
      'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass low is already marked as default. Only one default can exist',
    );
  });
});

describe('the chain', () => {
  it('refuses unknown and overlapping plugin names at start-up, as kube-apiserver exits with them', async () => {
    await expect(startTestServer({ 'enable-admission-plugins': 'Nope' })).rejects.toThrow('enable-admission-plugins plugin "Nope" is unknown');
    await expect(startTestServer({ 'disable-admission-plugins': 'Nope' })).rejects.toThrow('disable-admission-plugins plugin "Nope" is unknown');
    await expect(startTestServer({ 'enable-admission-plugins': 'Priority', 'disable-admission-plugins': 'Priority' })).rejects.toThrow(
      '[Priority] in enable-admission-plugins and disable-admission-plugins overlapped',
    );
  });

  it('runs no disabled plugin', async () => {
    const ts = await server({ 'disable-admission-plugins': 'DefaultTolerationSeconds,Priority' });
    const res = await ts.post(PODS, pod('p'));
    expect(res.body.spec.tolerations).toBeUndefined();
    expect(res.body.spec.priority).toBeUndefined();
  });

  it('runs on dry runs without storing anything, and on create-by-apply', async () => {
    const ts = await server();
    await ts.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    const dry = await ts.post(`${PODS}?dryRun=All`, pod('dry'));
    expect(dry.status).toBe(201);
    expect(dry.body.spec.serviceAccountName).toBe('default');
    expect((await ts.get(`${PODS}/dry`)).status).toBe(404);
    const applied = await ts.patch(`${PODS}/applied?fieldManager=test`, pod('applied'), 'application/apply-patch+yaml');
    expect(applied.status).toBe(201);
    expect(applied.body.spec.tolerations).toHaveLength(2);
    expect(applied.body.spec.volumes[0].name).toMatch(/^kube-api-access-/);
  });

  it('keeps what create set across an update that leaves it out (Priority)', async () => {
    const ts = await server({});
    const created = await ts.post(PODS, pod('p'));
    const body = structuredClone(created.body);
    delete body.spec.priority;
    delete body.spec.preemptionPolicy;
    body.metadata.labels = { a: 'b' };
    const updated = await ts.put(`${PODS}/p`, body);
    expect(updated.status).toBe(200);
    expect(updated.body.spec.priority).toBe(0);
    expect(updated.body.spec.preemptionPolicy).toBe('PreemptLowerPriority');
  });
});
