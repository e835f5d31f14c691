// Long-running programs whose effect the runtime observes: `nc -l` (a port
// the pod listens on, for port-forward and probes) and `stress` (memory and
// CPU the container uses, for metrics and OOMKilled). They run until their
// timeout or until a signal ends the process.

import type { CommandContext } from '../command';
import { parseOptions } from './options';

const FOREVER_MS = 86_400_000;

async function waitForever(ctx: CommandContext): Promise<never> {
  for (;;) await ctx.proc.sleep(FOREVER_MS, 'command');
}

/** busybox nc: `nc -l -p PORT`, `nc -lk -p PORT`, `nc -l PORT`; a client connection is not simulated. */
export async function nc(ctx: CommandContext): Promise<number> {
  const parsed = parseOptions(ctx.args, { flags: 'lknvuzN', values: 'pwieq' });
  if (parsed.error) {
    await ctx.err(`nc: ${parsed.error}\n`);
    return 1;
  }
  if (parsed.flags.has('l')) {
    const portText = parsed.flags.get('p') ?? parsed.operands[parsed.operands.length - 1];
    const port = Number(portText);
    if (portText === undefined || !Number.isInteger(port) || port < 0 || port > 65535) {
      await ctx.err(portText === undefined ? 'nc: missing port\n' : `nc: invalid port '${portText}'\n`);
      return 1;
    }
    ctx.io.listen?.(port);
    if (parsed.flags.has('v')) await ctx.err(`listening on [::]:${port} ...\n`);
    return waitForever(ctx);
  }
  const [host, port] = parsed.operands;
  if (host === undefined || port === undefined) {
    await ctx.err('Usage: nc [OPTIONS] HOST PORT  - connect\nnc [OPTIONS] -l -p PORT [HOST] [PORT]  - listen\n');
    return 1;
  }
  // Connections between simulated pods are not made by the shell (the runtime may provide `nc` itself).
  await ctx.err(`nc: connecting to ${host}:${port} is not simulated\n`);
  return 1;
}

/** A size as stress takes it: a number with an optional B, K, M or G suffix (powers of 1024). */
export function parseStressBytes(text: string): number | undefined {
  const match = /^([0-9]+(?:\.[0-9]+)?)([bBkKmMgG]?)$/.exec(text);
  if (!match) return undefined;
  const unit = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase() as 'k'];
  return Math.floor(Number(match[1]) * unit);
}

function parseStressSeconds(text: string): number | undefined {
  const match = /^([0-9]+)([smhdy]?)$/.exec(text);
  if (!match) return undefined;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400, y: 31536000 }[match[2] as 's'];
  return Number(match[1]) * unit;
}

/**
 * polinux/stress's `stress` (`--cpu N --vm N --vm-bytes B --vm-hang S --timeout T`)
 * and vish/stress's flags (`-cpus N`, `-mem-total B`): it reports the memory
 * its workers hold and the CPU they burn through ShellIO and runs until the
 * timeout or a signal; the runtime decides OOMKilled by the limit.
 */
export async function stress(ctx: CommandContext): Promise<number> {
  const args = ctx.args;
  if (args.some((arg) => /^-(cpus|mem-total|mem-alloc-size|mem-alloc-sleep|logtostderr|v)(=|$)/.test(arg)) && !args.some((arg) => arg.startsWith('--'))) {
    return vishStress(ctx);
  }
  const parsed = parseOptions(args, {
    flags: 'vqnh',
    values: 'tcimd',
    long: {
      timeout: 't', cpu: 'c', io: 'i', vm: 'm', hdd: 'd', 'vm-bytes': 'B', 'vm-stride': 'S', 'vm-hang': 'H', 'vm-keep': 'K', 'hdd-bytes': 'D', backoff: 'b', verbose: 'v', quiet: 'q', 'dry-run': 'n', help: 'h', version: 'V',
    },
  });
  // The long-only options above take values except --vm-keep, --help and --version.
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const match = /^--(vm-bytes|vm-stride|vm-hang|hdd-bytes|backoff)(?:=(.*))?$/.exec(arg);
    if (match) values.set(match[1]!, match[2] ?? args[++i] ?? '');
  }
  const pid = ctx.proc.pid === ctx.proc.kernel.root.pid ? ctx.proc.pid : ctx.proc.kernel.allocatePid();
  const fail = async (message: string): Promise<number> => {
    await ctx.err(`stress: FAIL: [${pid}] (${message}\n`);
    return 1;
  };
  if (parsed.error && !/--(vm-bytes|vm-stride|vm-hang|hdd-bytes|backoff)/.test(parsed.error)) {
    await ctx.err(`stress: ${parsed.error}\n`);
    return 1;
  }
  const count = (letter: string): number => Number(parsed.flags.get(letter) ?? 0);
  const cpu = count('c');
  const io = count('i');
  const vm = count('m');
  const hdd = count('d');
  if ([cpu, io, vm, hdd].some((n) => !Number.isInteger(n) || n < 0)) return fail('invalid number of workers)');
  if (cpu + io + vm + hdd === 0) {
    await ctx.out('`stress\' imposes certain types of compute stress on your system\n\nUsage: stress [OPTION [ARG]] ...\n');
    return 1;
  }
  const vmBytes = values.has('vm-bytes') ? parseStressBytes(values.get('vm-bytes')!) : 256 * 1024 * 1024;
  if (vmBytes === undefined) return fail(`invalid bytes value '${values.get('vm-bytes')}')`);
  const timeoutText = parsed.flags.get('t');
  const timeout = timeoutText === undefined ? undefined : parseStressSeconds(timeoutText);
  if (timeoutText !== undefined && timeout === undefined) return fail(`invalid time value '${timeoutText}')`);
  const hang = values.has('vm-hang');
  const quiet = parsed.flags.has('q');
  if (!quiet) await ctx.out(`stress: info: [${pid}] dispatching hogs: ${cpu} cpu, ${io} io, ${vm} vm, ${hdd} hdd\n`);
  // CPU workers spin a core each; vm workers spin too unless they hang holding their memory.
  const cores = cpu + (hang ? 0 : vm);
  ctx.io.setMemoryUsage?.(vm * vmBytes);
  ctx.io.setCpuUsage?.(cores * 1_000_000_000);
  try {
    if (timeout === undefined) return await waitForever(ctx);
    await ctx.proc.sleep(timeout * 1000, 'command');
  } finally {
    ctx.io.setMemoryUsage?.(0);
    ctx.io.setCpuUsage?.(0);
  }
  if (!quiet) await ctx.out(`stress: info: [${pid}] successful run completed in ${timeout}s\n`);
  return 0;
}

/** vish/stress (the Kubernetes CPU tutorial's image): `-cpus N`, `-mem-total SIZE`; runs until signalled. */
async function vishStress(ctx: CommandContext): Promise<number> {
  let cpus = 0;
  let memory = 0;
  const args = ctx.args;
  for (let i = 0; i < args.length; i++) {
    const match = /^-{1,2}([a-z-]+)(?:=(.*))?$/.exec(args[i]!);
    if (!match) continue;
    const value = match[2] ?? (['cpus', 'mem-total', 'mem-alloc-size', 'mem-alloc-sleep'].includes(match[1]!) ? args[++i] : undefined);
    if (match[1] === 'cpus') cpus = Number(value ?? 0) || 0;
    if (match[1] === 'mem-total') memory = parseQuantity(value ?? '0');
  }
  ctx.io.setCpuUsage?.(cpus * 1_000_000_000);
  if (memory > 0) ctx.io.setMemoryUsage?.(memory);
  try {
    return await waitForever(ctx);
  } finally {
    ctx.io.setMemoryUsage?.(0);
    ctx.io.setCpuUsage?.(0);
  }
}

/** A Kubernetes-style quantity (vish/stress takes them): 150Mi, 1Gi, 500M. */
function parseQuantity(text: string): number {
  const match = /^([0-9.]+)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(text);
  if (!match) return 0;
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[match[2] ?? ''] ?? 1;
  return Math.floor(Number(match[1]) * unit);
}
