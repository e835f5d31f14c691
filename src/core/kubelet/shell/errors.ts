// The exceptions the shell uses for control flow that crosses many frames of
// the interpreter: syntax errors, `exit`, `break`/`continue`/`return`, a
// process's death by a signal, and a broken pipe. None of them escapes
// runCommand: each ends as an exit code.

/** A parse error; `message` is sh's text after "syntax error: ". */
export class ShellSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    /** The input ended inside a construct: an interactive shell asks for more (PS2). */
    readonly incomplete = false,
  ) {
    super(message);
    this.name = 'ShellSyntaxError';
  }
}

/** `exit N`, or a fatal shell error (a special builtin's, a failed redirection of one): the shell ends. */
export class ShellExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
    this.name = 'ShellExit';
  }
}

export class LoopControl extends Error {
  constructor(
    readonly kind: 'break' | 'continue',
    /** How many enclosing loops are left to leave. */
    readonly levels: number,
  ) {
    super(kind);
    this.name = 'LoopControl';
  }
}

export class FunctionReturn extends Error {
  constructor(readonly code: number) {
    super('return');
    this.name = 'FunctionReturn';
  }
}

/** The process was ended (by a signal, or because its parent ended): nothing more of it runs. */
export class ProcessTerminated extends Error {
  constructor(readonly code: number) {
    super(`terminated (${code})`);
    this.name = 'ProcessTerminated';
  }
}

/** A running command was killed by a signal sent to its process group (Ctrl-C): it ends with 128+n. */
export class CommandSignalled extends Error {
  constructor(readonly code: number) {
    super(`signalled (${code})`);
    this.name = 'CommandSignalled';
  }
}

/** A wait that a trapped signal interrupts (`wait`, an interactive shell's read of its next line). */
export class WaitInterrupted extends Error {
  constructor(readonly code: number) {
    super(`interrupted (${code})`);
    this.name = 'WaitInterrupted';
  }
}

/** A write to a pipe whose reader has gone: the writer dies of SIGPIPE (141), silently. */
export class BrokenPipe extends Error {
  constructor() {
    super('broken pipe');
    this.name = 'BrokenPipe';
  }
}
