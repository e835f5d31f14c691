// NodeRestriction (spec 001 "Node authorizer" 3: the admission plugin limits a
// node's writes to its own Node and the Pods bound to it; issue 5). Through a
// Node,RBAC server with kubeadm's admission default: the Node authorizer
// allows these writes, NodeRestriction refuses them with kube's 403 texts.
// Eviction and service-account tokens are checked on the plugin alone.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test-support/api-harness';
import { bearer, secureCluster, USERS } from '../../api/access/test-cluster';
import { manualClock } from '../../clock';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation } from '../types';
import type { KubeObject } from '../../kinds/types';
import { forbiddenLabels, nodeRestriction } from './node-restriction';
import { withKubeadmAdmissionDefaults } from '../kubeadm-defaults';

const NODE1 = bearer(USERS.node1); // system:node:node1 in system:nodes
const MERGE = 'application/merge-patch+json';

const pod = (name: string, nodeName: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...((extra['metadata'] as object) ?? {}) },
  spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }], ...((extra['spec'] as object) ?? {}) },
});

describe('NodeRestriction through the API (kubeadm cluster: Node,RBAC + NodeRestriction)', () => {
  let ts: TestServer;
  let node1Uid = '';
  beforeAll(async () => {
    ts = await secureCluster();
    // No controllers run here: the ServiceAccount plugin needs the namespace's default account.
    await ts.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    // The administrator registers the nodes and a pod on each.
    node1Uid = (await ts.post('/api/v1/nodes', { metadata: { name: 'node1', labels: { 'kubernetes.io/hostname': 'node1' } } })).body.metadata.uid;
    expect((await ts.post('/api/v1/nodes', { metadata: { name: 'node2' } })).status).toBe(201);
    expect((await ts.post('/api/v1/namespaces/default/pods', pod('mine', 'node1'))).status).toBe(201);
    expect((await ts.post('/api/v1/namespaces/default/pods', pod('theirs', 'node2'))).status).toBe(201);
  });
  afterAll(() => ts.close());

  it('refuses changes to another node', async () => {
    const res = await ts.patch('/api/v1/nodes/node2', { metadata: { labels: { a: 'b' } } }, MERGE, NODE1);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      reason: 'Forbidden',
      message: 'nodes "node2" is forbidden: node "node1" is not allowed to modify node "node2"',
      details: { name: 'node2', kind: 'nodes' },
    });
  });

  it("lets a node change its own labels within the kubelet's set, and nothing else", async () => {
    const ok = await ts.patch('/api/v1/nodes/node1', { metadata: { labels: { 'topology.kubernetes.io/zone': 'z1', 'node.kubernetes.io/exclude-from-external-load-balancers': '', team: 'a' } } }, MERGE, NODE1);
    expect(ok.status).toBe(200);
    const role = await ts.patch('/api/v1/nodes/node1', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '', 'node-restriction.kubernetes.io/pool': 'x' } } }, MERGE, NODE1);
    expect(role.status).toBe(403);
    // kube's text for an update names no node.
    expect(role.body.message).toBe('nodes "node1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool, node-role.kubernetes.io/control-plane');
    const taints = await ts.patch('/api/v1/nodes/node1', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }, MERGE, NODE1);
    expect(taints.status).toBe(403);
    expect(taints.body.message).toBe('nodes "node1" is forbidden: node "node1" is not allowed to modify taints');
    // Status writes are the kubelet's own.
    expect((await ts.patch('/api/v1/nodes/node1/status', { status: { capacity: { pods: '110' } } }, MERGE, NODE1)).status).toBe(200);
  });

  it('refuses registering a node with a forbidden label', async () => {
    await ts.del('/api/v1/nodes/node1');
    const res = await ts.post('/api/v1/nodes', { metadata: { name: 'node1', labels: { 'kubernetes.io/hostname': 'node1', 'example.k8s.io/x': 'y' } } }, NODE1);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('nodes "node1" is forbidden: node "node1" is not allowed to set the following labels: example.k8s.io/x');
    const registered = await ts.post('/api/v1/nodes', { metadata: { name: 'node1', labels: { 'kubernetes.io/hostname': 'node1' } } }, NODE1);
    expect(registered.status).toBe(201);
    node1Uid = registered.body.metadata.uid;
  });

  it('lets a node create only mirror pods bound to itself and owned by its Node', async () => {
    const plain = await ts.post('/api/v1/namespaces/default/pods', pod('plain', 'node1'), NODE1);
    expect(plain.status).toBe(403);
    expect(plain.body.message).toBe('pods "plain" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "node1" can only create mirror pods');

    const mirror = (name: string, nodeName: string, owner: Record<string, unknown> | undefined, spec: Record<string, unknown> = {}) =>
      pod(name, nodeName, {
        metadata: { annotations: { 'kubernetes.io/config.mirror': 'hash' }, ...(owner ? { ownerReferences: [owner] } : {}) },
        spec,
      });
    const owner = () => ({ apiVersion: 'v1', kind: 'Node', name: 'node1', uid: node1Uid, controller: true });
    const cases: [string, unknown, string][] = [
      ['elsewhere', mirror('elsewhere', 'node2', owner()), 'node "node1" can only create pods with spec.nodeName set to itself'],
      ['orphan', mirror('orphan', 'node1', undefined), 'node "node1" can only create pods with an owner reference set to itself'],
      ['notctl', mirror('notctl', 'node1', { ...owner(), controller: false }), 'node "node1" can only create pods with a controller owner reference set to itself'],
      ['stale', mirror('stale', 'node1', { ...owner(), uid: 'old-uid' }), `node node1 UID mismatch: expected old-uid got ${node1Uid}`],
      ['secret', mirror('secret', 'node1', owner(), { volumes: [{ name: 'v', secret: { secretName: 's' } }] }), 'node "node1" can not create pods that reference secrets'],
      ['sa', mirror('sa', 'node1', owner(), { serviceAccountName: 'default' }), 'node "node1" can not create pods that reference a service account'],
    ];
    for (const [name, body, message] of cases) {
      const res = await ts.post('/api/v1/namespaces/default/pods', body, NODE1);
      expect([name, res.status, res.body.message]).toEqual([name, 403, `pods "${name}" is forbidden: ${message}`]);
    }
    expect((await ts.post('/api/v1/namespaces/default/pods', mirror('static-web-node1', 'node1', owner()), NODE1)).status).toBe(201);
  });

  it("writes only the status of pods bound to the node, and deletes only those", async () => {
    const theirs = await ts.patch('/api/v1/namespaces/default/pods/theirs/status', { status: { phase: 'Running' } }, MERGE, NODE1);
    expect(theirs.status).toBe(403);
    expect(theirs.body.message).toBe('pods "theirs" is forbidden: node "node1" can only update pod status for pods with spec.nodeName set to itself');
    expect((await ts.patch('/api/v1/namespaces/default/pods/mine/status', { status: { phase: 'Running' } }, MERGE, NODE1)).status).toBe(200);
    const relabel = await ts.patch('/api/v1/namespaces/default/pods/mine/status', { metadata: { labels: { x: 'y' } } }, MERGE, NODE1);
    expect(relabel.body.message).toBe('pods "mine" is forbidden: node "node1" cannot update labels through pod status');

    const del = await ts.del('/api/v1/namespaces/default/pods/theirs', undefined, NODE1);
    expect(del.status).toBe(403);
    expect(del.body.message).toBe('pods "theirs" is forbidden: node "node1" can only delete pods with spec.nodeName set to itself');
    // A pod that is not there is the store's 404, whoever asks.
    expect((await ts.del('/api/v1/namespaces/default/pods/nothere', undefined, NODE1)).status).toBe(404);
  });

  it('keeps a node to its own Lease in kube-node-lease (the Node authorizer refuses the rest first)', async () => {
    const lease = (ns: string, name: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: ns }, spec: { holderIdentity: 'node1' } });
    expect((await ts.post('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', lease('kube-node-lease', 'node1'), NODE1)).status).toBe(201);
    expect((await ts.post('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', lease('kube-node-lease', 'node2'), NODE1)).status).toBe(403);
  });

  it('evicts only pods bound to the node (pods/eviction goes through the chain)', async () => {
    const evict = (name: string) => ts.post(`/api/v1/namespaces/default/pods/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } }, NODE1);
    const theirs = await evict('theirs');
    expect(theirs.status).toBe(403);
    expect(theirs.body.message).toBe('pods "theirs" is forbidden: node node1 can only evict pods with spec.nodeName set to itself');
    expect((await evict('mine')).status).toBe(201);
  });

  it('leaves everyone else alone (the administrator edits any node)', async () => {
    expect((await ts.patch('/api/v1/nodes/node2', { metadata: { labels: { 'node-role.kubernetes.io/worker': '' } } }, MERGE)).status).toBe(200);
  });
});

describe('NodeRestriction is on by default and can be turned off', () => {
  it('takes --enable/--disable-admission-plugins as given', () => {
    expect(withKubeadmAdmissionDefaults({})['enable-admission-plugins']).toBe('NodeRestriction');
    expect(withKubeadmAdmissionDefaults({ 'enable-admission-plugins': 'AlwaysPullImages' })['enable-admission-plugins']).toBe('AlwaysPullImages');
    expect(withKubeadmAdmissionDefaults({ 'disable-admission-plugins': 'NodeRestriction' })['enable-admission-plugins']).toBeUndefined();
  });

  it('without it a node may relabel itself', async () => {
    const ts = await secureCluster({ 'disable-admission-plugins': 'NodeRestriction' });
    try {
      await ts.post('/api/v1/nodes', { metadata: { name: 'node1' } });
      expect((await ts.patch('/api/v1/nodes/node1', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }, MERGE, NODE1)).status).toBe(200);
    } finally {
      await ts.close();
    }
  });
});

describe('NodeRestriction on its own (eviction, service-account tokens, labels)', () => {
  const stored: Record<string, KubeObject> = {
    'pods/default/mine': { metadata: { name: 'mine', namespace: 'default', uid: 'pod-uid' }, spec: { nodeName: 'node1' } },
    'pods/default/theirs': { metadata: { name: 'theirs', namespace: 'default', uid: 'their-uid' }, spec: { nodeName: 'node2' } },
  };
  const ctx: AdmissionContext = {
    reader: { get: async (gr, ns, name) => stored[`${gr.resource}/${ns}/${name}`], list: async () => [] },
    clock: manualClock(),
    randomString: () => 'xxxxx',
    services: {},
  };
  const attrs = (operation: AdmissionOperation, resource: string, subresource: string, name: string, object?: KubeObject, user = 'system:node:node1'): AdmissionAttributes => ({
    operation,
    resource: { group: '', version: 'v1', resource },
    subresource,
    kind: { group: '', version: 'v1', kind: 'X' },
    namespace: 'default',
    name,
    object,
    dryRun: false,
    user: { username: user, groups: ['system:nodes', 'system:authenticated'] },
    addWarning: () => undefined,
    addAuditAnnotation: () => undefined,
  });
  const plugin = nodeRestriction();
  const refusal = async (a: AdmissionAttributes) => {
    try {
      await plugin.admit!(a, ctx);
      return undefined;
    } catch (err) {
      return (err as { message: string }).message;
    }
  };

  it('evicts only pods bound to the node', async () => {
    const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'theirs' } };
    expect(await refusal(attrs('CREATE', 'pods', 'eviction', 'theirs', eviction))).toBe('pods "theirs" is forbidden: node node1 can only evict pods with spec.nodeName set to itself');
    expect(await refusal(attrs('CREATE', 'pods', 'eviction', 'mine', { ...eviction, metadata: { name: 'mine' } }))).toBeUndefined();
    expect(await refusal(attrs('CREATE', 'pods', 'binding', 'mine'))).toBe(`pods "mine" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`);
  });

  it('issues tokens only bound to a pod of the node, with its uid', async () => {
    const request = (ref?: Record<string, string>) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [], ...(ref ? { boundObjectRef: ref } : {}) } });
    const token = (ref?: Record<string, string>) => refusal(attrs('CREATE', 'serviceaccounts', 'token', 'default', request(ref)));
    expect(await token()).toBe('serviceaccounts "default" is forbidden: node requested token not bound to a pod');
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'mine' })).toBe('serviceaccounts "default" is forbidden: node requested token with a pod binding without a uid');
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'old' })).toBe(
      'serviceaccounts "default" is forbidden: the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    );
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'their-uid' })).toBe('serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node');
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid' })).toBeUndefined();
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'gone', uid: 'x' })).toBe('pods "gone" not found');
  });

  it('keeps leases to kube-node-lease and the node\'s own name, CSINodes to its own name', async () => {
    const lease = (ns: string, name: string, op: AdmissionOperation) => ({
      ...attrs(op, 'leases', '', op === 'CREATE' ? '' : name, { metadata: { name } }),
      resource: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' },
      namespace: ns,
    });
    expect(await refusal(lease('default', 'node1', 'CREATE'))).toBe('leases.coordination.k8s.io "node1" is forbidden: can only access leases in the "kube-node-lease" system namespace');
    expect(await refusal(lease('kube-node-lease', 'node2', 'CREATE'))).toBe('leases.coordination.k8s.io "node2" is forbidden: can only access node lease with the same name as the requesting node');
    expect(await refusal(lease('kube-node-lease', 'node2', 'UPDATE'))).toBe('leases.coordination.k8s.io "node2" is forbidden: can only access node lease with the same name as the requesting node');
    expect(await refusal(lease('kube-node-lease', 'node1', 'UPDATE'))).toBeUndefined();
    const csiNode = { ...attrs('DELETE', 'csinodes', '', 'node2'), resource: { group: 'storage.k8s.io', version: 'v1', resource: 'csinodes' }, namespace: '' };
    expect(await refusal(csiNode)).toBe('csinodes.storage.k8s.io "node2" is forbidden: can only access CSINode with the same name as the requesting node');
  });

  it('refuses a node user without a name, and ignores users outside system:nodes', async () => {
    expect(await refusal(attrs('UPDATE', 'nodes', '', 'n', {}, 'system:node:'))).toBe('nodes "n" is forbidden: could not determine node from user "system:node:"');
    const notANode = { ...attrs('UPDATE', 'nodes', '', 'n', {}), user: { username: 'system:node:node1', groups: ['system:authenticated'] } };
    expect(await refusal(notANode)).toBeUndefined();
  });

  it("names the label keys a kubelet may not set, sorted", () => {
    expect(
      forbiddenLabels([
        'kubernetes.io/hostname',
        'beta.kubernetes.io/arch',
        'node.kubernetes.io/instance-type',
        'kubelet.kubernetes.io/x',
        'a.node.kubernetes.io/y',
        'example.com/free',
        'unprefixed',
        'node-role.kubernetes.io/worker',
        'sub.node-restriction.kubernetes.io/a',
        'k8s.io/x',
        'topology.k8s.io/zone',
      ]),
    ).toEqual(['k8s.io/x', 'node-role.kubernetes.io/worker', 'sub.node-restriction.kubernetes.io/a', 'topology.k8s.io/zone']);
  });
});
