// `npm run serve` as a user runs it (issue 16 items 20, 23, 24): the CLI in a
// child process, its exit code, what it prints on stderr, and what it leaves
// in the temp directory.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'kubetab-cli-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI with its own TMPDIR; `until` (on stdout) is when to send SIGTERM. */
function runCli(args: readonly string[], options: { readonly tmp: string; readonly until?: RegExp }): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, TMPDIR: options.tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const freshTmp = () => mkdtempSync(join(scratch, 'tmp-'));

describe('npm run serve', () => {
  it('refuses an unknown flag with kube-apiserver\'s error and the usage, exit code 1', async () => {
    const run = await runCli(['--bogus-flag'], { tmp: freshTmp() });
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe('Error: unknown flag: --bogus-flag');
    expect(run.stderr).toContain('Usage: npm run serve');
    expect(run.stdout).toBe('');
  }, 60_000);

  it('refuses a kube-apiserver flag it does not implement, in one line', async () => {
    const run = await runCli(['--encryption-provider-config=/etc/kubernetes/enc.yaml'], { tmp: freshTmp() });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Error: flag --encryption-provider-config is a kube-apiserver flag that KubeTab does not implement; remove it to start the server\n');
  }, 60_000);

  it('says in one line that the port is taken, as kube-apiserver does', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = await runCli(['--open', '--nodes', '0', '--port', String(port)], { tmp: freshTmp() });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`Error: failed to listen on 127.0.0.1:${port}: listen tcp 127.0.0.1:${port}: bind: address already in use\n`);
    } finally {
      taken.close();
    }
  }, 60_000);

  it('names a damaged snapshot in one line', async () => {
    const dataDir = mkdtempSync(join(scratch, 'data-'));
    writeFileSync(join(dataDir, 'snapshot.json'), '{"format": 1, "revis');
    const run = await runCli(['--open', '--nodes', '0', '--port', '0', '--data-dir', dataDir], { tmp: freshTmp() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^Error: ${join(dataDir, 'snapshot.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged .*\n$`));
  }, 60_000);

  it('in memory, leaves no keys behind after SIGTERM, and runs the credential plugin without tsx', async () => {
    const tmp = freshTmp();
    const kubeconfig = join(scratch, `kubeconfig-${Date.now()}`);
    const run = await runCli(['--nodes', '0', '--port', '0', '--kubeconfig', kubeconfig], { tmp, until: /Data kept in memory/ });
    expect(run.stdout).toContain('SIGTERM: shutting down');
    expect(run.code).toBe(0);
    // The kubeconfig's exec user runs a bundled .mjs with plain node, and it was in the removed directory.
    const text = readFileSync(kubeconfig, 'utf8');
    const pluginArgs = [...text.matchAll(/^\s+- (\S+credential-plugin\S*)$/gm)].map((m) => m[1]!);
    expect(pluginArgs).toHaveLength(1);
    expect(pluginArgs[0]).toMatch(/credential-plugin\.mjs$/);
    expect(text).not.toContain('tsx');
    expect(readdirSync(tmp).filter((name) => name.startsWith('kubetab-pki-'))).toEqual([]);
  }, 90_000);
});
