// The tar archive format, as busybox tar writes and reads it: 512-byte
// headers in the ustar layout with GNU's magic ("ustar  "), a GNU
// ././@LongLink member before a member whose name does not fit the 100-byte
// name field, contents padded to whole blocks, two zero blocks at the end.
// Reading also takes what other tars write: POSIX ustar (name prefix), pax
// extended headers (Go's archive/tar, which kubectl cp uses, writes them for
// long or non-ASCII names), base-256 sizes.

const BLOCK = 512;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type MemberType = 'file' | 'directory' | 'hardlink' | 'symlink' | 'other';

export interface TarMember {
  /** The name as stored (directories end in '/' when their writer added one). */
  readonly name: string;
  readonly type: MemberType;
  readonly mode: number;
  readonly mtimeSeconds: number;
  readonly owner: string;
  readonly group: string;
  readonly linkName: string;
  readonly content: Uint8Array;
}

export interface NewMember {
  readonly name: string;
  readonly directory: boolean;
  readonly content: Uint8Array;
  readonly mtimeSeconds: number;
}

function octalField(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0');
}

function headerBlock(fields: { name: Uint8Array; mode: number; size: number; mtime: number; type: string }): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const put = (bytes: Uint8Array, offset: number, width: number) => block.set(bytes.subarray(0, width), offset);
  const text = (value: string, offset: number, width: number) => put(encoder.encode(value), offset, width);
  put(fields.name, 0, 100);
  text(octalField(fields.mode, 8), 100, 8);
  text(octalField(0, 8), 108, 8);
  text(octalField(0, 8), 116, 8);
  text(octalField(fields.size, 12), 124, 12);
  text(octalField(fields.mtime, 12), 136, 12);
  text(fields.type, 156, 1);
  text('ustar  ', 257, 8);
  text('root', 265, 32);
  text('root', 297, 32);
  // The checksum counts its own field as eight spaces.
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  text(`${octalField(sum, 7)}\0`, 148, 8);
  return block;
}

function padded(content: Uint8Array): Uint8Array[] {
  const rest = content.length % BLOCK;
  return rest === 0 ? [content] : [content, new Uint8Array(BLOCK - rest)];
}

/** An archive of the members, in order. */
export function writeArchive(members: readonly NewMember[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const member of members) {
    const name = encoder.encode(member.name);
    if (name.length >= 100) {
      // GNU's long name: a member named ././@LongLink whose content is the name and a NUL.
      const longName = new Uint8Array(name.length + 1);
      longName.set(name);
      parts.push(headerBlock({ name: encoder.encode('././@LongLink'), mode: 0, size: longName.length, mtime: 0, type: 'L' }), ...padded(longName));
    }
    const size = member.directory ? 0 : member.content.length;
    parts.push(headerBlock({ name: name.subarray(0, 100), mode: member.directory ? 0o755 : 0o644, size, mtime: member.mtimeSeconds, type: member.directory ? '5' : '0' }));
    if (!member.directory) parts.push(...padded(member.content));
  }
  parts.push(new Uint8Array(2 * BLOCK));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function stringField(block: Uint8Array, offset: number, width: number): string {
  const bytes = block.subarray(offset, offset + width);
  const end = bytes.indexOf(0);
  return decoder.decode(end >= 0 ? bytes.subarray(0, end) : bytes);
}

/** A numeric field: octal text, or GNU's base-256 (first byte's high bit set). */
function numberField(block: Uint8Array, offset: number, width: number): number {
  if (block[offset]! & 0x80) {
    let value = block[offset]! & 0x7f;
    for (let i = 1; i < width; i++) value = value * 256 + block[offset + i]!;
    return value;
  }
  const text = stringField(block, offset, width).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function memberType(flag: string): MemberType {
  if (flag === '0' || flag === '\0' || flag === '7') return 'file';
  if (flag === '5') return 'directory';
  if (flag === '1') return 'hardlink';
  if (flag === '2') return 'symlink';
  return 'other';
}

/** The records of a pax extended header: `LEN key=value\n` each. */
function paxRecords(data: Uint8Array): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const length = parseInt(decoder.decode(data.subarray(at, space)), 10);
    if (!(length > 0)) break;
    const record = decoder.decode(data.subarray(space + 1, at + length - 1));
    const equals = record.indexOf('=');
    if (equals > 0) records.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return records;
}

export type ReadResult = { members: TarMember[]; error?: string };

/** The members of an archive, and busybox's complaint when it is damaged or cut short. */
export function readArchive(bytes: Uint8Array): ReadResult {
  const members: TarMember[] = [];
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax = new Map<string, string>();
  let at = 0;
  for (;;) {
    // An archive that stops at a member's end without its zero blocks is taken as ended, as busybox does.
    if (at >= bytes.length) return { members };
    if (at + BLOCK > bytes.length) return { members, error: 'short read' };
    const block = bytes.subarray(at, at + BLOCK);
    if (block.every((b) => b === 0)) return { members };
    let sum = 0;
    let signedSum = 0;
    for (let i = 0; i < BLOCK; i++) {
      const byte = i >= 148 && i < 156 ? 0x20 : block[i]!;
      sum += byte;
      signedSum += byte > 127 ? byte - 256 : byte;
    }
    const stored = numberField(block, 148, 8);
    if (stored !== sum && stored !== signedSum) return { members, error: 'invalid tar header checksum' };
    const flag = String.fromCharCode(block[156]!);
    let size = numberField(block, 124, 12);
    if (pax.has('size') && flag !== 'x' && flag !== 'g') size = Number(pax.get('size'));
    const dataStart = at + BLOCK;
    const data = bytes.subarray(dataStart, dataStart + size);
    at = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    // A member's content comes padded to whole blocks; one cut short is given as far as it goes, then the complaint.
    const cutShort = at > bytes.length;
    if (cutShort && (flag === 'L' || flag === 'K' || flag === 'x' || flag === 'g')) return { members, error: 'short read' };
    if (flag === 'L') {
      longName = stringField(data, 0, data.length);
      continue;
    }
    if (flag === 'K') {
      longLink = stringField(data, 0, data.length);
      continue;
    }
    if (flag === 'x') {
      pax = paxRecords(data);
      continue;
    }
    if (flag === 'g') continue;
    const magic = stringField(block, 257, 6);
    const prefix = magic === 'ustar' ? stringField(block, 345, 155) : '';
    const name = pax.get('path') ?? longName ?? (prefix ? `${prefix}/` : '') + stringField(block, 0, 100);
    members.push({
      name,
      type: memberType(flag),
      mode: numberField(block, 100, 8) & 0o7777,
      mtimeSeconds: Math.floor(Number(pax.get('mtime') ?? numberField(block, 136, 12))),
      owner: pax.get('uname') ?? (stringField(block, 265, 32) || String(numberField(block, 108, 8))),
      group: pax.get('gname') ?? (stringField(block, 297, 32) || String(numberField(block, 116, 8))),
      linkName: pax.get('linkpath') ?? longLink ?? stringField(block, 157, 100),
      content: data,
    });
    if (cutShort) return { members, error: 'short read' };
    longName = undefined;
    longLink = undefined;
    pax = new Map();
  }
}
