// Configuration files reloaded when they change (spec 001: --authorization-config
// "is reloaded when the file changes and otherwise every 60 seconds";
// --authentication-config "reloads the file automatically on change"): the
// files are rewritten on disk while the Node server runs, and the answers a
// client gets change accordingly. A bad new version is refused with kube's
// log text and the last good version stays in use; the anonymous section may
// not change. Assertions are on HTTP answers and the logged lines.

import { mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigReload } from '../../core/server';
import { startNodeHost, type NodeHost } from './node-host';

const ADMIN = 'admin-token-0123456789';
const JANE = 'jane-token-0123456789';
const ISSUER = 'https://kubernetes.default.svc.cluster.local/kubetab/v1/oidc';

let dir: string;
let host: NodeHost;
const logged: string[] = [];
let waiters: ((outcomes: readonly ConfigReload[]) => void)[] = [];

function authorization(types: string[]): string {
  return `apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
${types.map((t) => `  - type: ${t}\n    name: ${t.toLowerCase()}`).join('\n')}
`;
}

function authentication(usernameExpression: string, anonymous = true): string {
  return JSON.stringify({
    apiVersion: 'apiserver.config.k8s.io/v1beta1',
    kind: 'AuthenticationConfiguration',
    jwt: [{ issuer: { url: ISSUER, audiences: ['kubetab'] }, claimMappings: { username: { expression: usernameExpression } } }],
    anonymous: { enabled: anonymous },
  });
}

/** Replaces a file as editors do (write aside, rename over), then waits for the watcher's check that sees it. */
async function replace(name: string, text: string): Promise<readonly ConfigReload[]> {
  const seen = new Promise<readonly ConfigReload[]>((resolve) => {
    const waiter = (outcomes: readonly ConfigReload[]) => {
      if (!outcomes.every((o) => o.status === 'unchanged')) {
        waiters = waiters.filter((w) => w !== waiter);
        resolve(outcomes);
      }
    };
    waiters.push(waiter);
  });
  writeFileSync(join(dir, `${name}.tmp`), text);
  renameSync(join(dir, `${name}.tmp`), join(dir, name));
  return seen;
}

async function get(path: string, token: string): Promise<number> {
  const res = await fetch(`${host.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

async function whoami(token: string): Promise<{ status: number; username?: string }> {
  const res = await fetch(`${host.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  });
  const body = (await res.json()) as { status?: { userInfo?: { username?: string } } };
  return res.status === 201 ? { status: 201, username: body.status!.userInfo!.username! } : { status: res.status };
}

async function mint(sub: string): Promise<string> {
  const res = await fetch(`${host.url}/kubetab/v1/oidc/token`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ claims: { sub, aud: 'kubetab' } }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id_token: string }).id_token;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubetab-reload-'));
  writeFileSync(join(dir, 'tokens.csv'), `${ADMIN},admin,admin,system:masters\n${JANE},jane,jane\n`);
  writeFileSync(join(dir, 'authz.yaml'), authorization(['Node', 'RBAC']));
  writeFileSync(join(dir, 'authn.json'), authentication("'k8s-' + claims.sub"));
  host = await startNodeHost({
    port: 0,
    flags: { 'authorization-config': join(dir, 'authz.yaml'), 'authentication-config': join(dir, 'authn.json'), 'token-auth-file': join(dir, 'tokens.csv') },
    configWatcher: {
      log: (level, message) => logged.push(`${level}: ${message}`),
      debounceMs: 50,
      onReload: (outcomes) => waiters.forEach((w) => w(outcomes)),
    },
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('--authorization-config reloaded on change', () => {
  it('a valid new version is used at once: AlwaysAllow added after RBAC lets jane list namespaces', async () => {
    expect(await get('/api/v1/namespaces', JANE)).toBe(403);
    const outcomes = await replace('authz.yaml', authorization(['Node', 'RBAC', 'AlwaysAllow']));
    expect(outcomes).toEqual([
      { file: 'authorization-config', status: 'success' },
      { file: 'authentication-config', status: 'unchanged' },
    ]);
    expect(logged).toContain('info: reloaded authz config');
    expect(await get('/api/v1/namespaces', JANE)).toBe(200);
  });

  it('a version without a type the server started with is refused; the last good one stays', async () => {
    const [outcome] = await replace('authz.yaml', authorization(['Node', 'AlwaysAllow']));
    expect(outcome).toEqual({ file: 'authorization-config', status: 'failure', error: 'reloading authorization config: missing required types: [RBAC]' });
    expect(logged).toContain('error: reloading authorization config: missing required types: [RBAC]');
    expect(await get('/api/v1/namespaces', JANE)).toBe(200);
  });

  it('a type the server did not start with (ABAC) cannot be added', async () => {
    const [outcome] = await replace('authz.yaml', authorization(['Node', 'RBAC', 'ABAC']));
    expect(outcome!.error).toBe('reloading authorization config: authorizer type ABAC is not allowed if it was not enabled at initial server startup');
  });

  it('a file that does not decode is refused; back to the first version, jane is forbidden again', async () => {
    expect((await replace('authz.yaml', 'kind: [unclosed'))[0]!.status).toBe('failure');
    expect(await get('/api/v1/namespaces', JANE)).toBe(200);
    expect((await replace('authz.yaml', authorization(['Node', 'RBAC'])))[0]!.status).toBe('success');
    expect(await get('/api/v1/namespaces', JANE)).toBe(403);
  });
});

describe('--authentication-config reloaded on change', () => {
  it('new claim mappings apply to the next request (the same token now names another user)', async () => {
    const token = await mint('john');
    expect(await whoami(token)).toEqual({ status: 201, username: 'k8s-john' });
    const outcomes = await replace('authn.json', authentication("'panda-' + claims.sub"));
    expect(outcomes.find((o) => o.file === 'authentication-config')).toEqual({ file: 'authentication-config', status: 'success' });
    expect(logged).toContain('info: reloaded authentication config');
    expect(await whoami(token)).toEqual({ status: 201, username: 'panda-john' });
  });

  it('a structurally invalid version (CEL that does not compile) is refused and the last good one kept', async () => {
    const token = await mint('john');
    const outcomes = await replace('authn.json', authentication("'k8s-' + claimss.sub"));
    const outcome = outcomes.find((o) => o.file === 'authentication-config')!;
    expect(outcome.status).toBe('failure');
    expect(outcome.error).toMatch(/^failed to validate authentication config: jwt\[0\]\.claimMappings\.username\.expression: Invalid value: "'k8s-' \+ claimss\.sub": compilation failed: /);
    expect(await whoami(token)).toEqual({ status: 201, username: 'panda-john' });
  });

  it('the anonymous section may not change from the file the server started with', async () => {
    const outcomes = await replace('authn.json', authentication("'k8s-' + claims.sub", false));
    expect(outcomes.find((o) => o.file === 'authentication-config')).toEqual({
      file: 'authentication-config',
      status: 'failure',
      error: 'failed to validate authentication config: anonymous: Forbidden: changed from initial configuration file',
    });
    expect(await whoami(await mint('john'))).toEqual({ status: 201, username: 'panda-john' });
  });

  it('a version that removes every JWT authenticator makes such tokens stop working (401)', async () => {
    const token = await mint('john');
    await replace('authn.json', JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthenticationConfiguration', anonymous: { enabled: true } }));
    expect(await whoami(token)).toEqual({ status: 401 });
  });
});
