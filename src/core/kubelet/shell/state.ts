// What a shell process holds: its variables (and which are exported into the
// environment of the commands it runs), functions, positional parameters,
// working directory, options, traps and background jobs. A subshell starts
// with a copy; a script run as a command starts from the exported variables
// only.

import type { Command } from './ast';
import type { Proc } from './process';

export interface Variable {
  value: string;
  exported: boolean;
  readonly?: boolean;
}

export interface Job {
  readonly id: number;
  readonly proc: Proc;
  readonly command: string;
  readonly done: Promise<number>;
  status: number | undefined;
}

export interface ShellOptions {
  errexit: boolean;
  xtrace: boolean;
  nounset: boolean;
  noglob: boolean;
  noexec: boolean;
}

export class ShellState {
  readonly vars = new Map<string, Variable>();
  readonly functions = new Map<string, Command>();
  positional: string[] = [];
  /** $0 */
  arg0: string;
  cwd: string;
  options: ShellOptions = { errexit: false, xtrace: false, nounset: false, noglob: false, noexec: false };
  /** By signal name ('TERM', 'EXIT'); '' ignores the signal. */
  readonly traps = new Map<string, string>();
  lastStatus = 0;
  lastBackgroundPid: number | undefined;
  readonly jobs = new Map<number, Job>();
  nextJobId = 1;
  /** `local` variables' saved values, one frame per running function. */
  readonly localFrames: Map<string, Variable | undefined>[] = [];

  constructor(arg0: string, cwd: string) {
    this.arg0 = arg0;
    this.cwd = cwd;
  }

  get(name: string): string | undefined {
    return this.vars.get(name)?.value;
  }

  /** Sets a variable; returns false when it is read-only. */
  set(name: string, value: string, exported?: boolean): boolean {
    const existing = this.vars.get(name);
    if (existing?.readonly) return false;
    if (existing) {
      existing.value = value;
      if (exported) existing.exported = true;
    } else {
      this.vars.set(name, { value, exported: exported ?? (this.allExport || this.exportWhenSet.has(name)) });
    }
    return true;
  }

  /** `set -a` */
  allExport = false;
  /** Names `export NAME` marked before they were set. */
  readonly exportWhenSet = new Set<string>();

  unset(name: string): boolean {
    const existing = this.vars.get(name);
    if (existing?.readonly) return false;
    this.vars.delete(name);
    return true;
  }

  /** The environment of a command: the exported variables. */
  environment(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, variable] of this.vars) if (variable.exported) env[name] = variable.value;
    return env;
  }

  /** The state a subshell starts with: everything copied; traps reset except ignored signals. */
  forSubshell(): ShellState {
    const copy = new ShellState(this.arg0, this.cwd);
    for (const [name, variable] of this.vars) copy.vars.set(name, { ...variable });
    for (const [name, body] of this.functions) copy.functions.set(name, body);
    copy.positional = [...this.positional];
    copy.options = { ...this.options };
    copy.allExport = this.allExport;
    for (const name of this.exportWhenSet) copy.exportWhenSet.add(name);
    for (const [signal, action] of this.traps) if (action === '') copy.traps.set(signal, '');
    copy.lastStatus = this.lastStatus;
    copy.lastBackgroundPid = this.lastBackgroundPid;
    return copy;
  }
}
