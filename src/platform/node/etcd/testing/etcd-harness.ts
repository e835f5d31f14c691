// Starts a real etcd (Debian's etcd-server, 3.4) for tests: one member on
// free loopback ports with its data in a temporary directory, stopped and
// removed by stop(). `findEtcd()` says whether the binary is there, so that
// test files can skip with a clear message when it is not.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface RunningEtcd {
  /** http://127.0.0.1:<port>, as --etcd-servers takes it. */
  readonly url: string;
  readonly dataDir: string;
  /** etcdctl's output for `args` against this etcd (v3 API). */
  etcdctl(...args: string[]): string;
  /** Stops etcd (SIGTERM, then SIGKILL) and keeps its data; start() again resumes it on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** The etcd binary on PATH (or Debian's /usr/bin/etcd), or undefined. */
export function findEtcd(): string | undefined {
  return findBinary('etcd');
}

export function findEtcdctl(): string | undefined {
  return findBinary('etcdctl');
}

function findBinary(name: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin']) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** Why etcd tests are skipped, for the skip message. */
export const ETCD_MISSING = 'etcd is not installed (apt-get install etcd-server etcd-client): the etcd store tests are skipped';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`etcd exited with ${child.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${url}/health`);
      const body = (await response.json()) as { health?: string };
      if (body.health === 'true') return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`etcd did not become healthy:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startEtcd(): Promise<RunningEtcd> {
  const binary = findEtcd();
  if (!binary) throw new Error(ETCD_MISSING);
  const dataDir = await mkdtemp(join(tmpdir(), 'kubetab-etcd-'));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const url = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  let output = '';
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(
      binary,
      [
        '--name=kubetab-test',
        `--data-dir=${join(dataDir, 'data')}`,
        `--listen-client-urls=${url}`,
        `--advertise-client-urls=${url}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=kubetab-test=${peer}`,
        '--log-level=warn',
        '--logger=zap',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ETCD_UNSUPPORTED_ARCH: process.env.ETCD_UNSUPPORTED_ARCH ?? '' } },
    );
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    await waitHealthy(url, child, () => output);
  };
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  await launch();
  return {
    url,
    dataDir,
    etcdctl(...args: string[]) {
      const etcdctl = findEtcdctl();
      if (!etcdctl) throw new Error('etcdctl is not installed (apt-get install etcd-client)');
      const result = spawnSync(etcdctl, [`--endpoints=${url}`, ...args], { env: { ...process.env, ETCDCTL_API: '3' }, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`etcdctl ${args.join(' ')} failed: ${result.stderr}`);
      return result.stdout;
    },
    pause: halt,
    resume: launch,
    async stop() {
      await halt();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
