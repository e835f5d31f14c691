// Audit under Node (issue 5 "Decision traces and audit"; kube-apiserver's
// --audit-policy-file and --audit-log-path): the policy's first matching
// rule decides each request's level; Request and RequestResponse carry the
// bodies; the stages RequestReceived, ResponseStarted (watches) and
// ResponseComplete are written as JSON lines, one event per line, minus the
// stages the policy omits; no token ever appears in the file. The UI's
// endpoint GET /kubetab/v1/audit keeps working. Assertions read the file and
// the HTTP answers as a client sees them.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeHost, type NodeHost } from './node-host';
import { auditLogFileFromFlags, backupName } from './audit-log-file';
import type { AuditEvent } from '../../core/auth';
import { encodeKubernetesProtobuf } from '../../core/protobuf';

const ADMIN = 'admin-token-0123456789abcdef';
const JANE = 'jane-token-0123456789abcdef';
const BAD = 'not-a-token-anyone-knows-0123';

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  # The server's own clients (controllers, bootstrap) are not of interest here.
  - level: None
    userGroups: ["system:serviceaccounts:kube-system"]
  - level: None
    users: ["system:apiserver", "system:kube-controller-manager"]
  - level: None
    nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
  - level: RequestResponse
    namespaces: ["audited"]
    resources:
      - group: ""
        resources: ["configmaps"]
    omitManagedFields: true
  - level: Request
    resources:
      - group: ""
        resources: ["secrets"]
      - group: authentication.k8s.io
        resources: ["tokenreviews"]
    omitStages: ["RequestReceived"]
  - level: Metadata
    omitStages: ["RequestReceived"]
`;

let dir: string;
let host: NodeHost;
let logPath: string;

async function call(method: string, path: string, token: string | undefined, body?: unknown): Promise<{ status: number; auditId: string; text: string }> {
  const res = await fetch(`${host.url}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, auditId: res.headers.get('audit-id') ?? '', text: await res.text() };
}

function events(): AuditEvent[] {
  return readFileSync(logPath, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditEvent);
}

/** The events of one request, waiting a little for the ones written when the body is done. */
async function eventsOf(auditId: string, count: number): Promise<AuditEvent[]> {
  for (let i = 0; i < 50; i++) {
    const found = events().filter((e) => e.auditID === auditId);
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  return events().filter((e) => e.auditID === auditId);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubetab-audit-'));
  logPath = join(dir, 'audit.log');
  writeFileSync(join(dir, 'tokens.csv'), `${ADMIN},admin,admin,system:masters\n${JANE},jane,jane\n`);
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  host = await startNodeHost({
    port: 0,
    flags: { 'authorization-mode': 'Node,RBAC', 'token-auth-file': join(dir, 'tokens.csv'), 'audit-policy-file': join(dir, 'policy.yaml'), 'audit-log-path': logPath },
  });
  expect((await call('POST', '/api/v1/namespaces', ADMIN, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'audited' } })).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('--audit-policy-file with --audit-log-path', () => {
  it('RequestResponse: RequestReceived and ResponseComplete, with the request and response objects (managedFields omitted)', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'recorded' }, data: { greeting: 'hello' } };
    const created = await call('POST', '/api/v1/namespaces/audited/configmaps', ADMIN, cm);
    expect(created.status).toBe(201);
    const [received, complete] = await eventsOf(created.auditId, 2);
    expect(received).toMatchObject({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'RequestResponse', stage: 'RequestReceived', verb: 'create', user: { username: 'admin' } });
    expect(received!.responseStatus).toBeUndefined();
    expect(complete).toMatchObject({
      level: 'RequestResponse',
      stage: 'ResponseComplete',
      requestURI: '/api/v1/namespaces/audited/configmaps',
      objectRef: { resource: 'configmaps', namespace: 'audited', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      requestObject: cm,
      responseObject: { kind: 'ConfigMap', metadata: { name: 'recorded', namespace: 'audited' }, data: { greeting: 'hello' } },
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    });
    expect((complete!.responseObject as { metadata: Record<string, unknown> }).metadata.managedFields).toBeUndefined();
  });

  it('bodies in Kubernetes protobuf (as kubectl and client-go send them) are recorded decoded, as JSON objects', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-protobuf' }, data: { x: 'y' } };
    const res = await fetch(`${host.url}/api/v1/namespaces/audited/configmaps`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/vnd.kubernetes.protobuf, application/json' },
      body: Uint8Array.from(encodeKubernetesProtobuf(cm)),
    });
    await res.arrayBuffer();
    expect(res.status).toBe(201);
    const found = await eventsOf(res.headers.get('audit-id')!, 2);
    expect(found[1]).toMatchObject({
      stage: 'ResponseComplete',
      requestObject: { kind: 'ConfigMap', metadata: { name: 'from-protobuf' }, data: { x: 'y' } },
      responseObject: { kind: 'ConfigMap', metadata: { name: 'from-protobuf', namespace: 'audited' }, data: { x: 'y' } },
    });
  });

  it('Request: the request object and no response object; the rule\'s omitStages leaves RequestReceived out', async () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { a: 'b' } };
    const created = await call('POST', '/api/v1/namespaces/audited/secrets', ADMIN, secret);
    const found = await eventsOf(created.auditId, 1);
    expect(found.map((e) => e.stage)).toEqual(['ResponseComplete']);
    expect(found[0]).toMatchObject({ level: 'Request', requestObject: secret });
    expect(found[0]!.responseObject).toBeUndefined();
  });

  it('Metadata: no bodies; a 403 carries the Status and the forbid decision', async () => {
    const denied = await call('GET', '/api/v1/namespaces/audited/pods', JANE);
    expect(denied.status).toBe(403);
    const [event] = await eventsOf(denied.auditId, 1);
    expect(event).toMatchObject({
      level: 'Metadata',
      stage: 'ResponseComplete',
      user: { username: 'jane', groups: ['system:authenticated'] },
      responseStatus: { status: 'Failure', reason: 'Forbidden', code: 403, message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "audited"' },
      annotations: { 'authorization.k8s.io/decision': 'forbid' },
    });
    expect(event!.requestObject).toBeUndefined();
  });

  it('a watch: ResponseStarted when it starts, ResponseComplete when it ends, same auditID', async () => {
    const watched = await call('GET', '/api/v1/namespaces/audited/configmaps?watch=1&timeoutSeconds=1', ADMIN);
    expect(watched.status).toBe(200);
    const found = await eventsOf(watched.auditId, 3);
    expect(found.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(found.every((e) => e.verb === 'watch' && e.responseStatus?.code !== undefined ? e.responseStatus.code === 200 : true)).toBe(true);
    expect(found[2]!.responseObject).toBeUndefined();
  });

  it('a refused token: one event at ResponseStarted with the 401, no user', async () => {
    const refused = await call('GET', '/api/v1/namespaces', BAD);
    expect(refused.status).toBe(401);
    const found = await eventsOf(refused.auditId, 1);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ stage: 'ResponseStarted', user: {}, responseStatus: { code: 401, reason: 'Unauthorized', message: 'Unauthorized' } });
  });

  it('no token ever appears in the file: not the bearer tokens, not a TokenReview\'s spec.token (recorded as "")', async () => {
    const review = await call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', ADMIN, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: JANE } });
    expect(review.status).toBe(201);
    const [event] = await eventsOf(review.auditId, 1);
    expect(event).toMatchObject({ level: 'Request', requestObject: { kind: 'TokenReview', spec: { token: '' } } });
    const text = readFileSync(logPath, 'utf8');
    for (const token of [ADMIN, JANE, BAD]) expect(text).not.toContain(token);
  });

  it('rules with level None record nothing (the server\'s own controllers, health checks)', async () => {
    const health = await call('GET', '/healthz', ADMIN);
    expect(health.status).toBe(200);
    expect(events().some((e) => e.auditID === health.auditId)).toBe(false);
    expect(events().some((e) => e.user.username?.startsWith('system:serviceaccount:kube-system:'))).toBe(false);
  });

  it('the UI\'s GET /kubetab/v1/audit still answers, with the policy\'s level and bodies', async () => {
    const res = await call('GET', '/kubetab/v1/audit?limit=500', ADMIN);
    expect(res.status).toBe(200);
    const list = JSON.parse(res.text) as { kind: string; items: { event: AuditEvent }[] };
    expect(list.kind).toBe('AuditRecordList');
    // (The root-CA publisher also creates a ConfigMap there: level None by the policy, kept at Metadata in this log.)
    const created = list.items.find((i) => i.event.requestURI === '/api/v1/namespaces/audited/configmaps' && i.event.verb === 'create' && i.event.user.username === 'admin');
    expect(created?.event).toMatchObject({ level: 'RequestResponse', requestObject: { metadata: { name: 'recorded' } } });
    expect(res.text).not.toContain(JANE);
  });
});

describe('--audit-log-maxsize rotation', () => {
  it('rotates before a file would pass the size, naming backups as kube does, keeping --audit-log-maxbackup of them', () => {
    const rotDir = join(dir, 'rotation');
    mkdirSync(rotDir);
    let tick = Date.parse('2026-01-02T03:04:05.000Z');
    const file = auditLogFileFromFlags({ 'audit-log-path': join(rotDir, 'audit.log'), 'audit-log-maxsize': '1', 'audit-log-maxbackup': '2' }, () => new Date((tick += 1000)))!;
    const event = { kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: 'x', stage: 'ResponseComplete', requestURI: '/' + 'a'.repeat(1000), verb: 'get', user: {}, requestReceivedTimestamp: '', stageTimestamp: '' } as AuditEvent;
    for (let i = 0; i < 3500; i++) file.write(event); // about 3.6 MB: three rotations
    file.close();
    const names = readdirSync(rotDir).sort();
    expect(names).toEqual(['audit-2026-01-02T03-04-07.000.log', 'audit-2026-01-02T03-04-08.000.log', 'audit.log']);
    for (const n of names) expect(readFileSync(join(rotDir, n)).length).toBeLessThanOrEqual(1024 * 1024);
    expect(backupName('/var/log/audit.log', new Date('2026-05-06T07:08:09.123Z'))).toBe('/var/log/audit-2026-05-06T07-08-09.123.log');
  });

  it('--audit-log-maxage removes backups older than that many days at the next rotation', () => {
    const ageDir = join(dir, 'age');
    mkdirSync(ageDir);
    writeFileSync(join(ageDir, 'audit-2026-01-01T00-00-00.000.log'), 'old\n');
    writeFileSync(join(ageDir, 'audit-2026-01-09T00-00-00.000.log'), 'recent\n');
    const file = auditLogFileFromFlags({ 'audit-log-path': join(ageDir, 'audit.log'), 'audit-log-maxsize': '1', 'audit-log-maxage': '7' }, () => new Date('2026-01-10T00:00:00.000Z'))!;
    const event = { kind: 'Event', requestURI: '/' + 'a'.repeat(2000) } as unknown as AuditEvent;
    for (let i = 0; i < 600; i++) file.write(event); // past 1 MB once
    file.close();
    expect(readdirSync(ageDir).sort()).toEqual(['audit-2026-01-09T00-00-00.000.log', 'audit-2026-01-10T00-00-00.000.log', 'audit.log']);
  });

  it('events carry sourceIPs: X-Forwarded-For, then the connection\'s address', async () => {
    const res = await fetch(`${host.url}/api/v1/namespaces/audited/configmaps/recorded`, { headers: { Authorization: `Bearer ${ADMIN}`, 'X-Forwarded-For': '10.0.0.7' } });
    await res.arrayBuffer();
    const [event] = await eventsOf(res.headers.get('audit-id')!, 1);
    expect(event!.sourceIPs).toEqual(['10.0.0.7', '127.0.0.1']);
  });
});
