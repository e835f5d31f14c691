// tar, as busybox's: what `kubectl cp` runs in a container — `tar cf -
// /path` to copy out of it, `tar -xmf - -C /dir` (with --no-same-owner
// --no-same-permissions under --no-preserve) to copy into it — and the usual
// hand-typed forms: c, x, t, v, f FILE or -, -C DIR, -O, m, o, p. Archives are
// busybox's (tar-format.ts); their bytes travel as the shell's byte text
// (../bytes.ts), so a binary file survives the round trip. Compression (z, j,
// J) is not built in: it is refused as an unknown option.

import { bytesToText, textToBytes } from '../bytes';
import type { CommandContext } from '../command';
import { formatDate } from './date';
import { parseOptions } from './options';
import { readArchive, writeArchive, type NewMember, type TarMember } from './tar-format';

const NO_SUCH_FILE = 'No such file or directory';

/** The members for a path, depth first, each directory before what it holds. */
function collect(ctx: CommandContext, path: string, name: string, mtimeSeconds: number, out: NewMember[]): void {
  const fs = ctx.io.fs;
  const text = fs.read(path);
  if (text !== undefined) {
    out.push({ name, directory: false, content: textToBytes(text), mtimeSeconds });
    return;
  }
  if (!fs.isDirectory(path)) return;
  const base = name.replace(/\/+$/, '');
  out.push({ name: `${base}/`, directory: true, content: new Uint8Array(0), mtimeSeconds });
  for (const child of [...(fs.list(path) ?? [])].sort()) collect(ctx, `${path === '/' ? '' : path}/${child}`, `${base}/${child}`, mtimeSeconds, out);
}

/** `-rw-r--r--` for a member (what `tar tv` shows). */
function modeString(member: TarMember): string {
  const kind = member.type === 'directory' ? 'd' : member.type === 'symlink' ? 'l' : member.type === 'hardlink' ? 'h' : '-';
  let text = kind;
  for (const shift of [6, 3, 0]) {
    const bits = (member.mode >> shift) & 7;
    text += (bits & 4 ? 'r' : '-') + (bits & 2 ? 'w' : '-') + (bits & 1 ? 'x' : '-');
  }
  return text;
}

/** busybox's verbose listing line: mode, owner/group, size, time, name. */
function verboseLine(member: TarMember): string {
  const when = formatDate(member.mtimeSeconds * 1000, '%Y-%m-%d %H:%M:%S');
  const link = member.type === 'symlink' ? ` -> ${member.linkName}` : member.type === 'hardlink' ? ` link to ${member.linkName}` : '';
  return `${modeString(member)} ${member.owner.slice(0, 8)}/${member.group.slice(0, 8)} ${String(member.content.length).padStart(9)} ${when} ${member.name}${link}\n`;
}

/**
 * Where a member goes: its name without a leading '/' or any '../' that
 * would climb out of the directory, and the warning busybox prints once when
 * it strips them.
 */
function safeName(name: string): { name: string; stripped?: string } {
  let stripped: string | undefined;
  let safe = name;
  if (safe.startsWith('/')) {
    safe = safe.replace(/^\/+/, '');
    stripped = '/';
  }
  const parts = safe.split('/');
  const lastUp = parts.lastIndexOf('..');
  if (lastUp >= 0) {
    safe = parts.slice(lastUp + 1).join('/');
    stripped = `${parts.slice(0, lastUp + 1).join('/')}/`;
  }
  return { name: safe, stripped };
}

export async function tar(ctx: CommandContext): Promise<number> {
  // The traditional first word without a dash (`tar cf - x`) is a cluster of options.
  const first = ctx.args[0];
  const args = first !== undefined && first !== '' && !first.startsWith('-') ? [`-${first}`, ...ctx.args.slice(1)] : ctx.args;
  const parsed = parseOptions(args, {
    flags: 'cxtvmopOkh',
    values: 'fC',
    long: {
      create: 'c',
      extract: 'x',
      list: 't',
      verbose: 'v',
      file: 'f',
      directory: 'C',
      touch: 'm',
      'to-stdout': 'O',
      'keep-old': 'k',
      dereference: 'h',
      'same-permissions': 'p',
      'no-same-owner': 'o',
      // Permissions are not kept here (files have none of their own), so not keeping them changes nothing.
      'no-same-permissions': 'm',
    },
  });
  if (parsed.error) {
    await ctx.err(`tar: ${parsed.error}\n`);
    return 1;
  }
  const modes = ['c', 'x', 't'].filter((m) => parsed.flags.has(m));
  if (modes.length !== 1) {
    await ctx.err(modes.length === 0 ? 'tar: need exactly one of -c, -x or -t\n' : "tar: only one of 'ctx' may be specified\n");
    return 1;
  }
  const fs = ctx.io.fs;
  const archive = parsed.flags.get('f') ?? '-';
  const verbose = parsed.flags.has('v');
  // busybox changes to -C's directory before anything else, so names (and f FILE) are taken from there.
  const changeTo = parsed.flags.get('C');
  const directory = changeTo !== undefined ? ctx.resolve(changeTo) : ctx.cwd;
  if (!fs.isDirectory(directory)) {
    await ctx.err(`tar: can't change directory to '${changeTo}': ${NO_SUCH_FILE}\n`);
    return 1;
  }
  const within = (name: string) => (name.startsWith('/') ? name : `${directory === '/' ? '' : directory}/${name}`);

  if (modes[0] === 'c') {
    if (parsed.operands.length === 0) {
      await ctx.err('tar: empty archive\n');
      return 1;
    }
    const now = Math.floor(ctx.io.now() / 1000);
    const members: NewMember[] = [];
    let status = 0;
    let warned = false;
    for (const operand of parsed.operands) {
      const { name, stripped } = safeName(operand);
      const path = within(operand);
      if (fs.read(path) === undefined && !fs.isDirectory(path)) {
        await ctx.err(`tar: ${operand}: ${NO_SUCH_FILE}\n`);
        status = 1;
        continue;
      }
      // The warning comes with the first member written under such a name.
      if (stripped === '/' && !warned) {
        await ctx.err("tar: removing leading '/' from member names\n");
        warned = true;
      }
      collect(ctx, path, name === '' ? '.' : name, now, members);
    }
    // The listing goes to stdout, unless the archive does.
    if (verbose) {
      const listing = members.map((m) => `${m.name}\n`).join('');
      await (archive === '-' ? ctx.err(listing) : ctx.out(listing));
    }
    const text = bytesToText(writeArchive(members));
    if (archive === '-') await ctx.out(text);
    else {
      const failure = fs.write(within(archive), text, false);
      if (failure) {
        await ctx.err(`tar: can't open '${archive}': ${failure}\n`);
        return 1;
      }
    }
    // busybox writes what it could and reports the missing names' failure at the end.
    if (status !== 0) await ctx.err('tar: error exit delayed from previous errors\n');
    return status;
  }

  const input = archive === '-' ? await ctx.streams.stdin.readAll() : fs.read(within(archive));
  if (input === undefined) {
    await ctx.err(`tar: can't open '${archive}': ${fs.isDirectory(within(archive)) ? 'Is a directory' : NO_SUCH_FILE}\n`);
    return 1;
  }
  const { members, error } = readArchive(textToBytes(input));
  const wanted = parsed.operands.map((o) => o.replace(/\/+$/, ''));
  const selected = (name: string) => wanted.length === 0 || wanted.some((w) => name === w || name.replace(/\/+$/, '') === w || name.startsWith(`${w}/`));
  const found = new Set<string>();
  const extractOptions = { keepOld: parsed.flags.has('k'), warned: false };

  for (const member of members) {
    if (!selected(member.name)) continue;
    for (const w of wanted) if (member.name === w || member.name.replace(/\/+$/, '') === w || member.name.startsWith(`${w}/`)) found.add(w);
    if (modes[0] === 't') {
      await ctx.out(verbose ? verboseLine(member) : `${member.name}\n`);
      continue;
    }
    if (parsed.flags.has('O')) {
      if (member.type === 'file') await ctx.out(bytesToText(member.content));
      continue;
    }
    const failure = await extract(ctx, member, within, extractOptions);
    if (verbose) await ctx.out(`${member.name}\n`);
    if (failure) {
      await ctx.err(`tar: ${failure}\n`);
      return 1;
    }
  }
  if (error) {
    await ctx.err(`tar: ${error}\n`);
    return 1;
  }
  const missing = wanted.filter((w) => !found.has(w));
  if (missing.length > 0) {
    for (const name of missing) await ctx.err(`tar: ${name}: not found in archive\n`);
    return 1;
  }
  return 0;
}

/** Writes one member under the directory; busybox's message when it cannot. */
async function extract(ctx: CommandContext, member: TarMember, within: (name: string) => string, options: { keepOld: boolean; warned: boolean }): Promise<string | undefined> {
  const fs = ctx.io.fs;
  const { name, stripped } = safeName(member.name);
  if (stripped && !options.warned) {
    options.warned = true;
    await ctx.err(`tar: removing leading '${stripped}' from member names\n`);
  }
  const target = within(name.replace(/\/+$/, '')).replace(/\/+$/, '') || '/';
  const parent = target.slice(0, target.lastIndexOf('/')) || '/';
  const makeDirectory = (path: string): string | undefined => {
    if (fs.isDirectory(path)) return undefined;
    return fs.mkdir ? fs.mkdir(path) : 'Read-only file system';
  };
  if (member.type === 'directory') {
    const failure = makeDirectory(target);
    return failure ? `can't create directory '${name}': ${failure}` : undefined;
  }
  if (member.type !== 'file' && member.type !== 'hardlink') {
    // Symbolic links, devices and FIFOs have nothing to be in these files.
    return undefined;
  }
  const parentFailure = makeDirectory(parent);
  if (parentFailure) return `can't create directory '${parent}': ${parentFailure}`;
  if (fs.isDirectory(target)) return `can't remove old file ${name}: Is a directory`;
  if (options.keepOld && fs.read(target) !== undefined) return undefined;
  let content: string;
  if (member.type === 'hardlink') {
    const linked = fs.read(within(safeName(member.linkName).name));
    if (linked === undefined) return `can't create hardlink '${name}': ${NO_SUCH_FILE}`;
    content = linked;
  } else content = bytesToText(member.content);
  const failure = fs.write(target, content, false);
  return failure ? `can't open '${name}': ${failure}` : undefined;
}
