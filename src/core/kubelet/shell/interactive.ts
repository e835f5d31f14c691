// The shell reading its commands from standard input: a terminal's
// interactive shell (`kubectl exec -it pod -- sh`) prompts with PS1 (`# `
// when unset, as dash's root prompt), asks for more with PS2 when a command
// is incomplete, survives errors and Ctrl-C, and ends at `exit` or at the end
// of input (Ctrl-D). Without a terminal (`kubectl exec -i … -- sh < script`)
// the same loop runs without prompts, and an error ends it.

import type { Streams } from './command';
import { BrokenPipe, FunctionReturn, LoopControl, ShellExit, ShellSyntaxError, WaitInterrupted } from './errors';
import type { Shell } from './interpreter';
import { parseScript } from './parser';
import { formatDate } from './utilities/date';
import type { Script } from './ast';

/** PS1 with busybox's backslash escapes expanded (\u, \h, \w, \$, …). */
export function expandPrompt(shell: Shell, template: string): string {
  const state = shell.state;
  const uid = shell.io.uid ?? 0;
  const home = state.get('HOME') ?? '/root';
  const cwd = state.cwd;
  const tildeCwd = cwd === home ? '~' : cwd.startsWith(home + '/') ? '~' + cwd.slice(home.length) : cwd;
  return template.replace(/\\([uhHwW$n\\e\[\]tTdsa@AjlpvV!#0-7]{1})/g, (match, c: string) => {
    switch (c) {
      case 'u':
        return uid === 0 ? 'root' : String(uid);
      case 'h':
        return shell.io.hostname.split('.')[0]!;
      case 'H':
        return shell.io.hostname;
      case 'w':
        return tildeCwd;
      case 'W':
        return cwd === '/' ? '/' : tildeCwd === '~' ? '~' : cwd.slice(cwd.lastIndexOf('/') + 1);
      case '$':
        return uid === 0 ? '#' : '$';
      case 'n':
        return '\n';
      case '\\':
        return '\\';
      case 'e':
        return '\x1b';
      case '[':
      case ']':
        return '';
      case 't':
        return formatDate(shell.io.now(), '%H:%M:%S');
      case 'd':
        return formatDate(shell.io.now(), '%a %b %d');
      case 's':
        return shell.state.arg0.slice(shell.state.arg0.lastIndexOf('/') + 1);
      default:
        return match;
    }
  });
}

export async function runInteractiveLoop(shell: Shell, streams: Streams, interactive: boolean): Promise<number> {
  const state = shell.state;
  const kernel = shell.proc.kernel;
  let pending = '';
  const write = (text: string): Promise<void> => streams.stderr.write(text).catch(() => {});
  for (;;) {
    if (interactive) {
      const ps1 = state.get('PS1');
      await write(pending ? (state.get('PS2') ?? '> ') : ps1 !== undefined ? expandPrompt(shell, ps1) : (shell.io.uid ?? 0) === 0 ? '# ' : '$ ');
    }
    let line: string | null;
    kernel.stdinWaitKind = interactive ? 'interruptible' : 'command';
    try {
      line = await streams.stdin.readLine();
    } catch (error) {
      if (!(error instanceof WaitInterrupted)) throw error;
      // Ctrl-C at the prompt: the line is dropped; a trapped signal's action runs.
      shell.clearInterrupt();
      pending = '';
      state.lastStatus = error.code;
      if (error.code === 130) await write('\n');
      try {
        await shell.checkpoint(streams);
      } catch (trapError) {
        if (trapError instanceof ShellExit) return shell.runExitTrap(streams, trapError.code);
        if (!(trapError instanceof WaitInterrupted)) throw trapError;
      }
      continue;
    } finally {
      kernel.stdinWaitKind = 'command';
    }
    if (line === null) {
      if (pending && !interactive) {
        await shell.error(streams, 'syntax error: unexpected end of file');
        return 2;
      }
      if (interactive) await write('\n');
      return shell.runExitTrap(streams, state.lastStatus);
    }
    pending += line + '\n';
    let script: Script;
    try {
      script = parseScript(pending);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      if (error.incomplete) continue;
      pending = '';
      await shell.error(streams, `syntax error: ${error.message}`);
      state.lastStatus = 2;
      if (!interactive) return shell.runExitTrap(streams, 2);
      continue;
    }
    pending = '';
    try {
      await shell.execScript(script, streams);
    } catch (error) {
      if (error instanceof WaitInterrupted) {
        shell.clearInterrupt();
        state.lastStatus = error.code;
        if (error.code === 130) await write('\n');
        continue;
      }
      if (error instanceof ShellExit) return shell.runExitTrap(streams, error.code);
      if (error instanceof LoopControl || error instanceof FunctionReturn) continue;
      if (error instanceof BrokenPipe) return 141;
      throw error;
    }
  }
}
