// The Node server's on-disk home for the store (docs/decisions/0013-file-persistence.md).
//
// Two files in `dir`:
// - snapshot.json: { format, meta, current, history } — the full state at some
//   revision, replaced atomically (temp file, fsync, rename, fsync of dir).
// - log.jsonl: what happened since, one JSON object per line, appended and
//   fsync'ed: a commit is ONE line, so it is on disk whole or not at all. A
//   torn last line (crash mid-write) is cut off on load; a write that fails is
//   cut off at once, so the log never holds half a commit before a whole one.
// Compactions append a small line; when the log has grown past the snapshot's
// size (at least `snapshotMinBytes`) a compaction also rewrites the snapshot
// and empties the log. Replay skips log lines the snapshot already contains,
// so a crash between the two steps is harmless.
//
// The persistence keeps its own copy of the state in memory (it must write
// whole snapshots, and it answers getCurrent/loadCurrent from it).
//
// Damage is refused, never repaired silently: a log record whose fields are
// not what this file writes, a log that is missing beside its snapshot, or a
// store that comes back at a revision lower than one already handed out (the
// revision floor in revision-floor.json, kept a little behind the log: it is
// written at most once a second, after commits, and at close) stops the start
// with one message naming the file and what to do. Only a torn last line — a
// crash in the middle of an append, which no client was told had committed —
// is dropped.

import { mkdir, open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import {
  PersistenceError,
  type KeyValue,
  type PersistedChange,
  type PersistedMeta,
  type Persistence,
} from '../../core/storage/types';

export interface FilePersistenceOptions {
  /** The log must be at least this large before a compaction rewrites the snapshot (default 64 KiB). */
  readonly snapshotMinBytes?: number;
}

const SNAPSHOT = 'snapshot.json';
const LOG = 'log.jsonl';
const FLOOR = 'revision-floor.json';
/** How often, at most, the revision floor is written after commits. */
const FLOOR_INTERVAL_MS = 1000;
const RESTORE_HINT = 'restore the data directory from a backup, or move it away to start an empty cluster';
const FORMAT = 1;

/** A current value on disk: [key, value, createRevision, modRevision, version]. */
type StoredKv = [string, string, number, number, number];

interface Snapshot {
  readonly format: number;
  readonly meta: PersistedMeta;
  readonly current: StoredKv[];
  readonly history: PersistedChange[];
}

type LogRecord = { readonly t: 'c'; readonly m: PersistedMeta; readonly c: PersistedChange[] } | { readonly t: 'k'; readonly m: PersistedMeta };

export function createFilePersistence(dir: string, options: FilePersistenceOptions = {}): Persistence {
  const snapshotMinBytes = options.snapshotMinBytes ?? 64 * 1024;
  let meta: PersistedMeta | undefined;
  let current = new Map<string, KeyValue>();
  let history: PersistedChange[] = [];
  let log: FileHandle | undefined;
  let logBytes = 0;
  let floorWritten = 0;
  let floorTimer: ReturnType<typeof setTimeout> | undefined;
  let snapshotBytes = 0;
  // Operations on the files run one at a time.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = chain.then(op, op);
    chain = next.catch(() => {});
    return next;
  };

  function applyCommit(changes: readonly PersistedChange[], next: PersistedMeta): void {
    for (const change of changes) {
      history.push(change);
      if (change.type === 'delete') current.delete(change.key);
      else
        current.set(change.key, {
          key: change.key,
          value: change.value ?? '',
          createRevision: change.createRevision,
          modRevision: change.revision,
          version: change.version,
        });
    }
    meta = next;
  }

  function applyCompact(next: PersistedMeta): void {
    const from = history.findIndex((c) => c.revision >= next.compactedRevision);
    history = from < 0 ? [] : history.slice(from);
    meta = { revision: Math.max(meta?.revision ?? 0, next.revision), compactedRevision: Math.max(meta?.compactedRevision ?? 0, next.compactedRevision) };
  }

  async function writeSnapshot(): Promise<void> {
    const snapshot: Snapshot = {
      format: FORMAT,
      meta: meta!,
      current: [...current.values()].map((kv) => [kv.key, kv.value, kv.createRevision, kv.modRevision, kv.version]),
      history,
    };
    const text = JSON.stringify(snapshot);
    const temp = join(dir, `${SNAPSHOT}.tmp`);
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, join(dir, SNAPSHOT));
    await syncDir(dir);
    snapshotBytes = Buffer.byteLength(text);
    // The snapshot holds everything the log held: start the log afresh.
    await log!.truncate(0);
    await log!.sync();
    logBytes = 0;
  }

  /** Records that revisions up to the current one have been handed out (best effort: a failure only delays it). */
  async function writeFloor(): Promise<void> {
    const revision = meta?.revision ?? 0;
    if (revision <= floorWritten) return;
    const temp = join(dir, `${FLOOR}.tmp`);
    try {
      const handle = await open(temp, 'w');
      try {
        await handle.writeFile(JSON.stringify({ revision }));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, join(dir, FLOOR));
      floorWritten = revision;
    } catch {
      // The floor is a check, not the data: the log holds the commits.
    }
  }

  function scheduleFloor(): void {
    if (floorTimer !== undefined) return;
    floorTimer = setTimeout(() => {
      floorTimer = undefined;
      void serial(writeFloor);
    }, FLOOR_INTERVAL_MS);
    floorTimer.unref?.();
  }

  async function append(record: LogRecord): Promise<void> {
    const line = JSON.stringify(record) + '\n';
    try {
      await log!.write(line);
      await log!.datasync();
    } catch (err) {
      // Cut off whatever part of the line reached the file, so the next commit starts on a clean line.
      await log!.truncate(logBytes).catch(() => {});
      throw asPersistenceError(err);
    }
    logBytes += Buffer.byteLength(line);
  }

  return {
    open(initialRevision) {
      return serial(async () => {
        try {
          await mkdir(dir, { recursive: true });
          const snapshot = await readSnapshot(join(dir, SNAPSHOT));
          if (snapshot) {
            meta = snapshot.meta;
            current = new Map(snapshot.current.map(([key, value, createRevision, modRevision, version]) => [key, { key, value, createRevision, modRevision, version }]));
            history = snapshot.history;
            snapshotBytes = snapshot.bytes;
          }
          const { records, goodBytes, missing } = await readLog(join(dir, LOG));
          // open() always creates the log beside a snapshot: a snapshot alone means the log was removed.
          if (snapshot && missing) throw new PersistenceError(`${join(dir, LOG)} is missing beside ${join(dir, SNAPSHOT)}: commits may be lost; ${RESTORE_HINT}`);
          for (const record of records) {
            if (record.t === 'c') {
              // Already in the snapshot when the crash fell between snapshot rename and log reset.
              if (meta && record.m.revision <= meta.revision) continue;
              applyCommit(record.c, record.m);
            } else applyCompact(record.m);
          }
          log = await open(join(dir, LOG), 'a');
          // Drop a torn last line before appending after it.
          const { size } = await log.stat();
          if (size !== goodBytes) {
            await log.truncate(goodBytes);
            await log.sync();
          }
          logBytes = goodBytes;
          const floor = await readFloor(join(dir, FLOOR));
          if (floor !== undefined && (meta?.revision ?? 0) < floor) {
            throw new PersistenceError(
              `${join(dir, LOG)} ends at revision ${meta?.revision ?? 0}, but revision ${floor} was already handed out (${join(dir, FLOOR)}): the log has lost commits; ${RESTORE_HINT}`,
            );
          }
          floorWritten = floor ?? 0;
          if (!meta) {
            meta = { revision: initialRevision, compactedRevision: initialRevision };
            await writeSnapshot();
          }
          return meta;
        } catch (err) {
          throw asPersistenceError(err);
        }
      });
    },

    async getCurrent(key) {
      return current.get(key);
    },

    async loadCurrent() {
      return [...current.values()];
    },

    async loadHistory() {
      const compacted = meta?.compactedRevision ?? 0;
      return history.filter((c) => c.revision > compacted);
    },

    commit(changes, next) {
      return serial(async () => {
        await append({ t: 'c', m: next, c: [...changes] });
        applyCommit(changes, next);
        scheduleFloor();
      });
    },

    compact(next) {
      return serial(async () => {
        try {
          await append({ t: 'k', m: next });
          applyCompact(next);
          if (logBytes >= Math.max(snapshotMinBytes, snapshotBytes)) await writeSnapshot();
        } catch (err) {
          throw asPersistenceError(err);
        }
      });
    },

    wipe(next) {
      return serial(async () => {
        try {
          current = new Map();
          history = [];
          meta = next;
          await writeSnapshot();
        } catch (err) {
          throw asPersistenceError(err);
        }
      });
    },

    close() {
      return serial(async () => {
        if (floorTimer !== undefined) clearTimeout(floorTimer);
        floorTimer = undefined;
        if (log) await writeFloor();
        await log?.close();
        log = undefined;
      });
    },
  };
}

async function readSnapshot(path: string): Promise<(Snapshot & { bytes: number }) | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(text) as Snapshot;
  } catch (err) {
    throw new PersistenceError(`${path} is damaged (${(err as Error).message}); ${RESTORE_HINT}`);
  }
  if (!snapshot || typeof snapshot !== 'object' || !snapshot.meta || !isRevision(snapshot.meta.revision) || !Array.isArray(snapshot.current) || !Array.isArray(snapshot.history)) {
    throw new PersistenceError(`${path} is damaged (not a KubeTab snapshot); ${RESTORE_HINT}`);
  }
  if (snapshot.format !== FORMAT) throw new PersistenceError(`${path}: unknown snapshot format ${String(snapshot.format)}`);
  return { ...snapshot, bytes: Buffer.byteLength(text) };
}

/** The complete records of the log, and the byte length they span (anything after is a torn line). */
async function readLog(path: string): Promise<{ records: LogRecord[]; goodBytes: number; missing: boolean }> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], goodBytes: 0, missing: true };
    throw err;
  }
  const records: LogRecord[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < data.length) {
    const end = data.indexOf(0x0a, start);
    lineNo++;
    const last = end < 0 || end === data.length - 1;
    if (end < 0) break; // no newline: torn
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.subarray(start, end).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined) {
      // Only the last line can be torn; damage before it would silently lose later commits.
      if (last) break;
      throw new PersistenceError(`${path}: line ${lineNo} is damaged; ${RESTORE_HINT}`);
    }
    // A whole line that is not a record this file writes is damage wherever it is.
    const problem = recordProblem(parsed);
    if (problem) throw new PersistenceError(`${path}: line ${lineNo} is damaged (${problem}); ${RESTORE_HINT}`);
    const record = parsed as LogRecord;
    const previous = records.at(-1)?.m.revision ?? 0;
    if (record.m.revision < previous) throw new PersistenceError(`${path}: line ${lineNo} goes back to revision ${record.m.revision} after ${previous}; ${RESTORE_HINT}`);
    records.push(record);
    start = end + 1;
  }
  return { records, goodBytes: start, missing: false };
}

const isRevision = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** What is wrong with a parsed log line, or undefined for a well-formed record. */
function recordProblem(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return 'not a record';
  const r = value as { t?: unknown; m?: { revision?: unknown; compactedRevision?: unknown }; c?: unknown };
  if (r.t !== 'c' && r.t !== 'k') return `unknown record type ${JSON.stringify(r.t)}`;
  if (!r.m || !isRevision(r.m.revision) || !isRevision(r.m.compactedRevision)) return 'no valid m.revision and m.compactedRevision';
  if (r.t === 'k') return undefined;
  if (!Array.isArray(r.c)) return 'no list of changes';
  for (const change of r.c as Record<string, unknown>[]) {
    if (!change || typeof change !== 'object') return 'a change that is not an object';
    if (typeof change.key !== 'string' || !isRevision(change.revision) || !isRevision(change.createRevision) || typeof change.version !== 'number') {
      return `a change without key, revision, createRevision and version`;
    }
    if (change.type !== 'put' && change.type !== 'delete') {
      return `a change of unknown type ${JSON.stringify(change.type)}`;
    }
    if (change.revision > r.m.revision) return `a change at revision ${change.revision} after the record's revision ${r.m.revision}`;
  }
  return undefined;
}

/** The revision floor, or undefined when none was written yet (an older data directory). */
async function readFloor(path: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let revision: unknown;
  try {
    revision = (JSON.parse(text) as { revision?: unknown }).revision;
  } catch {
    revision = undefined;
  }
  if (!isRevision(revision)) throw new PersistenceError(`${path} is damaged; ${RESTORE_HINT}`);
  return revision;
}

async function syncDir(dir: string): Promise<void> {
  // Makes the rename durable; not every platform can open a directory, and that is no reason to fail.
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

function asPersistenceError(err: unknown): PersistenceError {
  if (err instanceof PersistenceError) return err;
  const e = err as NodeJS.ErrnoException;
  return new PersistenceError(`file storage: ${e?.code ? `${e.code}: ` : ''}${e?.message ?? String(err)}`);
}
