// A ShellIO that is another one with some members replaced (a terminal's
// output processing, a command's own streams and environment). Members are
// delegated by call, never copied with `...io`: the runtime's io may be a
// class instance whose methods live on its prototype.

import type { ShellIO } from './types';

export function deriveIo(io: ShellIO, overrides: Partial<ShellIO>): ShellIO {
  const base: ShellIO = {
    now: () => io.now(),
    sleep: (ms) => io.sleep(ms),
    stdout: (text) => io.stdout(text),
    stderr: (text) => io.stderr(text),
    readStdin: io.readStdin ? () => io.readStdin!() : undefined,
    env: io.env,
    fs: io.fs,
    hostname: io.hostname,
    tty: io.tty,
    setMemoryUsage: io.setMemoryUsage ? (bytes) => io.setMemoryUsage!(bytes) : undefined,
    setCpuUsage: io.setCpuUsage ? (nanoCores) => io.setCpuUsage!(nanoCores) : undefined,
    listen: io.listen ? (port) => io.listen!(port) : undefined,
    programs: io.programs,
    cwd: io.cwd,
    pid: io.pid,
    uid: io.uid,
    gid: io.gid,
    groups: io.groups,
  };
  return { ...base, ...overrides };
}
