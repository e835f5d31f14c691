// kubectl 1.32 cp against the Node server: files go into a busybox
// container and come back out through `tar` over exec (stdin and stdout over
// the WebSocket), byte for byte — a text file, a binary file holding every
// byte value (not valid UTF-8), and a directory tree with a long name.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl } from './testing/kubectl-runner';
import { startClusterKubectl, type ClusterKubectl } from './testing/cluster-kubectl';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-cp.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let cluster: ClusterKubectl;
const ok = (args: string[], input?: string) => cluster.ok(args, input);

/** Bytes that are not UTF-8: every value, in an order that breaks any multi-byte sequence. */
const BINARY = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 131 + (i >> 9)) & 0xff));

describe.skipIf(!KUBECTL)('kubectl cp (tar in the container)', () => {
  beforeAll(async () => {
    cluster = await startClusterKubectl(KUBECTL!, 'kubetab-cp-');
    await ok(['run', 'box', '--image=busybox:1.36', '--', 'sleep', '3600']);
    await cluster.fastForward(ok(['wait', '--for=condition=Ready', 'pod/box', '--timeout=60s']));
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('copies a text file and a binary file in and out unchanged', async () => {
    const local = join(cluster.server.dir, 'files');
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'notes.txt'), 'größe: 1 €\nline two\n');
    writeFileSync(join(local, 'data.bin'), BINARY);

    expect(await ok(['cp', join(local, 'notes.txt'), 'box:/tmp/notes.txt'])).toBe('');
    expect(await ok(['cp', join(local, 'data.bin'), 'box:/tmp/'])).toBe('');
    expect(await ok(['exec', 'box', '--', 'wc', '-c', '/tmp/data.bin'])).toBe(`${BINARY.length} /tmp/data.bin\n`);

    const back = await cluster.run(['cp', 'box:/tmp/notes.txt', join(local, 'notes-back.txt')]);
    expect(back.code).toBe(0);
    // tar's warning on stderr may or may not arrive before kubectl has read the archive and ended.
    expect(back.stderr).toMatch(/^(tar: removing leading '\/' from member names\n)?$/);
    expect(readFileSync(join(local, 'notes-back.txt'), 'utf8')).toBe('größe: 1 €\nline two\n');
    expect((await cluster.run(['cp', 'box:/tmp/data.bin', join(local, 'data-back.bin')])).code).toBe(0);
    expect(readFileSync(join(local, 'data-back.bin')).equals(BINARY)).toBe(true);
  });

  it('copies a directory tree with a long name in and out', async () => {
    const local = join(cluster.server.dir, 'tree');
    const deep = join('sub', 'a-rather-long-directory-name-'.repeat(4), `${'f'.repeat(110)}.bin`);
    mkdirSync(join(local, 'sub', 'a-rather-long-directory-name-'.repeat(4)), { recursive: true });
    writeFileSync(join(local, 'top.txt'), 'top\n');
    writeFileSync(join(local, deep), BINARY.subarray(0, 1000));

    expect(await ok(['cp', local, 'box:/tmp/tree'])).toBe('');
    expect(await ok(['exec', 'box', '--', 'cat', '/tmp/tree/top.txt'])).toBe('top\n');
    expect((await cluster.run(['cp', 'box:/tmp/tree', join(cluster.server.dir, 'tree-back')])).code).toBe(0);
    expect(readFileSync(join(cluster.server.dir, 'tree-back', 'top.txt'), 'utf8')).toBe('top\n');
    expect(readFileSync(join(cluster.server.dir, 'tree-back', deep)).equals(BINARY.subarray(0, 1000))).toBe(true);
  });
});
