// One line for a failure of `npm run serve` before it serves: kube-apiserver
// prints what went wrong, not a stack. A port already taken reads as Go's net
// package words it (`failed to listen on 127.0.0.1:8080: listen tcp
// 127.0.0.1:8080: bind: address already in use`); everything else is the
// error's own message, which names the file or flag at fault.

/** The text Go's syscall package gives the errno Node reports. */
const BIND_ERRORS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'cannot assign requested address',
};

interface SystemError extends Error {
  readonly code?: string;
  readonly syscall?: string;
  readonly address?: string;
  readonly port?: number;
}

export function describeStartupError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const system = error as SystemError;
  const bindText = system.code ? BIND_ERRORS[system.code] : undefined;
  if (system.syscall === 'listen' && bindText && system.address !== undefined && system.port !== undefined) {
    const hostPort = system.address.includes(':') ? `[${system.address}]:${system.port}` : `${system.address}:${system.port}`;
    return `failed to listen on ${hostPort}: listen tcp ${hostPort}: bind: ${bindText}`;
  }
  // One line: a message that spans lines (a nested cause) is joined.
  return error.message.split('\n').map((line) => line.trim()).filter(Boolean).join(' ');
}
