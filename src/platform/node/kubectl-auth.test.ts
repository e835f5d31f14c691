// kubectl 1.32 against the Node server in its secure default set-up (the
// CLI's: Node,RBAC, an administrator token, https with a self-signed
// certificate): `kubectl auth can-i` (with --list, --as, --as-group, -n) over
// the default roles, `kubectl auth whoami` in text, JSON and YAML,
// `kubectl create token`, and a kubeconfig user whose credentials come from
// the credential plugin. Spec 001 "Review objects and endpoints", "Client
// credential plugins", "RBAC rules" 6–7. Every assertion is on what kubectl
// prints.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, kubectlRunner, type Run } from './testing/kubectl-runner';
import { pluginCommand } from './credential-plugin';
import { writeKubeconfig } from './kubeconfig';
import { startNodeHost, type NodeHost } from './node-host';
import { secureDefaults } from './secure-defaults';
import { tlsFromFlags } from './tls-flags';
import { ensureClusterAdminsBinding } from './admin-certificate';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-auth.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let host: NodeHost;
let dir: string;
let kubeconfig: string;
const { run: kubectl, ok } = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig, dir }));

/** `kubectl auth can-i` prints yes or no (exit 0 or 1). */
async function canI(args: string[]): Promise<string> {
  const run = await kubectl(['auth', 'can-i', ...args]);
  const answer = run.stdout.trim();
  expect(['yes', 'no'], `kubectl auth can-i ${args.join(' ')}\n${run.stderr}`).toContain(answer);
  expect(run.code).toBe(answer === 'yes' ? 0 : 1);
  return answer;
}

/** Runs tasks a few at a time (kubectl start-up dominates). */
async function inBatches<T>(tasks: (() => Promise<T>)[], size = 4): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < tasks.length; i += size) out.push(...(await Promise.all(tasks.slice(i, i + size).map((t) => t()))));
  return out;
}

describe.skipIf(!KUBECTL)('kubectl auth against the secured Node server', () => {
  let tokenFile: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetab-kubectl-auth-'));
    kubeconfig = join(dir, 'kubeconfig');
    // What `npm run serve -- --data-dir DIR` does: the secure defaults kept under DIR/pki.
    const secure = await secureDefaults({}, { dataDir: dir, bindAddress: '127.0.0.1' });
    tokenFile = secure.tokenFile;
    host = await startNodeHost({ port: 0, flags: secure.flags, tls: tlsFromFlags(secure.flags) });
    await host.apiServer.idle();
    await writeKubeconfig(kubeconfig, {
      server: host.url,
      certificateAuthorityData: tlsFromFlags(secure.flags)!.cert.toString(),
      token: secure.adminToken!,
      userName: 'kubernetes-admin',
      execUsers: [{ name: 'kubetab-default-sa', ...pluginCommand('system:serviceaccount:default:default', tokenFile) }],
      certificateUsers: [{ name: 'kubernetes-admin-cert', ...secure.adminCertificate! }],
    });
    // What the CLI does after start when it made the cluster CA (kubeadm init's binding).
    await ensureClusterAdminsBinding(host.apiServer, host.url);
    // The roles of the matrix, bound as a namespace administrator would bind them.
    await ok(['create', 'namespace', 'team']);
    await ok(['create', 'clusterrolebinding', 'root-cluster-admin', '--clusterrole=cluster-admin', '--user=root']);
    for (const role of ['admin', 'edit', 'view']) await ok(['create', 'rolebinding', `${role}-binding`, `--clusterrole=${role}`, `--user=${role}-user`, '-n', 'team']);
    await ok(['create', 'rolebinding', 'viewers', '--clusterrole=view', '--group=team-viewers', '-n', 'team']);
  }, 120_000);
  afterAll(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('kubeadm\'s admin.conf user: a client certificate in kubeadm:cluster-admins, bound to cluster-admin (not system:masters)', async () => {
    const out = await ok(['--context', 'kubernetes-admin-cert', 'auth', 'whoami']);
    expect(out).toMatch(/^Username\s+kubernetes-admin$/m);
    expect(out).toMatch(/^Groups\s+\[kubeadm:cluster-admins system:authenticated\]$/m);
    expect((await kubectl(['--context', 'kubernetes-admin-cert', 'auth', 'can-i', '*', '*'])).stdout.trim()).toBe('yes');
    expect(await ok(['get', 'clusterrolebinding', 'kubeadm:cluster-admins', '-o', 'jsonpath={.roleRef.name} {.subjects[0].kind}/{.subjects[0].name}'])).toBe('cluster-admin Group/kubeadm:cluster-admins');
  });

  it('https with the generated certificate, the administrator\'s token in system:masters (kubectl auth whoami)', async () => {
    expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const out = await ok(['auth', 'whoami']);
    expect(out).toMatch(/^ATTRIBUTE\s+VALUE\n/);
    expect(out).toMatch(/^Username\s+kubernetes-admin$/m);
    expect(out).toMatch(/^Groups\s+\[system:masters system:authenticated\]$/m);
  });

  it('kubectl auth whoami -o json and -o yaml print the SelfSubjectReview', async () => {
    const json = JSON.parse(await ok(['auth', 'whoami', '-o', 'json']));
    expect(json).toMatchObject({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      status: { userInfo: { username: 'kubernetes-admin', uid: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } },
    });
    const yaml = await ok(['auth', 'whoami', '-o', 'yaml']);
    expect(yaml).toMatch(/^apiVersion: authentication\.k8s\.io\/v1$/m);
    expect(yaml).toMatch(/^kind: SelfSubjectReview$/m);
    expect(yaml).toMatch(/^\s+username: kubernetes-admin$/m);
    const as = JSON.parse(await ok(['auth', 'whoami', '-o', 'json', '--as', 'alice', '--as-group', 'qa']));
    expect(as.status.userInfo).toEqual({ username: 'alice', groups: ['qa', 'system:authenticated'] });
  });

  // The default roles of a 1.32 cluster, as `kubectl auth can-i <verb> <resource> -n team --as <user>` answers.
  // cluster-admin through a ClusterRoleBinding; admin, edit and view through RoleBindings in "team";
  // a user with no binding has what system:authenticated gets (system:basic-user, system:discovery,
  // system:public-info-viewer).
  const USERS = ['root', 'admin-user', 'edit-user', 'view-user', 'nobody'] as const;
  const MATRIX: [verb: string, resource: string, answers: Record<(typeof USERS)[number], 'yes' | 'no'>][] = [
    ['get', 'pods', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'yes', nobody: 'no' }],
    ['list', 'deployments.apps', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'yes', nobody: 'no' }],
    ['create', 'pods', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'no', nobody: 'no' }],
    ['delete', 'deployments.apps', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'no', nobody: 'no' }],
    ['create', 'pods/exec', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'no', nobody: 'no' }],
    ['get', 'secrets', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'no', nobody: 'no' }],
    ['get', 'configmaps', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'yes', nobody: 'no' }],
    ['create', 'roles.rbac.authorization.k8s.io', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'no', 'view-user': 'no', nobody: 'no' }],
    ['create', 'rolebindings.rbac.authorization.k8s.io', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'no', 'view-user': 'no', nobody: 'no' }],
    ['get', 'resourcequotas', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'yes', nobody: 'no' }],
    ['update', 'resourcequotas', { root: 'yes', 'admin-user': 'no', 'edit-user': 'no', 'view-user': 'no', nobody: 'no' }],
    ['delete', 'namespaces', { root: 'yes', 'admin-user': 'no', 'edit-user': 'no', 'view-user': 'no', nobody: 'no' }],
    ['list', 'nodes', { root: 'yes', 'admin-user': 'no', 'edit-user': 'no', 'view-user': 'no', nobody: 'no' }],
    ['create', 'selfsubjectaccessreviews.authorization.k8s.io', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'yes', nobody: 'yes' }],
    ['create', 'localsubjectaccessreviews.authorization.k8s.io', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'no', 'view-user': 'no', nobody: 'no' }],
    ['get', '/apis', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'yes', nobody: 'yes' }],
    ['get', '/healthz', { root: 'yes', 'admin-user': 'yes', 'edit-user': 'yes', 'view-user': 'yes', nobody: 'yes' }],
    ['get', '/metrics', { root: 'yes', 'admin-user': 'no', 'edit-user': 'no', 'view-user': 'no', nobody: 'no' }],
  ];

  it('kubectl auth can-i for the default roles over common verbs and resources (--as, -n)', async () => {
    const cases = MATRIX.flatMap(([verb, resource, answers]) => USERS.map((user) => ({ verb, resource, user, expected: answers[user] })));
    const got = await inBatches(cases.map((c) => () => canI([c.verb, c.resource, '-n', 'team', '--as', c.user])));
    const mismatches = cases.flatMap((c, i) => (got[i] === c.expected ? [] : [`${c.user} ${c.verb} ${c.resource}: expected ${c.expected}, got ${got[i]}`]));
    expect(mismatches).toEqual([]);
  }, 180_000);

  it('the same grant through a group: --as-group', async () => {
    expect(await canI(['list', 'pods', '-n', 'team', '--as', 'dora', '--as-group', 'team-viewers'])).toBe('yes');
    expect(await canI(['list', 'pods', '-n', 'team', '--as', 'dora'])).toBe('no');
    expect(await canI(['list', 'pods', '-n', 'default', '--as', 'dora', '--as-group', 'team-viewers'])).toBe('no');
  });

  it('kubectl auth can-i --list shows the rules of the namespace', async () => {
    const out = await ok(['auth', 'can-i', '--list', '-n', 'team', '--as', 'view-user']);
    expect(out).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\s*$/m);
    expect(out).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]\s*$/m);
    expect(out).toMatch(/^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]\s*$/m);
    expect(out).toMatch(/^\s+\[\/healthz\]\s+\[\]\s+\[get\]\s*$/m);
    expect(out).not.toMatch(/^secrets\s/m);
    const root = await ok(['auth', 'can-i', '--list', '-n', 'team']);
    expect(root).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\s*$/m);
  });

  it('kubectl create token prints a token that authenticates as the service account', async () => {
    await expect.poll(async () => (await kubectl(['get', 'serviceaccount', 'default', '-n', 'default'])).code, { timeout: 10_000 }).toBe(0);
    const token = (await ok(['create', 'token', 'default', '-n', 'default'])).trim();
    expect(token.split('.')).toHaveLength(3);
    const who = JSON.parse(await ok(['auth', 'whoami', '-o', 'json', '--token', token]));
    expect(who.status.userInfo.username).toBe('system:serviceaccount:default:default');
    const bad = await kubectl(['get', 'pods', '--token', `${token}x`]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  });

  it('a kubeconfig user whose token comes from the credential plugin (KUBERNETES_EXEC_INFO)', async () => {
    const out = await ok(['--context', 'kubetab-default-sa', 'auth', 'whoami']);
    expect(out).toMatch(/^Username\s+system:serviceaccount:default:default$/m);
    const pods = await kubectl(['--context', 'kubetab-default-sa', 'get', 'pods', '-n', 'team']);
    expect(pods.code).not.toBe(0);
    expect(pods.stderr.trim()).toBe(
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "team"',
    );
    // kubectl starts the plugin (a Node process) for every command: slow on a loaded two-core machine.
  }, 120_000);

  it('the credential plugin prints an ExecCredential of the version kubectl asks for', async () => {
    const { command, args } = pluginCommand('kubernetes-admin', tokenFile);
    const run = await new Promise<Run>((resolve) =>
      execFile(command, args, { env: { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', spec: { interactive: false } }) } }, (error, stdout, stderr) =>
        resolve({ code: error ? 1 : 0, stdout: String(stdout), stderr: String(stderr) }),
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    const credential = JSON.parse(run.stdout);
    expect(credential).toMatchObject({ apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', status: { token: expect.any(String) } });
    expect(credential.status.expirationTimestamp).toBeUndefined();
  });
});
