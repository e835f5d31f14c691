// A kubectl credential plugin (client.authentication.k8s.io ExecCredential)
// for the Node server: prints a bearer token for a named identity.
//
//   npm run credential-plugin -- --identity <name> --token-file <tokens.csv>
//
// - a user of the token file (--token-auth-file) gets its static token, with
//   no expiration (kubectl keeps it until a 401 or its exit);
// - system:serviceaccount:<namespace>:<name> gets a fresh TokenRequest token
//   (one hour, with its expirationTimestamp), asked from the server named in
//   KUBERNETES_EXEC_INFO (provideClusterInfo: true) with the token of the token
//   file's system:masters user, as `kubectl create token` would.
// The ExecCredential's apiVersion follows the one kubectl sent in
// KUBERNETES_EXEC_INFO (v1 when absent). Errors go to stderr, exit code 1.

import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
// Only the two small modules it needs (not core/auth's index): the plugin runs at every kubectl
// call, and its bundle (credential-plugin-bundle.ts) must stay small to start fast.
import { parseTokenFile } from '../../core/auth/authn/token-file';
import { splitServiceAccountUsername } from '../../core/auth/authn/service-account';

/** The first token of a system:masters user in a token file. */
export function adminTokenOf(text: string): string | undefined {
  return parseTokenFile(text).entries.find((e) => e.user.groups.includes('system:masters'))?.token;
}

export const EXEC_API_VERSION = 'client.authentication.k8s.io/v1';

export interface ExecInfo {
  apiVersion?: string;
  kind?: string;
  spec?: { cluster?: { server?: string; 'certificate-authority-data'?: string; 'insecure-skip-tls-verify'?: boolean }; interactive?: boolean };
}

export interface ExecCredential {
  apiVersion: string;
  kind: 'ExecCredential';
  status: { token: string; expirationTimestamp?: string };
}

export interface PluginOptions {
  readonly identity: string;
  /** Contents of the token file. */
  readonly tokenFileText: string;
  /** KUBERNETES_EXEC_INFO, parsed. */
  readonly execInfo?: ExecInfo;
  readonly expirationSeconds?: number;
}

function postJson(url: URL, body: unknown, headers: Record<string, string>, ca: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const options = {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(data) },
      ...(ca ? { ca } : {}),
    };
    const req = (url.protocol === 'https:' ? https : http).request(url, options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function serviceAccountToken(sa: { namespace: string; name: string }, options: PluginOptions): Promise<{ token: string; expirationTimestamp?: string }> {
  const cluster = options.execInfo?.spec?.cluster;
  if (!cluster?.server) throw new Error('KUBERNETES_EXEC_INFO has no cluster: set provideClusterInfo: true for this user in the kubeconfig');
  const admin = adminTokenOf(options.tokenFileText);
  if (!admin) throw new Error('the token file has no system:masters user to ask for service account tokens with');
  const ca = cluster['certificate-authority-data'] ? Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8') : undefined;
  const url = new URL(`${cluster.server.replace(/\/$/, '')}/api/v1/namespaces/${encodeURIComponent(sa.namespace)}/serviceaccounts/${encodeURIComponent(sa.name)}/token`);
  const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: options.expirationSeconds ?? 3600 } };
  const res = await postJson(url, request, { Authorization: `Bearer ${admin}`, 'User-Agent': 'kubetab-credential-plugin' }, ca);
  let body: { status?: { token?: string; expirationTimestamp?: string }; message?: string } = {};
  try {
    body = JSON.parse(res.text) as typeof body;
  } catch {
    // Reported below with the status code.
  }
  if (res.status !== 201 || !body.status?.token) throw new Error(`TokenRequest for ${sa.namespace}/${sa.name} failed (HTTP ${res.status}): ${body.message ?? res.text}`);
  return { token: body.status.token, ...(body.status.expirationTimestamp ? { expirationTimestamp: body.status.expirationTimestamp } : {}) };
}

export async function execCredentialFor(options: PluginOptions): Promise<ExecCredential> {
  const apiVersion = options.execInfo?.apiVersion || EXEC_API_VERSION;
  const entry = parseTokenFile(options.tokenFileText).entries.find((e) => e.user.username === options.identity);
  if (entry) return { apiVersion, kind: 'ExecCredential', status: { token: entry.token } };
  const sa = splitServiceAccountUsername(options.identity);
  if (!sa) throw new Error(`no user ${JSON.stringify(options.identity)} in the token file, and not a service account (system:serviceaccount:<namespace>:<name>)`);
  return { apiVersion, kind: 'ExecCredential', status: await serviceAccountToken(sa, options) };
}

/** The command and arguments a kubeconfig's user.exec runs this plugin with. */
export function pluginCommand(identity: string, tokenFile: string): { command: string; args: string[] } {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: process.execPath, args: ['--import', tsx, fileURLToPath(import.meta.url), '--identity', identity, '--token-file', tokenFile] };
}

function argValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === `--${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const identity = argValue(argv, 'identity');
  const tokenFile = argValue(argv, 'token-file');
  if (!identity || !tokenFile) {
    process.stderr.write('Usage: npm run credential-plugin -- --identity <user or system:serviceaccount:<ns>:<name>> --token-file <tokens.csv>\n');
    process.exit(1);
  }
  const info = process.env.KUBERNETES_EXEC_INFO;
  const execInfo = info ? (JSON.parse(info) as ExecInfo) : undefined;
  const credential = await execCredentialFor({ identity, tokenFileText: await readFile(tokenFile, 'utf8'), ...(execInfo ? { execInfo } : {}) });
  process.stdout.write(`${JSON.stringify(credential)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`kubetab credential plugin: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
