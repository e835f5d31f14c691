// kube-apiserver's log backend under Node: --audit-log-path (JSON lines, one
// audit.k8s.io/v1 Event per line, as --audit-log-format=json writes them;
// "-" means standard output), rotated as kube's lumberjack logger does when
// --audit-log-maxsize megabytes would be exceeded (the old file renamed
// <name>-<UTC time>.<ext>; at most --audit-log-maxbackup of them kept and none
// older than --audit-log-maxage days; 0: no limit; maxsize 0: rotation off,
// as kube's default). Writes are synchronous, like kube's
// default blocking mode: an event is on disk before the response completes.

import { closeSync, fstatSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { AuditEvent } from '../../core/auth';

export interface AuditLogFile {
  write(event: AuditEvent): void;
  close(): void;
}

function intFlag(flags: Readonly<Record<string, string>>, name: string): number {
  const text = flags[name];
  if (text === undefined) return 0;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`invalid argument "${text}" for "--${name}" flag: strconv.ParseInt: parsing "${text}": invalid syntax`);
  return n;
}

/** The name a rotated file gets (lumberjack's: name-2006-01-02T15-04-05.000.ext, UTC). */
export function backupName(path: string, now: Date): string {
  const ext = extname(path);
  const stem = basename(path, ext);
  const stamp = now.toISOString().replace(/:/g, '-').replace(/Z$/, '');
  return join(dirname(path), `${stem}-${stamp}${ext}`);
}

/** The writer for --audit-log-path, or undefined when the flag is not given. */
export function auditLogFileFromFlags(flags: Readonly<Record<string, string>>, now: () => Date = () => new Date()): AuditLogFile | undefined {
  const path = flags['audit-log-path'];
  if (!path) return undefined;
  const format = flags['audit-log-format'] ?? 'json';
  if (format !== 'json') throw new Error(`--audit-log-format=${format}: KubeTab writes only the json format`);
  if (path === '-') {
    return { write: (event) => void process.stdout.write(`${JSON.stringify(event)}\n`), close() {} };
  }
  const maxBytes = intFlag(flags, 'audit-log-maxsize') * 1024 * 1024;
  const maxBackups = intFlag(flags, 'audit-log-maxbackup');
  const maxAgeMs = intFlag(flags, 'audit-log-maxage') * 24 * 3600 * 1000;
  let fd = openSync(path, 'a', 0o600);
  let size = fstatSync(fd).size;

  const pruneBackups = () => {
    if (maxBackups === 0 && maxAgeMs === 0) return;
    const ext = extname(path);
    const stem = basename(path, ext);
    const stampOf = (n: string) => Date.parse(`${n.slice(stem.length + 1, n.length - ext.length).replace(/T(\d\d)-(\d\d)-(\d\d)/, 'T$1:$2:$3')}Z`);
    const backups = readdirSync(dirname(path))
      .filter((n) => n.startsWith(`${stem}-`) && n.endsWith(ext) && n !== basename(path) && !Number.isNaN(stampOf(n)))
      .sort();
    const cutoff = maxAgeMs > 0 ? now().getTime() - maxAgeMs : 0;
    backups.forEach((old, i) => {
      const tooMany = maxBackups > 0 && i < backups.length - maxBackups;
      const tooOld = maxAgeMs > 0 && stampOf(old) < cutoff;
      if (tooMany || tooOld) rmSync(join(dirname(path), old), { force: true });
    });
  };
  const rotate = () => {
    closeSync(fd);
    renameSync(path, backupName(path, now()));
    fd = openSync(path, 'a', 0o600);
    size = 0;
    pruneBackups();
  };

  return {
    write(event) {
      const line = Buffer.from(`${JSON.stringify(event)}\n`);
      if (maxBytes > 0 && size > 0 && size + line.length > maxBytes) rotate();
      writeSync(fd, line);
      size += line.length;
    },
    close() {
      closeSync(fd);
    },
  };
}
