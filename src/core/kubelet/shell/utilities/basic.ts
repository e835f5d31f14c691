// The small utilities every tutorial uses: echo, printf, true/false, yes,
// seq, sleep, env/printenv, hostname, uname, id/whoami, basename, dirname,
// tee. Output and messages as busybox prints them.

import type { CommandContext } from '../command';
import { decodeCEscapesWithStop } from '../parser';
import { baseName, dirName } from '../paths';
import { parseOptions } from './options';

export async function echo(ctx: CommandContext): Promise<number> {
  let newline = true;
  let escapes = false;
  let i = 0;
  for (; i < ctx.args.length; i++) {
    const arg = ctx.args[i]!;
    if (!/^-[neE]+$/.test(arg)) break;
    for (const c of arg.slice(1)) {
      if (c === 'n') newline = false;
      else if (c === 'e') escapes = true;
      else escapes = false;
    }
  }
  let text = ctx.args.slice(i).join(' ');
  if (escapes) {
    const decoded = decodeCEscapesWithStop(text, { octalNeedsZero: true });
    text = decoded.text;
    if (decoded.stop) newline = false;
  }
  await ctx.out(newline ? text + '\n' : text);
  return 0;
}

export async function trueCommand(): Promise<number> {
  return 0;
}

export async function falseCommand(): Promise<number> {
  return 1;
}

export async function yes(ctx: CommandContext): Promise<number> {
  const line = (ctx.args.length > 0 ? ctx.args.join(' ') : 'y') + '\n';
  // Each line is a step of the process, so a `yes` into the log is throttled like a busy loop.
  for (;;) {
    await ctx.proc.step();
    await ctx.out(line);
  }
}

export async function seq(ctx: CommandContext): Promise<number> {
  let separator = '\n';
  let equalWidth = false;
  const numbers: string[] = [];
  for (let i = 0; i < ctx.args.length; i++) {
    const arg = ctx.args[i]!;
    if (arg === '-s') separator = ctx.args[++i] ?? '\n';
    else if (arg.startsWith('-s') && !/^-[0-9.]/.test(arg)) separator = arg.slice(2);
    else if (arg === '-w') equalWidth = true;
    else numbers.push(arg);
  }
  if (numbers.length < 1 || numbers.length > 3) {
    await ctx.err('Usage: seq [-w] [-s SEP] [FIRST [INC]] LAST\n');
    return 1;
  }
  const values = numbers.map(Number);
  const bad = numbers.find((text, index) => text.trim() === '' || Number.isNaN(values[index]));
  if (bad !== undefined) {
    await ctx.err(`seq: invalid number '${bad}'\n`);
    return 1;
  }
  const [first, increment, last] = values.length === 1 ? [1, 1, values[0]!] : values.length === 2 ? [values[0]!, 1, values[1]!] : [values[0]!, values[1]!, values[2]!];
  if (increment === 0) return 1;
  const decimals = Math.max(...numbers.map((text) => (text.includes('.') ? text.length - text.indexOf('.') - 1 : 0)));
  const format = (value: number): string => value.toFixed(decimals);
  const width = equalWidth ? Math.max(format(first).length, format(last).length) : 0;
  let out = '';
  let count = 0;
  for (let value = first; increment > 0 ? value <= last + 1e-9 : value >= last - 1e-9; value = first + ++count * increment) {
    let text = format(value);
    if (width) text = text.startsWith('-') ? '-' + text.slice(1).padStart(width - 1, '0') : text.padStart(width, '0');
    out += (count > 0 ? separator : '') + text;
    if (out.length >= 16_384) {
      await ctx.out(out);
      out = '';
      await ctx.proc.step();
    }
  }
  if (count > 0) out += '\n';
  await ctx.out(out);
  return 0;
}

/** A duration as sleep accepts it: seconds with an optional s/m/h/d suffix and fraction; `inf`/`infinity`. */
export function parseSleepDuration(text: string): number | undefined {
  if (/^inf(inity)?$/i.test(text)) return Infinity;
  const match = /^([0-9]*\.?[0-9]+|[0-9]+\.)([smhd]?)$/.exec(text);
  if (!match) return undefined;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit * 1000;
}

export async function sleep(ctx: CommandContext): Promise<number> {
  if (ctx.args.length === 0) {
    await ctx.err('BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: sleep [N]...\n\nPause for a time equal to the total of the args given, where each arg can\nhave an optional suffix of (s)econds, (m)inutes, (h)ours, or (d)ays\n');
    return 1;
  }
  let total = 0;
  for (const arg of ctx.args) {
    const ms = parseSleepDuration(arg);
    if (ms === undefined) {
      await ctx.err(`sleep: invalid number '${arg}'\n`);
      return 1;
    }
    total += ms;
  }
  if (total === Infinity) {
    for (;;) await ctx.proc.sleep(86_400_000, 'command');
  }
  await ctx.proc.sleep(Math.round(total), 'command');
  return 0;
}

export async function env(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'i0', values: 'u', long: { 'ignore-environment': 'i', unset: 'u', null: '0' }, permute: false });
  if (parsed.error) {
    await ctx.err(`env: ${parsed.error}\n`);
    return 125;
  }
  const environment: Record<string, string> = parsed.flags.has('i') ? {} : { ...ctx.env };
  for (const name of parsed.all.get('u') ?? []) delete environment[name];
  const operands = [...parsed.operands];
  if (operands[0] === '-') {
    operands.shift();
    for (const key of Object.keys(environment)) delete environment[key];
  }
  while (operands.length > 0 && /^[^=]+=/.test(operands[0]!)) {
    const assignment = operands.shift()!;
    const eq = assignment.indexOf('=');
    environment[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  if (operands.length === 0) {
    const end = parsed.flags.has('0') ? '\0' : '\n';
    await ctx.out(Object.entries(environment).map(([key, value]) => `${key}=${value}${end}`).join(''));
    return 0;
  }
  const [command, ...rest] = operands;
  const status = await ctx.shell.runExternal(command!, rest, ctx.streams, environment, false);
  return status === 127 ? 127 : status;
}

export async function printenv(ctx: CommandContext): Promise<number> {
  if (ctx.args.length === 0) {
    await ctx.out(Object.entries(ctx.env).map(([key, value]) => `${key}=${value}\n`).join(''));
    return 0;
  }
  let status = 0;
  for (const name of ctx.args) {
    const value = ctx.env[name];
    if (value === undefined) status = 1;
    else await ctx.out(value + '\n');
  }
  return status;
}

export async function hostname(ctx: CommandContext): Promise<number> {
  const args = ctx.args;
  if (args.length > 0 && !args[0]!.startsWith('-')) {
    await ctx.err(`hostname: sethostname: Operation not permitted\n`);
    return 1;
  }
  if (args.includes('-i') || args.includes('-I')) {
    // The addresses /etc/hosts gives the hostname (the kubelet writes the pod's IP there).
    const hosts = ctx.io.fs.read('/etc/hosts') ?? '';
    const addresses = hosts
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
      .filter((fields) => fields.length > 1 && fields.slice(1).includes(ctx.io.hostname))
      .map((fields) => fields[0]!);
    if (addresses.length === 0) {
      await ctx.err(`hostname: ${ctx.io.hostname}: Unknown host\n`);
      return 1;
    }
    await ctx.out(addresses.join(' ') + '\n');
    return 0;
  }
  const name = ctx.io.hostname;
  await ctx.out((args.includes('-s') ? name.split('.')[0] : name) + '\n');
  return 0;
}

/** The kernel KubeTab's nodes report. */
export const KERNEL_RELEASE = '6.8.0-kubetab';
const KERNEL_VERSION = '#1 SMP PREEMPT_DYNAMIC Mon Nov 23 12:00:00 UTC 2026';

export async function uname(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, {
    flags: 'asnrvmpio',
    long: { all: 'a', 'kernel-name': 's', 'nodename': 'n', 'kernel-release': 'r', 'kernel-version': 'v', machine: 'm', processor: 'p', 'hardware-platform': 'i', 'operating-system': 'o' },
  });
  if (parsed.error) {
    await ctx.err(`uname: ${parsed.error}\n`);
    return 1;
  }
  const f = parsed.flags;
  const all = f.has('a');
  const fields: string[] = [];
  if (all || f.has('s') || f.size === 0) fields.push('Linux');
  if (all || f.has('n')) fields.push(ctx.io.hostname);
  if (all || f.has('r')) fields.push(KERNEL_RELEASE);
  if (all || f.has('v')) fields.push(KERNEL_VERSION);
  if (all || f.has('m')) fields.push('x86_64');
  if (f.has('p')) fields.push('unknown');
  if (f.has('i')) fields.push('unknown');
  if (all || f.has('o')) fields.push('GNU/Linux');
  await ctx.out(fields.join(' ') + '\n');
  return 0;
}

function userName(uid: number): string | undefined {
  return uid === 0 ? 'root' : uid === 65534 ? 'nobody' : undefined;
}

function groupName(gid: number): string | undefined {
  return gid === 0 ? 'root' : gid === 65534 ? 'nogroup' : undefined;
}

export async function id(ctx: CommandContext): Promise<number> {
  const uid = ctx.io.uid ?? 0;
  const gid = ctx.io.gid ?? (ctx.io.uid === undefined ? 0 : uid);
  const groups = ctx.io.groups ?? (uid === 0 && ctx.io.gid === undefined ? [0, 1, 2, 3, 4, 6, 10, 11, 20, 26, 27] : [gid]);
  const named = (n: number, name: string | undefined): string => (name ? `${n}(${name})` : String(n));
  if (ctx.args.includes('-u')) {
    await ctx.out((ctx.args.includes('-n') ? userName(uid) ?? String(uid) : String(uid)) + '\n');
    return 0;
  }
  if (ctx.args.includes('-g')) {
    await ctx.out((ctx.args.includes('-n') ? groupName(gid) ?? String(gid) : String(gid)) + '\n');
    return 0;
  }
  if (ctx.args.includes('-G')) {
    await ctx.out(groups.join(' ') + '\n');
    return 0;
  }
  const groupNames: Record<number, string> = { 0: 'root', 1: 'bin', 2: 'daemon', 3: 'sys', 4: 'adm', 6: 'disk', 10: 'wheel', 11: 'floppy', 20: 'dialout', 26: 'tape', 27: 'video' };
  const all = [gid, ...groups.filter((g) => g !== gid)];
  const list = uid === 0 && ctx.io.gid === undefined ? groups.map((g) => named(g, groupNames[g])) : all.map((g) => named(g, groupName(g)));
  await ctx.out(`uid=${named(uid, userName(uid))} gid=${named(gid, groupName(gid))} groups=${list.join(',')}\n`);
  return 0;
}

export async function whoami(ctx: CommandContext): Promise<number> {
  const uid = ctx.io.uid ?? 0;
  const name = userName(uid);
  if (!name) {
    await ctx.err(`whoami: unknown uid ${uid}\n`);
    return 1;
  }
  await ctx.out(name + '\n');
  return 0;
}

export async function basename(ctx: CommandContext): Promise<number> {
  const [path, suffix] = ctx.args;
  if (path === undefined) {
    await ctx.err('Usage: basename FILE [SUFFIX]\n');
    return 1;
  }
  let base = baseName(path);
  if (suffix && base !== suffix && base.endsWith(suffix)) base = base.slice(0, -suffix.length);
  await ctx.out(base + '\n');
  return 0;
}

export async function dirname(ctx: CommandContext): Promise<number> {
  if (ctx.args.length === 0) {
    await ctx.err('Usage: dirname FILENAME\n');
    return 1;
  }
  await ctx.out(ctx.args.map((path) => dirName(path) + '\n').join(''));
  return 0;
}

export async function tee(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'ai', long: { append: 'a' } });
  const append = parsed.flags.has('a');
  const files = parsed.operands.map((file) => ctx.resolve(file));
  let status = 0;
  for (const file of files) {
    const failure = ctx.io.fs.write(file, '', append);
    if (failure) {
      await ctx.err(`tee: ${file}: ${failure}\n`);
      status = 1;
    }
  }
  for (;;) {
    const chunk = await ctx.streams.stdin.read();
    if (chunk === null) break;
    for (const file of files) ctx.io.fs.write(file, chunk, true);
    await ctx.out(chunk);
  }
  return status;
}
