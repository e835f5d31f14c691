// The shell's interpreter: walks the syntax tree of one shell process (the
// container's `sh -c`, a subshell, a background job) against ShellIO. Exit
// statuses, `set -e`, traps, functions, pipelines and redirections follow
// POSIX sh; messages follow busybox ash ("sh: foo: not found").
//
// Signals reach a shell through its Proc (process.ts). A trapped signal's
// action runs between commands: a foreground command (say `sleep 5`) runs
// to its end first, as sh waits for its child before handling the signal,
// while `wait` is cut short. Without a trap the signal's default action
// applies, except for the container's PID 1, which the kernel shields.

import type { Command, Redirect, Script, SimpleCommand, Word, Pipeline, AndOr } from './ast';
import type { CommandContext, Streams, Utility } from './command';
import {
  BrokenPipe,
  CommandSignalled,
  FunctionReturn,
  LoopControl,
  ProcessTerminated,
  ShellExit,
  ShellSyntaxError,
  WaitInterrupted,
} from './errors';
import { deriveIo } from './derive-io';
import { Expander } from './expand';
import { parseScript } from './parser';
import { matchPattern } from './pattern';
import { baseName, resolvePath } from './paths';
import { SIGNAL_NUMBERS, type Proc } from './process';
import { ShellState, type Job, type Variable } from './state';
import { CaptureStream, InputStream, NULL_OUTPUT, Pipe, SinkStream, type OutputStream } from './streams';
import { ProcessSignal, type ShellIO } from './types';
import { SHELL_BUILTINS, SPECIAL_BUILTINS } from './builtins';
import { UTILITIES, isBinDirectory } from './utilities';

export interface ShellConfig {
  /** An interactive shell (a terminal): it prompts, survives errors and Ctrl-C. */
  readonly interactive: boolean;
  /** The script's name for error messages (`sh script.sh`), as ash's commandname. */
  readonly scriptName?: string;
}

/** An error met while expanding words (bad substitution, divide by zero, ${x?}). */
export class ExpansionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpansionError';
  }
}

export class Shell {
  readonly expander: Expander;
  private pendingTraps: string[] = [];
  private interruptedLine = false;
  /** The command being run is the process's own program (sh's exec of a -c script's last command). */
  private execProgram = false;
  /** The command a `-c` script (or script file) ends with: run as if exec'd, when no trap is set. */
  execCandidate: SimpleCommand | undefined;
  private exitTrapDone = false;
  loopDepth = 0;
  functionDepth = 0;
  private conditionDepth = 0;
  /** Inside a while/until condition: its commands do not count toward the busy-loop throttle (the body's do). */
  private loopConditionDepth = 0;
  private line = 1;
  private lastSubstitutionStatus: number | undefined;

  constructor(
    readonly proc: Proc,
    readonly state: ShellState,
    readonly io: ShellIO,
    readonly config: ShellConfig,
  ) {
    this.expander = new Expander({
      state,
      fs: io.fs,
      shellPid: proc.kernel.root.pid,
      substitute: (script) => this.substitute(script),
      fail: (message) => {
        throw new ExpansionError(message);
      },
    });
    proc.signalHandler = (signal, toGroup) => this.onSignal(signal, toGroup);
  }

  get interactive(): boolean {
    return this.config.interactive;
  }

  /** The line of the command being run (for messages). */
  get currentLine(): number {
    return this.line;
  }

  // ---- messages ----------------------------------------------------------

  /** ash's message prefix: `sh: `, or `script.sh: line 3: ` in a script. */
  errorPrefix(): string {
    const arg0 = this.state.arg0;
    const name = this.config.scriptName;
    if (name === undefined) return `${arg0}: `;
    return `${arg0}: ${name !== arg0 ? `${name}: ` : ''}${this.interactive ? '' : `line ${this.line}: `}`;
  }

  async error(streams: Streams, message: string): Promise<void> {
    await streams.stderr.write(`${this.errorPrefix()}${message}\n`).catch(() => {});
  }

  // ---- programs ----------------------------------------------------------

  /**
   * Runs a whole program (a `-c` script, a script file): a syntax error
   * prints sh's message and ends it with 2; `exit` ends it; the EXIT trap runs at its end.
   */
  async runProgram(source: string, streams: Streams, options: { execLast?: boolean } = {}): Promise<number> {
    let script: Script;
    try {
      script = parseScript(source);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      this.line = error.line;
      await this.error(streams, `syntax error: ${error.message}`);
      return 2;
    }
    if (options.execLast) this.execCandidate = lastSimpleCommand(script);
    let status: number;
    try {
      status = await this.execScript(script, streams);
    } catch (error) {
      status = this.exitCodeOf(error);
    }
    return this.runExitTrap(streams, status);
  }

  /** The code an exception ends a shell with; anything else is rethrown. */
  exitCodeOf(error: unknown): number {
    if (error instanceof ShellExit) return error.code;
    if (error instanceof FunctionReturn) return error.code;
    if (error instanceof LoopControl) return this.state.lastStatus;
    if (error instanceof BrokenPipe) return 128 + 13;
    if (error instanceof WaitInterrupted) return error.code;
    throw error;
  }

  async runExitTrap(streams: Streams, status: number): Promise<number> {
    const action = this.state.traps.get('EXIT');
    if (this.exitTrapDone || !action) return status;
    this.exitTrapDone = true;
    this.state.lastStatus = status;
    try {
      await this.runSource(action, streams);
    } catch (error) {
      return this.exitCodeOf(error);
    }
    return status;
  }

  /** Parses and runs text in this shell (eval, trap actions, `.`); syntax errors are reported (status 2). */
  async runSource(source: string, streams: Streams): Promise<number> {
    let script: Script;
    try {
      script = parseScript(source, this.line);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      await this.error(streams, `syntax error: ${error.message}`);
      if (!this.interactive) throw new ShellExit(2);
      return 2;
    }
    return this.execScript(script, streams);
  }

  // ---- signals -----------------------------------------------------------

  private onSignal(signal: string, _toGroup: boolean): 'default' | 'handled' {
    const action = this.state.traps.get(signal);
    if (action === '') return 'handled';
    const number = SIGNAL_NUMBERS[signal] ?? 15;
    if (action !== undefined) {
      this.pendingTraps.push(signal);
      this.proc.interruptWaits('interruptible', new WaitInterrupted(128 + number));
      return 'handled';
    }
    if (this.execProgram && (signal === 'TERM' || signal === 'INT')) {
      this.proc.signalProgram(signal);
      return 'handled';
    }
    if (this.interactive && (signal === 'INT' || signal === 'TERM' || signal === 'QUIT')) {
      // An interactive shell survives these; Ctrl-C abandons the command line being run or typed.
      if (signal === 'INT') {
        this.interruptedLine = true;
        this.proc.interruptWaits('interruptible', new WaitInterrupted(130));
      }
      return 'handled';
    }
    return 'default';
  }

  /** Between commands: an interactive Ctrl-C abandons the line; pending traps run. */
  async checkpoint(streams: Streams): Promise<void> {
    if (this.interruptedLine) {
      this.interruptedLine = false;
      throw new WaitInterrupted(130);
    }
    while (this.pendingTraps.length > 0) {
      const signal = this.pendingTraps.shift()!;
      const action = this.state.traps.get(signal);
      if (!action) continue;
      const saved = this.state.lastStatus;
      await this.runSource(action, streams);
      this.state.lastStatus = saved;
    }
  }

  /** Forgets an interrupt that arrived while an interactive shell waited for its next line. */
  clearInterrupt(): void {
    this.interruptedLine = false;
  }

  // ---- lists -------------------------------------------------------------

  async execScript(script: Script, streams: Streams): Promise<number> {
    this.lastStreams = streams;
    this.currentStderr = streams.stderr;
    let status = this.state.lastStatus;
    for (const item of script.items) {
      this.currentStderr = streams.stderr;
      if (item.background) {
        this.startJob(item.command, streams);
        status = 0;
        this.state.lastStatus = 0;
      } else {
        status = await this.execAndOr(item.command, streams);
      }
      await this.checkpoint(streams);
    }
    return status;
  }

  private async execAndOr(list: AndOr, streams: Streams): Promise<number> {
    const last = list.rest.length;
    let index = 0;
    let status = await this.execPipelineAt(list.first, streams, last > 0);
    let final = last === 0;
    let negated = list.first.negated;
    for (const { op, pipeline } of list.rest) {
      index++;
      if ((op === '&&') !== (status === 0)) continue;
      status = await this.execPipelineAt(pipeline, streams, index < last);
      final = index === last;
      negated = pipeline.negated;
    }
    this.state.lastStatus = status;
    if (status !== 0 && final && !negated && this.state.options.errexit && this.conditionDepth === 0) {
      throw new ShellExit(status);
    }
    return status;
  }

  private async execPipelineAt(pipeline: Pipeline, streams: Streams, asCondition: boolean): Promise<number> {
    if (!asCondition) return this.execPipeline(pipeline, streams);
    this.conditionDepth++;
    try {
      return await this.execPipeline(pipeline, streams);
    } finally {
      this.conditionDepth--;
    }
  }

  private async execPipeline(pipeline: Pipeline, streams: Streams): Promise<number> {
    let status: number;
    if (pipeline.negated) this.conditionDepth++;
    try {
      if (pipeline.commands.length === 1) {
        status = await this.execCommand(pipeline.commands[0]!, streams);
      } else {
        status = await this.execPipe(pipeline.commands, streams);
      }
    } finally {
      if (pipeline.negated) this.conditionDepth--;
    }
    if (pipeline.negated) status = status === 0 ? 1 : 0;
    this.state.lastStatus = status;
    return status;
  }

  /** `a | b | c`: each command in a subshell, all at once, joined by pipes; the status is the last one's. */
  private async execPipe(commands: readonly Command[], streams: Streams): Promise<number> {
    const pipes = commands.slice(1).map(() => new Pipe());
    const runs = commands.map((command, index) => {
      const own: Streams = {
        stdin: index === 0 ? streams.stdin : pipes[index - 1]!.input,
        stdout: index === commands.length - 1 ? streams.stdout : pipes[index]!.output,
        stderr: streams.stderr,
      };
      return this.runSubshell((sub) => sub.execCommand(command, own), false).then((code) => {
        if (index < commands.length - 1) pipes[index]!.output.close();
        if (index > 0) pipes[index - 1]!.input.close();
        return code;
      });
    });
    const statuses = await this.proc.wait('shell', Promise.all(runs));
    return statuses[statuses.length - 1]!;
  }

  /** Runs work in a forked subshell (a copy of this shell's state) and settles with its exit code. */
  runSubshell(work: (sub: Shell) => Promise<number>, background: boolean): Promise<number> {
    return this.spawn(work, background).done;
  }

  private spawn(work: (sub: Shell) => Promise<number>, background: boolean): { proc: Proc; done: Promise<number> } {
    const child = this.proc.fork(background);
    const sub = new Shell(child, this.state.forSubshell(), this.io, { interactive: false, scriptName: this.config.scriptName });
    sub.line = this.line;
    sub.loopDepth = this.loopDepth;
    sub.currentStderr = this.currentStderr;
    const done = child.run(async () => {
      let status: number;
      try {
        status = await work(sub);
      } catch (error) {
        status = sub.exitCodeOf(error);
      }
      return sub.runExitTrap(sub.lastStreams, status);
    });
    return { proc: child, done };
  }

  private startJob(list: AndOr, streams: Streams): void {
    // A background job of a non-interactive shell reads /dev/null.
    const own: Streams = { ...streams, stdin: this.interactive ? streams.stdin : InputStream.empty() };
    const { proc, done } = this.spawn((sub) => sub.execAndOr(list, own), true);
    const job: Job = { id: this.state.nextJobId++, proc, command: '', done, status: undefined };
    this.state.jobs.set(proc.pid, job);
    this.state.lastBackgroundPid = proc.pid;
    void done.then((status) => {
      job.status = status;
    });
  }

  // ---- commands ----------------------------------------------------------

  async execCommand(command: Command, streams: Streams): Promise<number> {
    switch (command.type) {
      case 'simple':
        return this.execSimple(command, streams);
      case 'function':
        this.state.functions.set(command.name, command.body);
        return 0;
      default:
        break;
    }
    const redirected = await this.redirect(command.redirects, streams);
    if (redirected === undefined) return 1;
    try {
      switch (command.type) {
        case 'group':
          return await this.execScript(command.body, redirected);
        case 'subshell':
          return await this.proc.wait('shell', this.runSubshell((sub) => sub.execScript(command.body, redirected), false));
        case 'if': {
          for (const clause of command.clauses) {
            if ((await this.condition(clause.condition, redirected)) === 0) return await this.execScript(clause.body, redirected);
          }
          if (command.otherwise) return await this.execScript(command.otherwise, redirected);
          return 0;
        }
        case 'loop':
          return await this.execLoop(command.until, command.condition, command.body, redirected);
        case 'for':
          return await this.execFor(command.name, command.items, command.body, redirected);
        case 'case': {
          const subject = await this.expander.string(command.subject);
          for (const arm of command.arms) {
            for (const pattern of arm.patterns) {
              if (matchPattern(subject, await this.expander.pattern(pattern))) {
                return await this.execScript(arm.body, redirected);
              }
            }
          }
          return 0;
        }
      }
      return 0;
    } catch (error) {
      if (error instanceof ExpansionError) return this.expansionFailed(error, streams);
      throw error;
    } finally {
      redirected.cleanup?.();
    }
  }

  private async condition(script: Script, streams: Streams): Promise<number> {
    this.conditionDepth++;
    try {
      return await this.execScript(script, streams);
    } finally {
      this.conditionDepth--;
    }
  }

  private async execLoop(until: boolean, condition: Script, body: Script, streams: Streams): Promise<number> {
    let status = 0;
    this.loopDepth++;
    try {
      for (;;) {
        this.loopConditionDepth++;
        let test: number;
        try {
          test = await this.condition(condition, streams);
        } finally {
          this.loopConditionDepth--;
        }
        if (until ? test === 0 : test !== 0) break;
        try {
          status = await this.execScript(body, streams);
        } catch (error) {
          if (!(error instanceof LoopControl)) throw error;
          if (error.levels > 1) throw new LoopControl(error.kind, error.levels - 1);
          if (error.kind === 'break') break;
        }
      }
    } finally {
      this.loopDepth--;
    }
    this.state.lastStatus = status;
    return status;
  }

  private async execFor(name: string, items: readonly Word[] | undefined, body: Script, streams: Streams): Promise<number> {
    const values = items ? await this.expander.fields(items) : [...this.state.positional];
    let status = 0;
    this.loopDepth++;
    try {
      for (const value of values) {
        if (!this.state.set(name, value)) {
          await this.error(streams, `${name}: is read only`);
          return 2;
        }
        try {
          status = await this.execScript(body, streams);
        } catch (error) {
          if (!(error instanceof LoopControl)) throw error;
          if (error.levels > 1) throw new LoopControl(error.kind, error.levels - 1);
          if (error.kind === 'break') break;
        }
      }
    } finally {
      this.loopDepth--;
    }
    this.state.lastStatus = status;
    return status;
  }

  private async expansionFailed(error: ExpansionError, streams: Streams): Promise<number> {
    await this.error(streams, error.message);
    // A non-interactive shell ends on an expansion error, as ash does.
    if (!this.interactive) throw new ShellExit(2);
    return 2;
  }

  private async execSimple(command: SimpleCommand, streams: Streams): Promise<number> {
    this.line = command.line;
    this.currentStderr = streams.stderr;
    // Counted toward the busy-loop throttle (process.ts), except a loop's
    // condition: `while true; do echo x; done` counts one command a round.
    if (this.loopConditionDepth === 0) await this.proc.step();
    else this.proc.checkAlive();
    await this.checkpoint(streams);
    this.lastSubstitutionStatus = undefined;
    let argv: string[];
    const assignments: [string, string][] = [];
    try {
      argv = await this.expander.fields(command.words);
      for (const assignment of command.assignments) {
        assignments.push([assignment.name, await this.expander.string(assignment.value)]);
      }
    } catch (error) {
      if (error instanceof ExpansionError) return this.expansionFailed(error, streams);
      throw error;
    }
    if (this.state.options.xtrace) {
      const words = [...assignments.map(([name, value]) => `${name}=${quoteForTrace(value)}`), ...argv.map(quoteForTrace)];
      if (words.length > 0) await streams.stderr.write(`${this.state.get('PS4') ?? '+ '}${words.join(' ')}\n`);
    }
    if (argv.length === 0) {
      for (const [name, value] of assignments) {
        if (!this.state.set(name, value)) {
          await this.error(streams, `${name}: is read only`);
          if (!this.interactive) throw new ShellExit(2);
          return 2;
        }
      }
      const redirected = await this.redirect(command.redirects, streams);
      if (redirected === undefined) return 1;
      redirected.cleanup?.();
      return this.lastSubstitutionStatus ?? 0;
    }
    const redirected = await this.redirect(command.redirects, streams);
    if (redirected === undefined) {
      if (SPECIAL_BUILTINS[argv[0]!] && !this.interactive) throw new ShellExit(1);
      return 1;
    }
    if (argv.length === 1 && argv[0] === 'exec') {
      // `exec >file 2>&1`: the redirections stay for the rest of the shell.
      streams.stdin = redirected.stdin;
      streams.stdout = redirected.stdout;
      streams.stderr = redirected.stderr;
      return 0;
    }
    try {
      const status = await this.dispatch(argv, assignments, redirected, command === this.execCandidate);
      this.state.lastStatus = status;
      return status;
    } finally {
      redirected.cleanup?.();
    }
  }

  /** Finds and runs a command: special builtins, functions, builtins and utilities, the runtime's programs, script files. */
  async dispatch(argv: readonly string[], assignments: readonly [string, string][], streams: Streams, asExec = false): Promise<number> {
    const name = argv[0]!;
    const args = argv.slice(1);
    const special = SPECIAL_BUILTINS[name];
    if (special) {
      for (const [variable, value] of assignments) this.state.set(variable, value);
      return this.runUtility(special, name, args, streams, this.state.environment());
    }
    const fn = this.state.functions.get(name);
    if (fn) return this.withTemporaryVariables(assignments, () => this.callFunction(fn, args, streams));
    const env = { ...this.state.environment(), ...Object.fromEntries(assignments) };
    const builtin = SHELL_BUILTINS[name];
    if (builtin) return this.withTemporaryVariables(assignments, () => this.runUtility(builtin, name, args, streams, env));
    return this.runExternal(name, args, streams, env, asExec && this.state.traps.size === 0);
  }

  /**
   * A command found by name outside the shell. A bare name: a program of the
   * runtime's, else a utility. A path: the file there (a script), else a
   * program of the runtime's by path or base name, else a utility when the
   * path is in a bin directory (/bin/sleep).
   */
  async runExternal(name: string, args: readonly string[], streams: Streams, env: Record<string, string>, asExec: boolean): Promise<number> {
    const found = findExternal(name, this.io, this.state.cwd);
    switch (found?.kind) {
      case 'program':
        return this.runProgramOfRuntime(found.program, args, streams, env, asExec);
      case 'utility':
        return this.runUtility(found.utility, name, args, streams, env);
      case 'script':
        return this.runScriptFile(name, found.text, args, streams, env);
      case 'directory':
        await this.error(streams, `${name}: Permission denied`);
        return 126;
      default:
        await this.error(streams, `${name}: not found`);
        return 127;
    }
  }

  /** A script run as a command: a new shell process, with the exported variables only. */
  private async runScriptFile(name: string, text: string, args: readonly string[], streams: Streams, env: Record<string, string>): Promise<number> {
    const child = this.proc.fork();
    const state = new ShellState(name, this.state.cwd);
    for (const [key, value] of Object.entries(env)) state.set(key, value, true);
    state.positional = [...args];
    const sub = new Shell(child, state, this.io, { interactive: false, scriptName: name });
    // A `#!` line is a comment to sh.
    return this.proc.wait('shell', child.run(() => sub.runProgram(text, { ...streams })));
  }

  private async runProgramOfRuntime(
    program: (args: readonly string[], io: ShellIO) => Promise<number>,
    args: readonly string[],
    streams: Streams,
    env: Record<string, string>,
    asExec: boolean,
  ): Promise<number> {
    const proc = this.proc;
    const write = (stream: OutputStream) => (text: string): void => {
      void stream.write(text).catch(() => {});
    };
    const programIo: ShellIO = deriveIo(this.io, {
      env,
      cwd: this.state.cwd,
      stdout: write(streams.stdout),
      stderr: write(streams.stderr),
      readStdin: () => proc.wait('program', streams.stdin.read()),
      sleep: (ms) => proc.sleep(ms, 'program'),
    });
    this.execProgram = asExec;
    try {
      return await program(args, programIo);
    } catch (error) {
      if (error instanceof ProcessSignal) return 128 + (SIGNAL_NUMBERS[error.signal.replace(/^SIG/, '')] ?? 15);
      if (error instanceof CommandSignalled) return error.code;
      throw error;
    } finally {
      this.execProgram = false;
    }
  }

  async runUtility(utility: Utility, name: string, args: readonly string[], streams: Streams, env: Record<string, string>): Promise<number> {
    const context: CommandContext = {
      name,
      args,
      streams,
      env,
      cwd: this.state.cwd,
      io: this.io,
      proc: this.proc,
      shell: this,
      out: (text) => streams.stdout.write(text),
      err: (text) => streams.stderr.write(text),
      resolve: (path) => resolvePath(this.state.cwd, path),
    };
    try {
      return await utility(context);
    } catch (error) {
      if (error instanceof CommandSignalled) return error.code;
      throw error;
    }
  }

  async callFunction(body: Command, args: readonly string[], streams: Streams): Promise<number> {
    const saved = this.state.positional;
    this.state.positional = [...args];
    const frame = new Map<string, Variable | undefined>();
    this.state.localFrames.push(frame);
    this.functionDepth++;
    try {
      return await this.execCommand(body, streams);
    } catch (error) {
      if (error instanceof FunctionReturn) return error.code;
      throw error;
    } finally {
      this.functionDepth--;
      this.state.localFrames.pop();
      for (const [name, variable] of frame) {
        if (variable === undefined) this.state.vars.delete(name);
        else this.state.vars.set(name, variable);
      }
      this.state.positional = saved;
    }
  }

  private async withTemporaryVariables(assignments: readonly [string, string][], run: () => Promise<number>): Promise<number> {
    if (assignments.length === 0) return run();
    const saved = assignments.map(([name]) => [name, this.state.vars.get(name)] as const);
    for (const [name, value] of assignments) {
      this.state.vars.delete(name);
      this.state.set(name, value, true);
    }
    try {
      return await run();
    } finally {
      for (const [name, variable] of saved) {
        if (variable === undefined) this.state.vars.delete(name);
        else this.state.vars.set(name, variable);
      }
    }
  }

  /** `$(…)`: runs the script in a subshell and gives its standard output. */
  private async substitute(script: Script): Promise<string> {
    const capture = new CaptureStream();
    const streams: Streams = { stdin: InputStream.empty(), stdout: capture, stderr: this.currentStderr };
    const status = await this.proc.wait('shell', this.runSubshell((sub) => sub.execScript(script, streams), false));
    this.lastSubstitutionStatus = status;
    this.state.lastStatus = status;
    return capture.text;
  }

  /** Where a `$(…)`'s errors go: the shell's standard error. */
  currentStderr: OutputStream = NULL_OUTPUT;
  /** The streams of the list run last (an EXIT trap writes there). */
  lastStreams: Streams = NULL_STREAMS;

  // ---- redirections ------------------------------------------------------

  /** The streams after a command's redirections, or undefined when one failed (the message is written). */
  async redirect(redirects: readonly Redirect[], streams: Streams): Promise<(Streams & { cleanup?: () => void }) | undefined> {
    if (redirects.length === 0) return streams;
    const result: Streams = { ...streams };
    for (const redirect of redirects) {
      let target: string;
      try {
        target = await this.expander.string(redirect.target);
      } catch (error) {
        if (error instanceof ExpansionError) {
          await this.expansionFailed(error, streams);
          return undefined;
        }
        throw error;
      }
      if (redirect.fd > 2) continue; // only the standard streams exist here
      const fd = redirect.fd as 0 | 1 | 2;
      switch (redirect.op) {
        case '<<':
        case '<<-':
          result.stdin = InputStream.of(target);
          break;
        case '<':
        case '<>': {
          if (fd !== 0) break;
          const input = this.openInput(target);
          if (typeof input === 'string') {
            await this.error(result, input);
            return undefined;
          }
          result.stdin = input;
          break;
        }
        case '>&':
        case '<&': {
          if (target === '-') {
            if (fd === 0) result.stdin = InputStream.empty();
            else setOutput(result, fd, NULL_OUTPUT);
            break;
          }
          if (!/^[0-9]+$/.test(target)) {
            if (redirect.op === '>&' && fd === 1) {
              // `>&file` (bash): stdout and stderr to the file.
              const output = this.openOutput(target, false, result);
              if (typeof output === 'string') {
                await this.error(result, output);
                return undefined;
              }
              result.stdout = output;
              result.stderr = output;
              break;
            }
            await this.error(result, `${target}: bad file descriptor`);
            return undefined;
          }
          const source = Number(target);
          if (fd === 0) break;
          if (source === 1) setOutput(result, fd, result.stdout);
          else if (source === 2) setOutput(result, fd, result.stderr);
          else if (source !== 0) {
            await this.error(result, `dup2(${source},${fd}): Bad file descriptor`);
            return undefined;
          }
          break;
        }
        default: {
          if (fd === 0) break;
          const output = this.openOutput(target, redirect.op === '>>', result);
          if (typeof output === 'string') {
            await this.error(result, output);
            return undefined;
          }
          setOutput(result, fd, output);
        }
      }
    }
    return result;
  }

  private openInput(path: string): InputStream | string {
    if (path === '/dev/null') return InputStream.empty();
    const full = resolvePath(this.state.cwd, path);
    const text = this.io.fs.read(full);
    if (text === undefined) {
      return this.io.fs.isDirectory(full) ? `can't open ${path}: Is a directory` : `can't open ${path}: no such file`;
    }
    return InputStream.of(text);
  }

  private openOutput(path: string, append: boolean, current: Streams): OutputStream | string {
    switch (path) {
      case '/dev/null':
        return NULL_OUTPUT;
      case '/dev/stdout':
      case '/proc/self/fd/1':
        return current.stdout;
      case '/dev/stderr':
      case '/proc/self/fd/2':
        return current.stderr;
      case '/proc/1/fd/1':
        // PID 1's standard output: the container's log.
        return new SinkStream((text) => this.proc.kernel.io.stdout(text));
      case '/proc/1/fd/2':
        return new SinkStream((text) => this.proc.kernel.io.stderr(text));
    }
    const full = resolvePath(this.state.cwd, path);
    if (this.io.fs.isDirectory(full)) return `can't create ${path}: Is a directory`;
    const failure = this.io.fs.write(full, '', append);
    if (failure) return `can't create ${path}: ${failure === 'No such file or directory' ? 'nonexistent directory' : failure}`;
    return new SinkStream((text) => {
      this.io.fs.write(full, text, true);
    });
  }
}

const NULL_STREAMS: Streams = { stdin: InputStream.empty(), stdout: NULL_OUTPUT, stderr: NULL_OUTPUT };

function setOutput(streams: Streams, fd: 1 | 2, output: OutputStream): void {
  if (fd === 1) streams.stdout = output;
  else streams.stderr = output;
}

/** The simple command a script ends with, when its last item is one (sh runs it as if exec'd). */
function lastSimpleCommand(script: Script): SimpleCommand | undefined {
  const last = script.items[script.items.length - 1];
  if (!last || last.background || last.command.rest.length > 0) return undefined;
  const pipeline = last.command.first;
  if (pipeline.negated || pipeline.commands.length !== 1) return undefined;
  const command = pipeline.commands[0]!;
  return command.type === 'simple' ? command : undefined;
}

function quoteForTrace(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

type RuntimeProgram = (args: readonly string[], io: ShellIO) => Promise<number>;

export type ExternalCommand =
  | { readonly kind: 'program'; readonly program: RuntimeProgram }
  | { readonly kind: 'utility'; readonly utility: Utility }
  | { readonly kind: 'script'; readonly text: string }
  | { readonly kind: 'directory' };

/** What a command name outside the shell's builtins runs, or undefined when nothing does (sh: x: not found). */
export function findExternal(name: string, io: Pick<ShellIO, 'fs' | 'programs'>, cwd: string): ExternalCommand | undefined {
  const base = baseName(name);
  const programs = io.programs ?? {};
  if (!name.includes('/')) {
    const program = Object.hasOwn(programs, name) ? programs[name] : undefined;
    if (program) return { kind: 'program', program };
    const utility = Object.hasOwn(UTILITIES, name) ? UTILITIES[name] : undefined;
    return utility ? { kind: 'utility', utility } : undefined;
  }
  const path = resolvePath(cwd, name);
  const text = io.fs.read(path);
  if (text !== undefined) return { kind: 'script', text };
  const program = (Object.hasOwn(programs, path) ? programs[path] : undefined) ?? (Object.hasOwn(programs, base) ? programs[base] : undefined);
  if (program) return { kind: 'program', program };
  const utility = Object.hasOwn(UTILITIES, base) ? UTILITIES[base] : undefined;
  if (utility && isBinDirectory(path)) return { kind: 'utility', utility };
  if (io.fs.isDirectory(path)) return { kind: 'directory' };
  return undefined;
}
