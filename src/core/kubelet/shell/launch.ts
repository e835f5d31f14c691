// Starting a shell: `sh -c 'script' [$0 args…]`, `sh script.sh args…`,
// `sh` reading commands from its standard input (interactive on a
// terminal), with sh's options (-e, -x, …). Used for the container's own
// command (index.ts) and for a shell a script starts (`sh -c …` inside a
// script, `busybox sh`). Also the `busybox` and `which` utilities, which
// need the shell's command lookup.

import type { CommandContext, Streams, Utility } from './command';
import { runInteractiveLoop } from './interactive';
import { Shell, findExternal } from './interpreter';
import { baseName } from './paths';
import type { Proc } from './process';
import { ShellState } from './state';
import type { ShellIO } from './types';
import { UTILITIES } from './utilities';
import { utilityPath } from './builtins';

export const SHELL_NAMES: ReadonlySet<string> = new Set(['sh', 'ash', 'bash', 'dash']);

/** Whether a command line starts a shell (`sh`, `/bin/bash`, `busybox sh`). */
export function isShellInvocation(argv: readonly string[]): boolean {
  const base = baseName(argv[0] ?? '');
  if (SHELL_NAMES.has(base)) return true;
  return base === 'busybox' && SHELL_NAMES.has(argv[1] ?? '');
}

/** A new shell's state: its environment's variables exported, plus what sh sets itself. */
export function createShellState(arg0: string, env: Readonly<Record<string, string>>, cwd: string, io: ShellIO): ShellState {
  const state = new ShellState(arg0, cwd);
  for (const [name, value] of Object.entries(env)) state.set(name, value, true);
  if (state.get('PATH') === undefined) state.set('PATH', DEFAULT_PATH, true);
  if (state.get('HOME') === undefined) state.set('HOME', (io.uid ?? 0) === 0 ? '/root' : '/', true);
  state.set('PWD', cwd, true);
  const level = Number(env['SHLVL'] ?? '0');
  state.set('SHLVL', String((Number.isFinite(level) ? level : 0) + 1), true);
  state.set('PPID', io.pid === undefined ? '0' : '1');
  state.set('OPTIND', '1');
  state.set('PS2', '> ');
  state.set('PS4', '+ ');
  return state;
}

/** containerd's PATH for an image that sets none. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Runs a shell command line (argv[0] is the shell) in `proc`; settles with
 * its exit status. `allowInteractive`: reading commands from a terminal
 * makes it interactive.
 */
export async function runShellInvocation(
  proc: Proc,
  io: ShellIO,
  argv: readonly string[],
  streams: Streams,
  env: Readonly<Record<string, string>>,
  cwd: string,
  allowInteractive: boolean,
): Promise<number> {
  let args = argv.slice(1);
  if (baseName(argv[0] ?? '') === 'busybox') args = args.slice(1);
  const shellName = baseName(argv[0] ?? 'sh') === 'busybox' ? argv[1]! : argv[0]!;
  let commandMode = false;
  let forceInteractive = false;
  let readStdin = false;
  const setOptions: [string, boolean][] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (arg.startsWith('--')) continue; // bash's --login, --norc, --posix
    if (!/^[-+][a-zA-Z]+$/.test(arg)) break;
    for (const letter of arg.slice(1)) {
      const on = arg.startsWith('-');
      if (letter === 'c') commandMode = true;
      else if (letter === 'i') forceInteractive = on;
      else if (letter === 's') readStdin = true;
      else if (letter === 'o') setOptions.push([args[++i] ?? '', on]);
      else if ('euxfan'.includes(letter)) setOptions.push([letter, on]);
    }
  }
  const rest = args.slice(i);
  const applyOptions = (state: ShellState): void => {
    for (const [option, on] of setOptions) {
      const letter = { errexit: 'e', xtrace: 'x', nounset: 'u', noglob: 'f', allexport: 'a', noexec: 'n' }[option] ?? option;
      if (letter === 'a') state.allExport = on;
      else if (letter === 'e') state.options.errexit = on;
      else if (letter === 'x') state.options.xtrace = on;
      else if (letter === 'u') state.options.nounset = on;
      else if (letter === 'f') state.options.noglob = on;
      else if (letter === 'n') state.options.noexec = on;
    }
  };
  const own: Streams = { ...streams };
  if (commandMode) {
    const script = rest[0];
    if (script === undefined) {
      await own.stderr.write(`${shellName}: -c requires an argument\n`);
      return 2;
    }
    const state = createShellState(rest[1] ?? shellName, env, cwd, io);
    state.positional = rest.slice(2);
    applyOptions(state);
    const shell = new Shell(proc, state, io, { interactive: forceInteractive, scriptName: rest[1] });
    return shell.runProgram(script, own, { execLast: true });
  }
  if (rest.length > 0 && !readStdin) {
    const file = rest[0]!;
    const text = io.fs.read(file.startsWith('/') ? file : `${cwd.replace(/\/$/, '')}/${file}`);
    if (text === undefined) {
      await own.stderr.write(`${shellName}: can't open '${file}': No such file or directory\n`);
      return 2;
    }
    const state = createShellState(file, env, cwd, io);
    state.positional = rest.slice(1);
    applyOptions(state);
    const shell = new Shell(proc, state, io, { interactive: false, scriptName: file });
    return shell.runProgram(text, own, { execLast: true });
  }
  const interactive = forceInteractive || (allowInteractive && io.tty === true);
  const state = createShellState(shellName, env, cwd, io);
  state.positional = readStdin ? rest : [];
  applyOptions(state);
  const shell = new Shell(proc, state, io, { interactive });
  return runInteractiveLoop(shell, own, interactive);
}

/** `sh`, `bash`, … run from a script: a new shell process. */
export const shellUtility: Utility = async (ctx) => {
  const child = ctx.proc.fork();
  const allowInteractive = ctx.io.tty === true && ctx.shell.interactive;
  return ctx.proc.wait(
    'shell',
    child.run(() => runShellInvocation(child, ctx.io, [ctx.name, ...ctx.args], ctx.streams, { ...ctx.env }, ctx.cwd, allowInteractive)),
  );
};

/** busybox's multi-call binary: `busybox APPLET args…`. */
export const busybox: Utility = async (ctx) => {
  const [applet, ...args] = ctx.args;
  if (applet === undefined || applet === '--help' || applet === '--list') {
    const names = Object.keys(UTILITIES).filter((name) => name !== 'busybox').sort();
    if (applet === '--list') {
      await ctx.out(names.join('\n') + '\n');
      return 0;
    }
    await ctx.out(`BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\nBusyBox is copyrighted by many authors between 1998-2015.\nLicensed under GPLv2. See source distribution for detailed\ncopyright notices.\n\nUsage: busybox [function [arguments]...]\n   or: busybox --list\n   or: function [arguments]...\n\nCurrently defined functions:\n\t${names.join(', ')}\n`);
    return 0;
  }
  if (SHELL_NAMES.has(applet)) return shellUtility({ ...ctx, name: applet, args });
  const utility = Object.hasOwn(UTILITIES, applet) ? UTILITIES[applet] : undefined;
  if (!utility) {
    await ctx.err(`${applet}: applet not found\n`);
    return 127;
  }
  return utility({ ...ctx, name: applet, args });
};

/** `which NAME…`: where each command is found on PATH. */
export const which: Utility = async (ctx: CommandContext) => {
  let status = 0;
  for (const name of ctx.args) {
    const found = findExternal(name, ctx.io, ctx.cwd);
    if (!found || found.kind === 'directory') {
      status = 1;
      continue;
    }
    await ctx.out((name.includes('/') ? name : found.kind === 'program' ? `/usr/local/bin/${name}` : utilityPath(name)) + '\n');
  }
  return status;
};
