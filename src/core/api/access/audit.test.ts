// The audit log and its endpoint (spec 001 / issue "Decision traces and
// audit"): every request's authentication result and authorization decision,
// as audit.k8s.io/v1 Events with the decision annotations, readable through
// GET /kubetab/v1/audit by those allowed to get that path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test-support/api-harness';
import { ANONYMOUS, bearer, secureCluster, USERS } from './test-cluster';

interface Item {
  seq: number;
  event: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  authentication?: { authenticator?: string; status: string; steps: { authenticator: string; status: string; error?: string }[] };
  authorization?: { decision: string; reason: string; trace: { authorizer: string; decision: string; bindings?: unknown[] }[] };
}

describe('audit log', () => {
  let ts: TestServer;
  const items = async (query = 'limit=200'): Promise<Item[]> => (await ts.get(`/kubetab/v1/audit?${query}`)).body.items as Item[];
  const find = async (uri: string): Promise<Item | undefined> => (await items()).find((i) => i.event.requestURI === uri);

  beforeAll(async () => {
    ts = await secureCluster();
  });
  afterAll(() => ts.close());

  it('records an allowed request as an audit.k8s.io/v1 Event with the decision and its trace', async () => {
    const res = await ts.get('/api/v1/namespaces/default/configmaps?limit=1', bearer(USERS.alice));
    expect(res.status).toBe(403);
    await ts.get('/api/v1/namespaces/kube-system/configmaps?limit=2');
    const allowed = await find('/api/v1/namespaces/kube-system/configmaps?limit=2');
    expect(allowed?.event).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      stage: 'ResponseComplete',
      verb: 'list',
      user: { username: 'kubetab-admin', uid: 'kubetab-admin', groups: ['system:masters', 'system:authenticated'] },
      objectRef: { resource: 'configmaps', namespace: 'kube-system', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 200 },
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    });
    expect(allowed?.authentication).toMatchObject({ authenticator: 'token-file', status: 'ok' });
    expect(allowed?.authorization?.trace[0]).toMatchObject({ authorizer: 'Privileged', decision: 'Allow' });
  });

  it('records a forbidden request with the forbid decision, the Status and the RBAC trace', async () => {
    const denied = await find('/api/v1/namespaces/default/configmaps?limit=1');
    expect(denied?.event).toMatchObject({
      user: { username: 'alice' },
      responseStatus: {
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
        message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"',
      },
      annotations: { 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' },
    });
    expect(denied?.authorization?.decision).toBe('NoOpinion');
    expect(denied?.authorization?.trace.map((s) => s.authorizer)).toEqual(['Privileged', 'Node', 'RBAC']);
    // alice is in system:authenticated: the discovery bindings were looked at.
    expect(denied?.authorization?.trace[2]?.bindings?.length).toBeGreaterThan(0);
  });

  it('records a refused credential without the credential (rule: no token in any record)', async () => {
    await ts.get('/api/v1/nodes?limit=3', bearer('s3cr3t-token-value'));
    const refused = await find('/api/v1/nodes?limit=3');
    expect(refused?.event.responseStatus).toMatchObject({ code: 401, reason: 'Unauthorized' });
    expect(refused?.event.user).toEqual({});
    expect(refused?.authentication?.status).toBe('error');
    expect(JSON.stringify(await items())).not.toContain('s3cr3t-token-value');
  });

  it('marks requests to deprecated versions with k8s.io/deprecated', async () => {
    await ts.get('/api/v1/componentstatuses');
    expect((await find('/api/v1/componentstatuses'))?.event.annotations).toMatchObject({ 'k8s.io/deprecated': 'true' });
  });

  it('every response carries its Audit-Id, the one in the record (a client\'s own Audit-ID is kept)', async () => {
    const res = await ts.get('/api/v1/namespaces?limit=4');
    const id = res.headers.get('audit-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await find('/api/v1/namespaces?limit=4'))?.event.auditID).toBe(id);
    const own = await ts.get('/api/v1/namespaces?limit=5', { 'Audit-ID': 'my-own-id' });
    expect(own.headers.get('audit-id')).toBe('my-own-id');
  });

  it('pages forward with since and limit; reading the log is not itself recorded', async () => {
    const all = await items();
    const first = all[0]!.seq;
    const page = await items(`since=${first}&limit=2`);
    expect(page.map((i) => i.seq)).toEqual([first + 1, first + 2]);
    expect(all.some((i) => String(i.event.requestURI).startsWith('/kubetab/v1/audit'))).toBe(false);
    const list = (await ts.get('/kubetab/v1/audit?limit=1')).body;
    expect(list).toMatchObject({ kind: 'AuditRecordList', apiVersion: 'kubetab.dev/v1', metadata: { capacity: 2000 } });
    expect((await ts.get('/kubetab/v1/audit?limit=x')).status).toBe(400);
  });

  it('never records a token given as ?access_token=', async () => {
    await ts.get('/api/v1/namespaces/default/secrets?access_token=s3cret-token&limit=3');
    const recorded = await find('/api/v1/namespaces/default/secrets?access_token=REDACTED&limit=3');
    expect(recorded).toBeDefined();
    expect(JSON.stringify(await items())).not.toContain('s3cret-token');
  });

  it('needs get on the path /kubetab/v1/audit (system:masters has it)', async () => {
    const res = await ts.get('/kubetab/v1/audit', bearer(USERS.alice));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('forbidden: User "alice" cannot get path "/kubetab/v1/audit"');
    expect((await ts.get('/kubetab/v1/audit', ANONYMOUS)).status).toBe(403);
  });
});
