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
          const { records, goodBytes } = await readLog(join(dir, LOG));
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
  const snapshot = JSON.parse(text) as Snapshot;
  if (snapshot.format !== FORMAT) throw new PersistenceError(`${path}: unknown snapshot format ${String(snapshot.format)}`);
  return { ...snapshot, bytes: Buffer.byteLength(text) };
}

/** The complete records of the log, and the byte length they span (anything after is a torn line). */
async function readLog(path: string): Promise<{ records: LogRecord[]; goodBytes: number }> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], goodBytes: 0 };
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
    let record: LogRecord | undefined;
    try {
      record = JSON.parse(data.subarray(start, end).toString('utf8')) as LogRecord;
    } catch {
      record = undefined;
    }
    if (!record || (record.t !== 'c' && record.t !== 'k')) {
      // Only the last line can be torn; damage before it would silently lose later commits.
      if (last) break;
      throw new PersistenceError(`${path}: line ${lineNo} is damaged`);
    }
    records.push(record);
    start = end + 1;
  }
  return { records, goodBytes: start };
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
