// Saving the browser cluster's configuration document (decision 0160; issue 5
// "the configuration files are reloaded when they change" — in the browser the
// document stands for the files): the new document applies at once, and the
// objects are all still there afterwards, with their resourceVersions. The
// document's `flags` and `files` also carry --audit-policy-file (decision
// 0183): the audit log the UI reads follows the policy after the save.

import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryPersistence } from '../../core/storage/memory-persistence';
import type { ClusterConfiguration } from './cluster-config';
import { ClusterHost } from './cluster-host';
import type { HostSettings } from './host-settings';

function memorySettings(): HostSettings {
  let saved: ClusterConfiguration | undefined;
  let offset = 0;
  let stopped: string[] = [];
  return {
    configuration: async () => saved,
    saveConfiguration: async (c: ClusterConfiguration) => {
      saved = structuredClone(c);
    },
    clockOffset: async () => offset,
    saveClockOffset: async (o: number) => {
      offset = o;
    },
    stoppedNodes: async () => stopped,
    saveStoppedNodes: async (names) => {
      stopped = [...names];
    },
  };
}

let host: ClusterHost | undefined;
afterEach(async () => {
  await host?.shutdown();
});

async function call(path: string, token: string, init: RequestInit = {}) {
  const response = await host!.handle(new Request(`http://kubetab.test${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } }));
  const text = await response.text();
  return { status: response.status, json: text.startsWith('{') ? JSON.parse(text) : text };
}

async function untilReady(token: string) {
  for (let i = 0; i < 400; i++) {
    if ((await call('/api/v1/namespaces/default', token)).status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the cluster did not bootstrap');
}

const POLICY = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n  resources: [{group: "", resources: [configmaps]}]\n- level: Metadata\n';

describe('saving the configuration document', () => {
  it('applies a new token user and an audit policy at once, and keeps every object with its resourceVersion', async () => {
    host = new ClusterHost({ persistence: (() => { const p = createMemoryPersistence(); return () => p; })(), settings: memorySettings(), maxWatchSeconds: 60, controllers: [] });
    const before = await host.configurationState();
    const admin = before.administrator!.token;
    await untilReady(admin);
    const created = await call('/api/v1/namespaces/default/configmaps', admin, {
      method: 'POST',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { a: 'b' } }),
    });
    expect(created.status).toBe(201);

    const document: ClusterConfiguration = structuredClone(before.document);
    document.tokens = [...(document.tokens ?? []), { token: 'carol-token-0123456789', user: 'carol', uid: 'carol' }];
    document.flags = { ...(document.flags ?? {}), 'audit-policy-file': '/etc/kubernetes/audit-policy.yaml' };
    document.files = { ...(document.files ?? {}), '/etc/kubernetes/audit-policy.yaml': POLICY };
    expect(await host.save(document)).toMatchObject({ valid: true, saved: true });
    await untilReady(admin);

    // The data: the same object, same resourceVersion.
    const kept = await call('/api/v1/namespaces/default/configmaps/kept', admin);
    expect(kept.status).toBe(200);
    expect(kept.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    // The new user authenticates (and RBAC answers for carol).
    const carol = await call('/api/v1/namespaces/default/configmaps', 'carol-token-0123456789');
    expect(carol.json.message).toBe('configmaps is forbidden: User "carol" cannot list resource "configmaps" in API group "" in the namespace "default"');
    // The audit policy: configmaps at RequestResponse, with the request object.
    await call('/api/v1/namespaces/default/configmaps', admin, { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } }) });
    const audit = await call('/kubetab/v1/audit?limit=50', admin);
    const item = (audit.json.items as { event: { verb: string; level: string; requestObject?: { metadata?: { name?: string } }; objectRef?: { name?: string } } }[]).find(
      (i) => i.event.verb === 'create' && i.event.requestObject?.metadata?.name === 'after',
    );
    expect(item?.event.level).toBe('RequestResponse');
  });

  it('refuses a document whose audit policy is not valid, with kube\'s start-up text, and keeps the previous one', async () => {
    host = new ClusterHost({ persistence: (() => { const p = createMemoryPersistence(); return () => p; })(), settings: memorySettings(), maxWatchSeconds: 60, controllers: [] });
    const before = await host.configurationState();
    const document: ClusterConfiguration = structuredClone(before.document);
    document.flags = { 'audit-policy-file': '/etc/kubernetes/audit-policy.yaml' };
    document.files = { '/etc/kubernetes/audit-policy.yaml': 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n' };
    const answer = await host.save(document);
    expect(answer.saved).toBe(false);
    expect(answer.problems.map((p) => p.message).join('\n')).toContain('rules[0].level: Unsupported value: "Loud"');
    expect((await host.configurationState()).document).toEqual(before.document);
  });
});
