// Starting a process in a container, as containerd's runc shim does: check
// that the command exists in the image (else containerd's StartError
// message, which the kubelet shows as the container's state), and run it:
// straight into one of the runtime's programs (nginx, redis-server, …) or
// through KubeTab's shell for anything else.

import { commandExists, runCommand, startCommand } from '../shell';
import type { ShellFileSystem } from '../shell/types';
import type { ShellIO } from '../shell/types';
import { findProgram, SimProcess, type Program, type ProgramFn, type ProcessOptions } from './process';
import { imagePrograms, quietServer } from './programs/image-programs';

/** The runtime's programs plus the container's own (an unknown image's server). */
export function programsFor(extra: Readonly<Record<string, Program>> = {}): Record<string, Program> {
  const table: Record<string, Program> = {};
  const exec = async (argv: readonly string[], io: ShellIO): Promise<number> => {
    const program = findProgram(table, argv[0] ?? '');
    if (program) return program.run(argv.slice(1), io);
    return (await runCommand(argv, io)).code;
  };
  Object.assign(table, imagePrograms(exec), extra);
  return table;
}

export { quietServer };

/** containerd's error for a command that the image does not have, or undefined when it can start. */
export function startError(argv: readonly string[], programs: Readonly<Record<string, Program>>, hasShell: boolean, fs?: ShellFileSystem, cwd = '/'): string | undefined {
  const name = argv[0] ?? '';
  if (name && findProgram(programs, name)) return undefined;
  const table: Record<string, ProgramFn> = {};
  for (const [n, p] of Object.entries(programs)) table[n] = p.run;
  // An image without a shell has only its own programs and files.
  if (name && hasShell && (fs ? commandExists(name, { fs, programs: table, cwd }) : commandExists(name))) return undefined;
  const detail = name.includes('/') ? `exec: ${JSON.stringify(name)}: stat ${name}: no such file or directory` : `exec: ${JSON.stringify(name)}: executable file not found in $PATH`;
  return `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: ${detail}: unknown`;
}

/** Starts a process (see process.ts); the shell runs what is not a program. */
export function launch(options: Omit<ProcessOptions, 'runner'>): SimProcess {
  return new SimProcess({ ...options, runner: (argv, io, pid1) => startCommand(argv, io, { pid1 }) });
}
