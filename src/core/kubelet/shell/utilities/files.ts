// File utilities over the container's files (ShellIO.fs): cat, ls, mkdir,
// touch, rm, cp, mv, head, tail (with -f, which follows a file until the
// process is signalled). Messages as busybox's ("cat: can't open 'x': No
// such file or directory").

import { byteLength } from '../bytes';
import type { CommandContext } from '../command';
import { baseName } from '../paths';
import { formatDate } from './date';
import { parseOptions } from './options';

const NO_SUCH_FILE = 'No such file or directory';

/** The inputs of a filter: each file's text ('-' or none: standard input), or the error message to print. */
export async function readInputs(ctx: CommandContext, files: readonly string[], name: string, style: 'open' | 'plain' = 'open'): Promise<{ file: string; text?: string; error?: string }[]> {
  const list = files.length === 0 ? ['-'] : files;
  const out: { file: string; text?: string; error?: string }[] = [];
  for (const file of list) {
    if (file === '-') {
      out.push({ file, text: await ctx.streams.stdin.readAll() });
      continue;
    }
    const path = ctx.resolve(file);
    const text = ctx.io.fs.read(path);
    if (text !== undefined) out.push({ file, text });
    else if (ctx.io.fs.isDirectory(path)) out.push({ file, error: style === 'open' ? `${name}: read error: Is a directory` : `${name}: ${file}: Is a directory` });
    else out.push({ file, error: style === 'open' ? `${name}: can't open '${file}': ${NO_SUCH_FILE}` : `${name}: ${file}: ${NO_SUCH_FILE}` });
  }
  return out;
}

export async function cat(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'nbuvteA' });
  if (parsed.error) {
    await ctx.err(`cat: ${parsed.error}\n`);
    return 1;
  }
  const number = parsed.flags.has('n') || parsed.flags.has('b');
  let status = 0;
  let lineNumber = 1;
  const files = parsed.operands.length === 0 ? ['-'] : parsed.operands;
  for (const file of files) {
    if (file === '-' && !number) {
      // Stream standard input as it comes (cat in a pipe, or of a terminal).
      for (;;) {
        const chunk = await ctx.streams.stdin.read();
        if (chunk === null) break;
        await ctx.out(chunk);
      }
      continue;
    }
    const [input] = await readInputs(ctx, [file], 'cat');
    if (input!.error) {
      await ctx.err(input!.error + '\n');
      status = 1;
      continue;
    }
    let text = input!.text!;
    if (number) {
      const lines = text.split('\n');
      const last = lines.pop();
      text = lines.map((line) => (parsed.flags.has('b') && line === '' ? '' : `${String(lineNumber++).padStart(6)}\t`) + line + '\n').join('');
      if (last) text += `${String(lineNumber++).padStart(6)}\t${last}`;
    }
    await ctx.out(text);
  }
  return status;
}

function modeString(isDirectory: boolean): string {
  return isDirectory ? 'drwxr-xr-x' : '-rw-r--r--';
}

export async function ls(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'la1AdhFRrtSicnCx' });
  if (parsed.error) {
    await ctx.err(`ls: ${parsed.error}\n`);
    return 1;
  }
  const f = parsed.flags;
  const long = f.has('l') || f.has('n');
  const fs = ctx.io.fs;
  const targets = parsed.operands.length === 0 ? ['.'] : parsed.operands;
  let status = 0;
  const files: string[] = [];
  const dirs: string[] = [];
  for (const target of targets) {
    const path = ctx.resolve(target);
    if (fs.isDirectory(path) && !f.has('d')) dirs.push(target);
    else if (fs.read(path) !== undefined || fs.isDirectory(path)) files.push(target);
    else {
      await ctx.err(`ls: ${target}: ${NO_SUCH_FILE}\n`);
      status = 1;
    }
  }
  const now = ctx.io.now();
  const entryLine = (name: string, path: string): string => {
    const isDirectory = fs.isDirectory(path);
    if (!long) return name + (f.has('F') && isDirectory ? '/' : '');
    const size = isDirectory ? 4096 : byteLength(fs.read(path) ?? '');
    const links = isDirectory ? 2 : 1;
    const owner = f.has('n') ? '0' : 'root';
    // The simulated files keep no times: they show the current time.
    const when = formatDate(now, '%b %e %H:%M');
    return `${modeString(isDirectory)} ${String(links).padStart(4)} ${owner.padEnd(8)} ${owner.padEnd(8)} ${String(size).padStart(9)} ${when} ${name}`;
  };
  const print = async (lines: string[]): Promise<void> => {
    if (lines.length === 0) return;
    if (long || f.has('1') || !ctx.io.tty) await ctx.out(lines.join('\n') + '\n');
    else await ctx.out(lines.join('  ') + '\n');
  };
  const sorted = (names: string[]): string[] => {
    const list = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return f.has('r') ? list.reverse() : list;
  };
  await print(sorted(files).map((file) => entryLine(file, ctx.resolve(file))));
  const sortedDirs = sorted(dirs);
  for (let i = 0; i < sortedDirs.length; i++) {
    const dir = sortedDirs[i]!;
    const path = ctx.resolve(dir);
    let names = fs.list(path) ?? [];
    if (!f.has('a') && !f.has('A')) names = names.filter((name) => !name.startsWith('.'));
    names = sorted(names);
    if (f.has('a')) names = ['.', '..', ...names];
    if (targets.length > 1) await ctx.out(`${files.length > 0 || i > 0 ? '\n' : ''}${dir}:\n`);
    const lines = names.map((name) => entryLine(name, name === '.' ? path : name === '..' ? ctx.resolve(`${dir}/..`) : `${path.replace(/\/$/, '')}/${name}`));
    if (long) {
      const blocks = names.reduce((sum, name) => {
        const child = `${path.replace(/\/$/, '')}/${name}`;
        const text = fs.read(child);
        return sum + (fs.isDirectory(child) || name === '.' || name === '..' ? 4 : text === undefined ? 0 : Math.ceil(text.length / 4096) * 4);
      }, 0);
      await ctx.out(`total ${blocks}\n`);
    }
    await print(lines);
  }
  return status;
}

export async function mkdir(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'pv', values: 'm', long: { parents: 'p', mode: 'm', verbose: 'v' } });
  if (parsed.error || parsed.operands.length === 0) {
    await ctx.err(parsed.error ? `mkdir: ${parsed.error}\n` : 'Usage: mkdir [-m MODE] [-p] DIRECTORY...\n');
    return 1;
  }
  const fs = ctx.io.fs;
  let status = 0;
  for (const dir of parsed.operands) {
    const path = ctx.resolve(dir);
    if (fs.isDirectory(path)) {
      if (!parsed.flags.has('p')) {
        await ctx.err(`mkdir: can't create directory '${dir}': File exists\n`);
        status = 1;
      }
      continue;
    }
    if (fs.read(path) !== undefined) {
      await ctx.err(`mkdir: can't create directory '${dir}': File exists\n`);
      status = 1;
      continue;
    }
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    if (!parsed.flags.has('p') && !fs.isDirectory(parent)) {
      await ctx.err(`mkdir: can't create directory '${dir}': ${NO_SUCH_FILE}\n`);
      status = 1;
      continue;
    }
    const failure = fs.mkdir ? fs.mkdir(path) : 'Read-only file system';
    if (failure) {
      await ctx.err(`mkdir: can't create directory '${dir}': ${failure}\n`);
      status = 1;
    }
  }
  return status;
}

export async function touch(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'acm', values: 'dtr' });
  let status = 0;
  for (const file of parsed.operands) {
    const path = ctx.resolve(file);
    if (ctx.io.fs.read(path) !== undefined || ctx.io.fs.isDirectory(path)) continue;
    if (parsed.flags.has('c')) continue;
    const failure = ctx.io.fs.write(path, '', true);
    if (failure) {
      await ctx.err(`touch: ${file}: ${failure}\n`);
      status = 1;
    }
  }
  return status;
}

function removeTree(ctx: CommandContext, path: string): string | undefined {
  const fs = ctx.io.fs;
  if (!fs.remove) return 'Read-only file system';
  if (fs.isDirectory(path)) {
    for (const name of fs.list(path) ?? []) {
      const failure = removeTree(ctx, `${path.replace(/\/$/, '')}/${name}`);
      if (failure) return failure;
    }
  }
  return fs.remove(path);
}

export async function rm(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'frRiv', long: { force: 'f', recursive: 'r' } });
  if (parsed.error) {
    await ctx.err(`rm: ${parsed.error}\n`);
    return 1;
  }
  const force = parsed.flags.has('f');
  const recursive = parsed.flags.has('r') || parsed.flags.has('R');
  const fs = ctx.io.fs;
  let status = 0;
  for (const file of parsed.operands) {
    const path = ctx.resolve(file);
    const exists = fs.read(path) !== undefined || fs.isDirectory(path);
    if (!exists) {
      if (!force) {
        await ctx.err(`rm: can't remove '${file}': ${NO_SUCH_FILE}\n`);
        status = 1;
      }
      continue;
    }
    if (fs.isDirectory(path) && !recursive) {
      await ctx.err(`rm: '${file}' is a directory\n`);
      status = 1;
      continue;
    }
    const failure = removeTree(ctx, path);
    if (failure) {
      await ctx.err(`rm: can't remove '${file}': ${failure}\n`);
      status = 1;
    }
  }
  return status;
}

function copyTree(ctx: CommandContext, from: string, to: string): string | undefined {
  const fs = ctx.io.fs;
  if (fs.isDirectory(from)) {
    if (!fs.isDirectory(to)) {
      const failure = fs.mkdir ? fs.mkdir(to) : 'Read-only file system';
      if (failure) return failure;
    }
    for (const name of fs.list(from) ?? []) {
      const failure = copyTree(ctx, `${from.replace(/\/$/, '')}/${name}`, `${to.replace(/\/$/, '')}/${name}`);
      if (failure) return failure;
    }
    return undefined;
  }
  return fs.write(to, fs.read(from) ?? '', false);
}

async function copyOrMove(ctx: CommandContext, move: boolean): Promise<number> {
  const name = move ? 'mv' : 'cp';
  const parsed = parseOptions(ctx.args, { flags: move ? 'finv' : 'rRfpaivdPLn', long: { recursive: 'r', force: 'f' } });
  if (parsed.error || parsed.operands.length < 2) {
    await ctx.err(parsed.error ? `${name}: ${parsed.error}\n` : `Usage: ${name} [OPTIONS] SOURCE... DEST\n`);
    return 1;
  }
  const fs = ctx.io.fs;
  const sources = parsed.operands.slice(0, -1);
  const dest = parsed.operands[parsed.operands.length - 1]!;
  const destPath = ctx.resolve(dest);
  const intoDirectory = fs.isDirectory(destPath);
  if (sources.length > 1 && !intoDirectory) {
    await ctx.err(`${name}: '${dest}' is not a directory\n`);
    return 1;
  }
  const recursive = move || parsed.flags.has('r') || parsed.flags.has('R') || parsed.flags.has('a');
  let status = 0;
  for (const source of sources) {
    const from = ctx.resolve(source);
    if (fs.read(from) === undefined && !fs.isDirectory(from)) {
      await ctx.err(`${name}: can't stat '${source}': ${NO_SUCH_FILE}\n`);
      status = 1;
      continue;
    }
    if (fs.isDirectory(from) && !recursive) {
      await ctx.err(`cp: omitting directory '${source}'\n`);
      status = 1;
      continue;
    }
    const to = intoDirectory ? `${destPath.replace(/\/$/, '')}/${baseName(from)}` : destPath;
    const failure = copyTree(ctx, from, to) ?? (move ? removeTree(ctx, from) : undefined);
    if (failure) {
      await ctx.err(`${name}: can't create '${to}': ${failure}\n`);
      status = 1;
    }
  }
  return status;
}

export const cp = (ctx: CommandContext): Promise<number> => copyOrMove(ctx, false);
export const mv = (ctx: CommandContext): Promise<number> => copyOrMove(ctx, true);

function parseCount(text: string | undefined, fallback: number): { count: number; fromStart: boolean } | undefined {
  if (text === undefined) return { count: fallback, fromStart: false };
  const match = /^([+-]?)([0-9]+)([kKmMbB]?)$/.exec(text);
  if (!match) return undefined;
  const multiplier = { '': 1, k: 1024, K: 1024, m: 1048576, M: 1048576, b: 512, B: 512 }[match[3]!]!;
  return { count: Number(match[2]) * multiplier, fromStart: match[1] === '+' };
}

export async function head(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'qv', values: 'nc', long: { lines: 'n', bytes: 'c', quiet: 'q' }, numberOption: 'n' });
  const lines = parseCount(parsed.flags.get('n'), 10);
  const bytes = parsed.flags.has('c') ? parseCount(parsed.flags.get('c'), 0) : undefined;
  if (parsed.error || !lines || (parsed.flags.has('c') && !bytes)) {
    await ctx.err(`head: ${parsed.error ?? `invalid number '${parsed.flags.get('n') ?? parsed.flags.get('c')}'`}\n`);
    return 1;
  }
  const files = parsed.operands.length === 0 ? ['-'] : parsed.operands;
  let status = 0;
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (files.length > 1 && !parsed.flags.has('q')) await ctx.out(`${i > 0 ? '\n' : ''}==> ${file === '-' ? 'standard input' : file} <==\n`);
    if (file === '-' && !bytes) {
      // Stop reading as soon as enough lines came: `yes | head -n 3` ends.
      for (let n = 0; n < lines.count; n++) {
        const line = await ctx.streams.stdin.readLine();
        if (line === null) break;
        await ctx.out(line + '\n');
      }
      continue;
    }
    const [input] = await readInputs(ctx, [file], 'head');
    if (input!.error) {
      await ctx.err(input!.error + '\n');
      status = 1;
      continue;
    }
    const text = input!.text!;
    if (bytes) await ctx.out(text.slice(0, bytes.count));
    else await ctx.out(firstLines(text, lines.count));
  }
  return status;
}

function firstLines(text: string, count: number): string {
  let index = 0;
  for (let n = 0; n < count; n++) {
    const next = text.indexOf('\n', index);
    if (next < 0) return text;
    index = next + 1;
  }
  return text.slice(0, index);
}

function lastLines(text: string, count: number, fromStart: boolean): string {
  if (text === '') return '';
  const trailing = text.endsWith('\n');
  const lines = (trailing ? text.slice(0, -1) : text).split('\n');
  const chosen = fromStart ? lines.slice(Math.max(0, count - 1)) : count === 0 ? [] : lines.slice(-count);
  if (chosen.length === 0) return '';
  return chosen.join('\n') + (trailing ? '\n' : '');
}

/** How often `tail -f` looks at its file again (ms of cluster time), as busybox's one-second poll. */
const FOLLOW_POLL_MS = 1000;

export async function tail(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'fFqv', values: 'ncs', long: { lines: 'n', bytes: 'c', follow: 'f', quiet: 'q' }, numberOption: 'n' });
  const lines = parseCount(parsed.flags.get('n'), 10);
  const bytes = parsed.flags.has('c') ? parseCount(parsed.flags.get('c'), 0) : undefined;
  if (parsed.error || !lines || (parsed.flags.has('c') && !bytes)) {
    await ctx.err(`tail: ${parsed.error ?? `invalid number '${parsed.flags.get('n') ?? parsed.flags.get('c')}'`}\n`);
    return 1;
  }
  const follow = parsed.flags.has('f') || parsed.flags.has('F');
  const files = parsed.operands.length === 0 ? ['-'] : parsed.operands;
  let status = 0;
  const sizes = new Map<string, number>();
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (files.length > 1 && !parsed.flags.has('q')) await ctx.out(`${i > 0 ? '\n' : ''}==> ${file === '-' ? 'standard input' : file} <==\n`);
    const [input] = await readInputs(ctx, [file], 'tail');
    if (input!.error) {
      await ctx.err(input!.error + '\n');
      status = 1;
      continue;
    }
    const text = input!.text!;
    if (file !== '-') sizes.set(file, text.length);
    if (bytes) await ctx.out(bytes.fromStart ? text.slice(Math.max(0, bytes.count - 1)) : text.slice(-bytes.count || text.length));
    else await ctx.out(lastLines(text, lines.count, lines.fromStart));
  }
  const followed = files.filter((file) => file !== '-');
  if (!follow || followed.length === 0) return status;
  // Follow: print what is appended to the files, until a signal ends the process.
  for (;;) {
    await ctx.proc.sleep(FOLLOW_POLL_MS, 'command');
    for (const file of followed) {
      const text = ctx.io.fs.read(ctx.resolve(file));
      if (text === undefined) continue;
      const seen = sizes.get(file) ?? 0;
      if (text.length < seen) {
        await ctx.err(`tail: ${file}: file truncated\n`);
        sizes.set(file, 0);
        await ctx.out(text);
      } else if (text.length > seen) {
        await ctx.out(text.slice(seen));
      }
      sizes.set(file, text.length);
    }
  }
}
