// The builtins that act on the shell itself: POSIX's special builtins
// (exit, export, set, trap, …, whose assignments persist and whose errors
// end a script) and the regular ones that need the shell's state (cd, read,
// wait, kill, command, local, …). Messages as busybox ash's, which names the
// builtin and, in a script, the line ("sh: cd: line 1: can't cd to /x: …").

import type { CommandContext, Utility } from './command';
import { FunctionReturn, LoopControl, ShellExit, WaitInterrupted } from './errors';
import { ArithmeticError, evaluateArithmetic } from './arithmetic';
import { SIGNAL_NUMBERS, signalName } from './process';
import { findExternal } from './interpreter';
import { UTILITIES } from './utilities';

/** Reports a builtin's error as ash does: `sh: NAME: line N: message`. */
async function builtinError(ctx: CommandContext, message: string): Promise<void> {
  const shell = ctx.shell;
  // ash names the builtin where a script's name would be; a script's line number stays.
  const line = shell.interactive ? '' : `line ${shell.currentLine}: `;
  await ctx.err(`${shell.state.arg0}: ${ctx.name}: ${line}${message}\n`);
}

/** A special builtin's error: a non-interactive shell ends (status 2). */
async function fatal(ctx: CommandContext, message: string): Promise<number> {
  await builtinError(ctx, message);
  if (!ctx.shell.interactive) throw new ShellExit(2);
  return 2;
}

function parseCount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return /^[0-9]+$/.test(text) ? Number(text) : NaN;
}

const colon: Utility = async () => 0;

const exit: Utility = async (ctx) => {
  const arg = ctx.args[0];
  if (arg === undefined) throw new ShellExit(ctx.shell.state.lastStatus);
  if (!/^-?[0-9]+$/.test(arg)) {
    await builtinError(ctx, `Illegal number: ${arg}`);
    throw new ShellExit(2);
  }
  throw new ShellExit(((Number(arg) % 256) + 256) % 256);
};

const returnBuiltin: Utility = async (ctx) => {
  const arg = ctx.args[0];
  if (arg !== undefined && !/^-?[0-9]+$/.test(arg)) return fatal(ctx, `Illegal number: ${arg}`);
  throw new FunctionReturn(arg === undefined ? ctx.shell.state.lastStatus : ((Number(arg) % 256) + 256) % 256);
};

function loopControl(kind: 'break' | 'continue'): Utility {
  return async (ctx) => {
    const n = parseCount(ctx.args[0]) ?? 1;
    if (Number.isNaN(n) || n < 1) return fatal(ctx, `Illegal number: ${ctx.args[0]}`);
    if (ctx.shell.loopDepth === 0) return 0;
    throw new LoopControl(kind, Math.min(n, ctx.shell.loopDepth));
  };
}

const evalBuiltin: Utility = async (ctx) => {
  if (ctx.args.length === 0) return 0;
  return ctx.shell.runSource(ctx.args.join(' '), ctx.streams);
};

const dot: Utility = async (ctx) => {
  const file = ctx.args[0];
  if (file === undefined) return fatal(ctx, 'filename argument required');
  const text = ctx.io.fs.read(ctx.resolve(file));
  if (text === undefined) return fatal(ctx, `can't open '${file}'`);
  const shell = ctx.shell;
  const saved = shell.state.positional;
  if (ctx.args.length > 1) shell.state.positional = ctx.args.slice(1);
  try {
    return await shell.runSource(text, ctx.streams);
  } catch (error) {
    if (error instanceof FunctionReturn) return error.code;
    throw error;
  } finally {
    if (ctx.args.length > 1) shell.state.positional = saved;
  }
};

const exec: Utility = async (ctx) => {
  // `exec` alone (its redirections made permanent) is handled by the interpreter.
  const [name, ...args] = ctx.args;
  if (name === undefined) return 0;
  const shell = ctx.shell;
  const found = findExternal(name, ctx.io, shell.state.cwd);
  if (!found || found.kind === 'directory') {
    await builtinError(ctx, `${name}: not found`);
    throw new ShellExit(127);
  }
  const status = await shell.runExternal(name, args, ctx.streams, { ...ctx.env }, true);
  throw new ShellExit(status);
};

function quoteValue(value: string): string {
  return `'${value.replace(/'/g, `'"'"'`)}'`;
}

function exportLike(kind: 'export' | 'readonly'): Utility {
  return async (ctx) => {
    const state = ctx.shell.state;
    const args = ctx.args.filter((arg) => arg !== '-p');
    const unexport = kind === 'export' && args[0] === '-n';
    if (unexport) args.shift();
    if (args.length === 0) {
      const names = [...state.vars.keys()].sort();
      let out = '';
      for (const name of names) {
        const variable = state.vars.get(name)!;
        if (kind === 'export' ? variable.exported : variable.readonly) out += `${kind} ${name}=${quoteValue(variable.value)}\n`;
      }
      await ctx.out(out);
      return 0;
    }
    for (const arg of args) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg : arg.slice(0, eq);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return fatal(ctx, `${name}: bad variable name`);
      if (unexport) {
        const variable = state.vars.get(name);
        if (variable) variable.exported = false;
        continue;
      }
      if (eq >= 0 && !state.set(name, arg.slice(eq + 1))) return fatal(ctx, `${name}: is read only`);
      const variable = state.vars.get(name);
      if (!variable) {
        // `export NAME` of an unset variable: exported once it is set.
        if (kind === 'export') state.exportWhenSet.add(name);
        else state.vars.set(name, { value: '', exported: false, readonly: true });
        continue;
      }
      if (kind === 'export') variable.exported = true;
      else variable.readonly = true;
    }
    return 0;
  };
}

const unset: Utility = async (ctx) => {
  const state = ctx.shell.state;
  let functions = false;
  for (const arg of ctx.args) {
    if (arg === '-f') {
      functions = true;
      continue;
    }
    if (arg === '-v') continue;
    if (functions) state.functions.delete(arg);
    else if (!state.unset(arg)) return fatal(ctx, `${arg}: is read only`);
  }
  return 0;
};

const OPTION_LETTERS: Readonly<Record<string, 'errexit' | 'xtrace' | 'nounset' | 'noglob' | 'noexec'>> = { e: 'errexit', x: 'xtrace', u: 'nounset', f: 'noglob', n: 'noexec' };
const OPTION_NAMES: Readonly<Record<string, string>> = { errexit: 'e', xtrace: 'x', nounset: 'u', noglob: 'f', noexec: 'n', allexport: 'a', pipefail: '', monitor: '', vi: '', emacs: '' };

const set: Utility = async (ctx) => {
  const state = ctx.shell.state;
  const args = [...ctx.args];
  if (args.length === 0) {
    const names = [...state.vars.keys()].sort();
    await ctx.out(names.map((name) => `${name}=${quoteValue(state.vars.get(name)!.value)}\n`).join(''));
    return 0;
  }
  while (args.length > 0) {
    const arg = args[0]!;
    if (arg === '--') {
      args.shift();
      state.positional = args;
      return 0;
    }
    if (arg === '-o' || arg === '+o') {
      args.shift();
      const name = args.shift();
      if (name === undefined) {
        const lines = Object.keys(OPTION_NAMES).map((option) => {
          const letter = OPTION_NAMES[option]!;
          const on = letter === 'a' ? state.allExport : letter ? state.options[OPTION_LETTERS[letter]!] : false;
          return `${option.padEnd(16)}${on ? 'on' : 'off'}\n`;
        });
        await ctx.out(lines.join(''));
        continue;
      }
      const letter = OPTION_NAMES[name];
      if (letter === undefined) return fatal(ctx, `Illegal option -o ${name}`);
      if (letter === 'a') state.allExport = arg === '-o';
      else if (letter) state.options[OPTION_LETTERS[letter]!] = arg === '-o';
      continue;
    }
    if (/^[-+][a-zA-Z]+$/.test(arg)) {
      args.shift();
      for (const letter of arg.slice(1)) {
        if (letter === 'a') state.allExport = arg.startsWith('-');
        else if (OPTION_LETTERS[letter]) state.options[OPTION_LETTERS[letter]!] = arg.startsWith('-');
        else if (!'mCbhvi'.includes(letter)) return fatal(ctx, `Illegal option ${arg[0]}${letter}`);
      }
      continue;
    }
    state.positional = args;
    return 0;
  }
  return 0;
};

const shift: Utility = async (ctx) => {
  const n = parseCount(ctx.args[0]) ?? 1;
  const state = ctx.shell.state;
  if (Number.isNaN(n)) return fatal(ctx, `Illegal number: ${ctx.args[0]}`);
  if (n > state.positional.length) return fatal(ctx, "can't shift that many");
  state.positional = state.positional.slice(n);
  return 0;
};

const trap: Utility = async (ctx) => {
  const state = ctx.shell.state;
  const args = ctx.args[0] === '--' ? ctx.args.slice(1) : [...ctx.args];
  if (args.length === 0 || args[0] === '-p') {
    let out = '';
    for (const [signal, action] of state.traps) out += `trap -- ${quoteValue(action)} ${signal}\n`;
    await ctx.out(out);
    return 0;
  }
  if (args[0] === '-l') {
    await ctx.out(Object.entries(SIGNAL_NUMBERS).map(([name, n]) => `${String(n).padStart(2)}) ${name}\n`).join(''));
    return 0;
  }
  // `trap SIGNAL…` with a number first resets those signals (POSIX's obsolescent form).
  let action: string | undefined = args.shift()!;
  if (/^[0-9]+$/.test(action) && signalName(action) !== undefined) {
    args.unshift(action);
    action = undefined;
  }
  if (action === '-') action = undefined;
  let status = 0;
  for (const spec of args) {
    const name = spec.toUpperCase() === 'EXIT' ? 'EXIT' : signalName(spec);
    if (name === undefined) {
      await builtinError(ctx, `${spec}: invalid signal specification`);
      status = 1;
      continue;
    }
    if (action === undefined) state.traps.delete(name);
    else state.traps.set(name, action);
  }
  return status;
};

const times: Utility = async (ctx) => {
  await ctx.out('0m0.000000s 0m0.000000s\n0m0.000000s 0m0.000000s\n');
  return 0;
};

// ---- regular builtins that use the shell's state ---------------------------

const cd: Utility = async (ctx) => {
  const state = ctx.shell.state;
  let target = ctx.args.filter((arg) => arg !== '-L' && arg !== '-P')[0];
  let print = false;
  if (target === undefined) target = state.get('HOME') ?? '/';
  if (target === '-') {
    target = state.get('OLDPWD') ?? state.cwd;
    print = true;
  }
  const path = ctx.resolve(target);
  if (!ctx.io.fs.isDirectory(path)) {
    const reason = ctx.io.fs.read(path) !== undefined ? 'Not a directory' : 'No such file or directory';
    await builtinError(ctx, `can't cd to ${target}: ${reason}`);
    return 2;
  }
  state.set('OLDPWD', state.cwd);
  state.cwd = path;
  state.set('PWD', path);
  if (print) await ctx.out(path + '\n');
  return 0;
};

const pwd: Utility = async (ctx) => {
  await ctx.out(ctx.shell.state.cwd + '\n');
  return 0;
};

const read: Utility = async (ctx) => {
  const shell = ctx.shell;
  const state = shell.state;
  let raw = false;
  let prompt: string | undefined;
  const names: string[] = [];
  for (let i = 0; i < ctx.args.length; i++) {
    const arg = ctx.args[i]!;
    if (names.length === 0 && /^-[rs]+$/.test(arg)) {
      if (arg.includes('r')) raw = true;
      continue;
    }
    if (names.length === 0 && arg === '-p') {
      prompt = ctx.args[++i];
      continue;
    }
    if (names.length === 0 && (arg === '-t' || arg === '-n' || arg === '-u' || arg === '-d')) {
      i++;
      continue;
    }
    names.push(arg);
  }
  if (names.length === 0) names.push('REPLY');
  if (prompt !== undefined && ctx.io.tty) await ctx.err(prompt);
  let line = '';
  let gotAny = false;
  for (;;) {
    const part = await ctx.streams.stdin.readLine();
    if (part === null) break;
    gotAny = true;
    if (!raw && part.endsWith('\\')) {
      line += part.slice(0, -1);
      continue;
    }
    line += part;
    break;
  }
  if (!raw) line = line.replace(/\\(.)/g, '$1');
  const ifs = state.get('IFS') ?? ' \t\n';
  const isWhite = (c: string): boolean => ifs.includes(c) && ' \t\n'.includes(c);
  let rest = line;
  // Leading IFS whitespace is dropped.
  while (rest && isWhite(rest[0]!)) rest = rest.slice(1);
  names.forEach((name, index) => {
    if (index === names.length - 1) {
      let value = rest;
      while (value && isWhite(value[value.length - 1]!)) value = value.slice(0, -1);
      state.set(name, value);
      return;
    }
    let end = 0;
    while (end < rest.length && !ifs.includes(rest[end]!)) end++;
    state.set(name, rest.slice(0, end));
    rest = rest.slice(end);
    // One separator (with whitespace around it).
    while (rest && isWhite(rest[0]!)) rest = rest.slice(1);
    if (rest && ifs.includes(rest[0]!) && !isWhite(rest[0]!)) rest = rest.slice(1);
    while (rest && isWhite(rest[0]!)) rest = rest.slice(1);
  });
  return gotAny ? 0 : 1;
};

const wait: Utility = async (ctx) => {
  const state = ctx.shell.state;
  const proc = ctx.proc;
  try {
    if (ctx.args.length === 0) {
      for (const [pid, job] of [...state.jobs]) {
        await proc.wait('interruptible', job.done);
        state.jobs.delete(pid);
      }
      return 0;
    }
    let status = 0;
    for (const arg of ctx.args) {
      const pid = resolveJob(ctx, arg);
      const job = pid === undefined ? undefined : state.jobs.get(pid);
      if (!job) {
        status = 127;
        continue;
      }
      status = await proc.wait('interruptible', job.done);
      state.jobs.delete(pid!);
    }
    return status;
  } catch (error) {
    if (error instanceof WaitInterrupted) return error.code;
    throw error;
  }
};

function resolveJob(ctx: CommandContext, spec: string): number | undefined {
  const state = ctx.shell.state;
  if (spec.startsWith('%')) {
    const id = spec === '%%' || spec === '%+' || spec === '%' ? Math.max(0, ...[...state.jobs.values()].map((job) => job.id)) : Number(spec.slice(1));
    for (const [pid, job] of state.jobs) if (job.id === id) return pid;
    return undefined;
  }
  return /^[0-9]+$/.test(spec) ? Number(spec) : undefined;
}

const kill: Utility = async (ctx) => {
  const args = [...ctx.args];
  let signal = 'TERM';
  if (args[0] === '-l' || args[0] === '-L') {
    if (args[1] !== undefined) {
      const n = Number(args[1]);
      const name = signalName(String(n > 128 ? n - 128 : n));
      await ctx.out((name ?? args[1]) + '\n');
      return name ? 0 : 1;
    }
    await ctx.out(Object.keys(SIGNAL_NUMBERS).join(' ').replace(/(.{1,70})( |$)/g, '$1\n'));
    return 0;
  }
  if (args[0] === '-s' || args[0] === '-n') {
    args.shift();
    const spec = args.shift();
    const name = spec === undefined ? undefined : signalName(spec);
    if (name === undefined) {
      await builtinError(ctx, `bad signal name '${spec ?? ''}'`);
      return 1;
    }
    signal = name;
  } else if (args[0]?.startsWith('-') && args[0] !== '--') {
    const spec = args.shift()!.slice(1);
    const name = spec === '0' ? '0' : signalName(spec);
    if (name === undefined) {
      await builtinError(ctx, `bad signal name '${spec}'`);
      return 1;
    }
    signal = name;
  }
  if (args[0] === '--') args.shift();
  if (args.length === 0) {
    await ctx.err('Usage: kill [-s SIG | -SIG] PID...\n');
    return 1;
  }
  const kernel = ctx.proc.kernel;
  let status = 0;
  for (const spec of args) {
    const pid = resolveJob(ctx, spec);
    const target = pid === kernel.root.pid ? kernel.root : pid === undefined ? undefined : ctx.shell.state.jobs.get(pid)?.proc;
    if (!target || target.terminatedWith !== undefined) {
      await builtinError(ctx, `can't kill pid ${spec}: No such process`);
      status = 1;
      continue;
    }
    if (signal !== '0') target.signal(signal, false);
  }
  return status;
};

const jobs: Utility = async (ctx) => {
  const state = ctx.shell.state;
  let out = '';
  for (const [pid, job] of state.jobs) {
    out += `[${job.id}]  ${job.status === undefined ? 'Running' : `Done(${job.status})`}${' '.repeat(10)}${ctx.args.includes('-p') ? pid : job.command}\n`;
  }
  await ctx.out(out);
  return 0;
};

/** What a name is, as `command -v` and `type` say. */
function describe(ctx: CommandContext, name: string): { kind: 'builtin' | 'function' | 'file' | 'keyword'; path?: string } | undefined {
  const shell = ctx.shell;
  if (['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', '{', '}', '!'].includes(name)) return { kind: 'keyword' };
  if (shell.state.functions.has(name)) return { kind: 'function' };
  if (Object.hasOwn(SPECIAL_BUILTINS, name) || Object.hasOwn(SHELL_BUILTINS, name) || IN_SHELL_UTILITIES.has(name)) return { kind: 'builtin' };
  const found = findExternal(name, ctx.io, shell.state.cwd);
  if (!found || found.kind === 'directory') return undefined;
  if (name.includes('/')) return { kind: 'file', path: name };
  return { kind: 'file', path: found.kind === 'program' ? `/usr/local/bin/${name}` : Object.hasOwn(UTILITIES, name) ? utilityPath(name) : `/bin/${name}` };
}

/** Utilities ash runs as builtins (`type echo` says "echo is a shell builtin"). */
const IN_SHELL_UTILITIES = new Set(['echo', 'printf', 'test', '[', '[[', 'true', 'false', 'kill', 'pwd', 'read', 'type', 'ulimit', 'umask', 'wait', 'alias', 'command', 'getopts', 'hash', 'jobs', 'let', 'local']);

const SBIN = new Set(['ifconfig', 'ip', 'route', 'reboot', 'halt', 'poweroff', 'sysctl']);
const USR_BIN = new Set(['env', 'printenv', 'head', 'tail', 'wc', 'cut', 'tr', 'sort', 'uniq', 'seq', 'yes', 'expr', 'basename', 'dirname', 'tee', 'id', 'whoami', 'nc', 'stress', 'nproc']);

export function utilityPath(name: string): string {
  if (SBIN.has(name)) return `/sbin/${name}`;
  if (USR_BIN.has(name)) return `/usr/bin/${name}`;
  return `/bin/${name}`;
}

const command: Utility = async (ctx) => {
  const args = [...ctx.args];
  let mode: '' | 'v' | 'V' = '';
  while (args[0]?.startsWith('-') && args[0] !== '--' && args[0].length > 1) {
    const flag = args.shift()!;
    if (flag.includes('v')) mode = 'v';
    if (flag.includes('V')) mode = 'V';
  }
  if (args[0] === '--') args.shift();
  if (mode) {
    let status = 0;
    for (const name of args) {
      const found = describe(ctx, name);
      if (!found) {
        if (mode === 'V') await ctx.err(`${name}: not found\n`);
        status = 127;
        continue;
      }
      if (mode === 'v') await ctx.out(`${found.kind === 'file' ? found.path : name}\n`);
      else await ctx.out(describeText(name, found) + '\n');
    }
    return status === 127 ? (mode === 'v' ? 1 : 127) : 0;
  }
  const [name, ...rest] = args;
  if (name === undefined) return 0;
  // `command NAME`: a builtin or an external command, never a function.
  const shell = ctx.shell;
  const builtin = Object.hasOwn(SPECIAL_BUILTINS, name) ? SPECIAL_BUILTINS[name] : Object.hasOwn(SHELL_BUILTINS, name) ? SHELL_BUILTINS[name] : undefined;
  if (builtin) return shell.runUtility(builtin, name, rest, ctx.streams, { ...ctx.env });
  return shell.runExternal(name, rest, ctx.streams, { ...ctx.env }, false);
};

function describeText(name: string, found: { kind: string; path?: string }): string {
  switch (found.kind) {
    case 'keyword':
      return `${name} is a shell keyword`;
    case 'function':
      return `${name} is a function`;
    case 'builtin':
      return Object.hasOwn(SPECIAL_BUILTINS, name) ? `${name} is a special shell builtin` : `${name} is a shell builtin`;
    default:
      return `${name} is ${found.path}`;
  }
}

const type: Utility = async (ctx) => {
  let status = 0;
  for (const name of ctx.args) {
    const found = describe(ctx, name);
    if (!found) {
      await ctx.out(`${name}: not found\n`);
      status = 1;
      continue;
    }
    await ctx.out(describeText(name, found) + '\n');
  }
  return status;
};

const local: Utility = async (ctx) => {
  const state = ctx.shell.state;
  const frame = state.localFrames[state.localFrames.length - 1];
  if (!frame) return fatal(ctx, 'not in a function');
  for (const arg of ctx.args) {
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (!frame.has(name)) {
      const existing = state.vars.get(name);
      frame.set(name, existing ? { ...existing } : undefined);
    }
    if (eq >= 0) state.set(name, arg.slice(eq + 1));
    else if (!state.vars.has(name)) state.set(name, '');
  }
  return 0;
};

const umask: Utility = async (ctx) => {
  if (ctx.args.length === 0) await ctx.out('0022\n');
  return 0;
};

const ulimit: Utility = async (ctx) => {
  await ctx.out(ctx.args.includes('-n') ? '1048576\n' : 'unlimited\n');
  return 0;
};

const hash: Utility = async () => 0;

const getopts: Utility = async (ctx) => {
  const state = ctx.shell.state;
  const [optstring, name, ...given] = ctx.args;
  if (optstring === undefined || name === undefined) {
    await builtinError(ctx, 'usage: getopts optstring var [arg]');
    return 2;
  }
  const args = given.length > 0 ? given : state.positional;
  let index = Number(state.get('OPTIND') ?? '1') || 1;
  const offsetText = state.get('__GETOPTS_OFFSET') ?? '1';
  let offset = Number(offsetText) || 1;
  const arg = args[index - 1];
  if (arg === undefined || arg === '--' || !arg.startsWith('-') || arg === '-') {
    if (arg === '--') state.set('OPTIND', String(index + 1));
    state.set(name, '?');
    return 1;
  }
  const letter = arg[offset]!;
  const spec = optstring.indexOf(letter);
  const silent = optstring.startsWith(':');
  offset++;
  const advance = (): void => {
    index++;
    offset = 1;
  };
  if (spec < 0 || letter === ':') {
    if (!silent) await ctx.err(`Illegal option -${letter}\n`);
    state.set(name, '?');
    if (silent) state.set('OPTARG', letter);
    if (offset >= arg.length) advance();
  } else if (optstring[spec + 1] === ':') {
    let value: string | undefined;
    if (offset < arg.length) {
      value = arg.slice(offset);
      advance();
    } else {
      value = args[index];
      advance();
      index++;
    }
    if (value === undefined) {
      if (!silent) await ctx.err(`No arg for -${letter} option\n`);
      state.set(name, silent ? ':' : '?');
      if (silent) state.set('OPTARG', letter);
    } else {
      state.set(name, letter);
      state.set('OPTARG', value);
    }
  } else {
    state.set(name, letter);
    if (offset >= arg.length) advance();
  }
  state.set('OPTIND', String(index));
  state.set('__GETOPTS_OFFSET', String(offset));
  return 0;
};

const let_: Utility = async (ctx) => {
  let last = 0n;
  for (const expression of ctx.args) {
    try {
      last = evaluateArithmetic(expression, { get: (name) => ctx.shell.state.get(name), set: (name, value) => void ctx.shell.state.set(name, value) });
    } catch (error) {
      if (!(error instanceof ArithmeticError)) throw error;
      await builtinError(ctx, error.message);
      return 2;
    }
  }
  return last === 0n ? 1 : 0;
};

function registry(entries: Record<string, Utility>): Readonly<Record<string, Utility>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, Utility>, entries));
}

export const SPECIAL_BUILTINS = registry({
  ':': colon,
  '.': dot,
  source: dot,
  break: loopControl('break'),
  continue: loopControl('continue'),
  eval: evalBuiltin,
  exec,
  exit,
  export: exportLike('export'),
  readonly: exportLike('readonly'),
  return: returnBuiltin,
  set,
  shift,
  trap,
  times,
  unset,
});

export const SHELL_BUILTINS = registry({
  cd,
  chdir: cd,
  pwd,
  read,
  wait,
  kill,
  jobs,
  command,
  type,
  local,
  umask,
  ulimit,
  hash,
  getopts,
  let: let_,
});
