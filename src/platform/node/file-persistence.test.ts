// The conformance suite against the engine over the on-disk log, plus the
// file format's own promises: a torn last line is ignored, a failed write
// leaves no half commit behind, compaction rewrites the snapshot.

import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../core/clock';
import { openStore } from '../../core/storage/mvcc-store';
import { PersistenceError } from '../../core/storage/types';
import { runStoreConformance } from '../../storage/conformance.suite';
import { withFaults } from '../../storage/faulty-persistence';
import { createFilePersistence } from './file-persistence';

const root = await mkdtemp(join(tmpdir(), 'kubetab-file-persistence-'));
afterAll(() => rm(root, { recursive: true, force: true }));
let n = 0;
let lastDir = '';
const freshDir = () => (lastDir = join(root, `store-${++n}`));

// snapshotMinBytes 0: every compaction rewrites the snapshot, so the suite exercises that path too.
runStoreConformance('file', {
  open: (clock) => openStore({ clock, persistence: createFilePersistence(freshDir(), { snapshotMinBytes: 0 }) }),
  reopen: (clock) => openStore({ clock, persistence: createFilePersistence(lastDir, { snapshotMinBytes: 0 }) }),
  openWithFaults: (clock, faults) => openStore({ clock, persistence: withFaults(createFilePersistence(freshDir(), { snapshotMinBytes: 0 }), faults) }),
});

describe('file persistence format', () => {
  it('ignores a torn last line: the commit it held never happened (rule: a commit is atomic)', async () => {
    const dir = freshDir();
    const clock = manualClock();
    const store = await openStore({ clock, persistence: createFilePersistence(dir) });
    const a = await store.create('/a', () => 'a');
    await store.close();
    const log = join(dir, 'log.jsonl');
    const whole = await readFile(log, 'utf8');
    expect(whole.endsWith('\n')).toBe(true);
    // A crash in the middle of writing the next commit.
    await appendFile(log, '{"t":"c","m":{"revision":99999999999999,"compactedRevision":1},"c":[{"revision":9999');
    const again = await openStore({ clock, persistence: createFilePersistence(dir) });
    await again.ready();
    expect(again.currentRevision()).toBe(a.modRevision);
    expect((await again.range({ prefix: '/' })).kvs.map((kv) => kv.key)).toEqual(['/a']);
    // The torn bytes are gone, so the next commit is a clean line.
    const b = await again.create('/b', () => 'b');
    await again.close();
    const lines = (await readFile(log, 'utf8')).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).every((line) => JSON.parse(line))).toBe(true);
    const third = await openStore({ clock, persistence: createFilePersistence(dir) });
    expect((await third.get('/b'))?.modRevision).toBe(b.modRevision);
    await third.close();
  });

  it('refuses to open a log damaged before its last line rather than lose later commits', async () => {
    const dir = freshDir();
    const store = await openStore({ clock: manualClock(), persistence: createFilePersistence(dir) });
    await store.create('/a', () => 'a');
    await store.create('/b', () => 'b');
    await store.close();
    const log = join(dir, 'log.jsonl');
    const lines = (await readFile(log, 'utf8')).split('\n');
    lines[0] = lines[0]!.slice(0, 10);
    await writeFile(log, lines.join('\n'));
    await expect(createFilePersistence(dir).open(1)).rejects.toBeInstanceOf(PersistenceError);
  });

  /** A data directory with a few commits, closed. */
  async function storeWithCommits(count: number): Promise<string> {
    const dir = freshDir();
    const store = await openStore({ clock: manualClock(), persistence: createFilePersistence(dir) });
    for (let i = 0; i < count; i++) await store.create(`/k${i}`, () => 'x'.repeat(50));
    await store.close();
    return dir;
  }

  it('refuses a log cut in half (a torn last line that hides lost commits): revisions handed out must never be handed out again', async () => {
    const dir = await storeWithCommits(20);
    const log = join(dir, 'log.jsonl');
    const whole = await readFile(log);
    await writeFile(log, whole.subarray(0, Math.floor(whole.length / 2)));
    const error = await createFilePersistence(dir).open(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersistenceError);
    expect((error as Error).message).toContain(log);
    expect((error as Error).message).toMatch(/was already handed out.*restore the data directory from a backup/);
  });

  it('refuses a data directory whose log was deleted', async () => {
    const dir = await storeWithCommits(3);
    await rm(join(dir, 'log.jsonl'));
    const error = await createFilePersistence(dir).open(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersistenceError);
    expect((error as Error).message).toContain('log.jsonl is missing');
  });

  it('refuses a whole log line whose fields are not a record (no revision would become NaN)', async () => {
    const dir = await storeWithCommits(2);
    const log = join(dir, 'log.jsonl');
    const lines = (await readFile(log, 'utf8')).split('\n');
    const first = JSON.parse(lines[0]!);
    delete first.m.revision;
    lines[0] = JSON.stringify(first);
    await writeFile(log, lines.join('\n'));
    const error = await createFilePersistence(dir).open(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersistenceError);
    expect((error as Error).message).toMatch(/log\.jsonl: line 1 is damaged \(no valid m\.revision/);
  });

  it('names the snapshot file when it cannot be parsed', async () => {
    const dir = await storeWithCommits(1);
    await writeFile(join(dir, 'snapshot.json'), '{"format":1,"meta":');
    const error = await createFilePersistence(dir).open(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersistenceError);
    expect((error as Error).message).toContain(join(dir, 'snapshot.json'));
  });

  it('compaction rewrites the snapshot once the log outgrows it, and the state survives', async () => {
    const dir = freshDir();
    const clock = manualClock();
    const store = await openStore({ clock, persistence: createFilePersistence(dir, { snapshotMinBytes: 1024 }) });
    let kv = await store.create('/big', () => 'x'.repeat(100));
    for (let i = 0; i < 30; i++) kv = await store.update('/big', kv.modRevision, () => `${i}`.repeat(100));
    expect((await stat(join(dir, 'log.jsonl'))).size).toBeGreaterThan(1024);
    await store.compact(kv.modRevision - 1);
    expect((await stat(join(dir, 'log.jsonl'))).size).toBe(0);
    const snapshot = JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8'));
    expect(snapshot.meta).toEqual({ revision: kv.modRevision, compactedRevision: kv.modRevision - 1 });
    await store.close();
    const again = await openStore({ clock, persistence: createFilePersistence(dir) });
    await again.ready();
    expect(again.compactedRevision()).toBe(kv.modRevision - 1);
    expect((await again.get('/big'))?.value).toBe(kv.value);
    expect((await again.get('/big', kv.modRevision - 1))?.value).toBe('28'.repeat(100));
    await again.close();
  });
});
