// One container instance's log, as containerd's CRI log file holds it: each
// line with the stream it came from and its time in nanoseconds, which the
// kubelet reads for `kubectl logs` (tail, since, limit, timestamps, follow).
// Lines are stamped with the writing process's own time (its cursor on the
// cluster Clock), so a fast-forwarded loop logs the same times as one that
// waited. The kubelet rotates a container's log at 10 MiB; KubeTab keeps the
// newest 2 MiB of each instance in memory and drops older lines.

import type { LogOptions } from '../connection';
import { hexDigest } from './hash';

export const LOG_CAP_BYTES = 2 * 1024 * 1024;

export interface LogLine {
  /** Whole milliseconds since the epoch and the nanoseconds within that millisecond. */
  readonly ms: number;
  readonly ns: number;
  readonly stream: 'stdout' | 'stderr';
  /** The text with its newline (a last partial line has none). */
  readonly text: string;
}

const encoder = new TextEncoder();

/** RFC 3339 with nanoseconds as Go's time.RFC3339Nano writes it (trailing zeros trimmed). */
export function rfc3339Nano(ms: number, ns: number): string {
  const base = new Date(ms).toISOString(); // …T12:00:01.234Z
  const fraction = `${base.slice(20, 23)}${String(ns).padStart(6, '0')}`.replace(/0+$/, '');
  return `${base.slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}

export class ContainerLog {
  private readonly lines: LogLine[] = [];
  /** How many lines the cap has dropped from the front (readers keep absolute positions). */
  private dropped = 0;
  private bytes = 0;
  private readonly partial = { stdout: '', stderr: '' };
  private lastMs = -Infinity;
  private lastNs = 0;
  private seq = 0;
  private ended = false;
  private readonly followers = new Set<() => void>();

  constructor(private readonly id: string) {}

  get isEnded(): boolean {
    return this.ended;
  }

  /** Output of the process at its time `atMs`: complete lines are logged, a trailing part waits for its newline. */
  write(stream: 'stdout' | 'stderr', text: string, atMs: number): void {
    if (this.ended || text === '') return;
    let buffer = this.partial[stream] + text;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      this.push(stream, buffer.slice(0, nl + 1), atMs);
      buffer = buffer.slice(nl + 1);
    }
    this.partial[stream] = buffer;
    this.wake();
  }

  /** The process has ended: a partial line is written as it is, and followers finish. */
  end(atMs: number): void {
    if (this.ended) return;
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream]) this.push(stream, this.partial[stream], atMs);
      this.partial[stream] = '';
    }
    this.ended = true;
    this.wake();
  }

  all(): readonly LogLine[] {
    return this.lines;
  }

  private push(stream: 'stdout' | 'stderr', text: string, atMs: number): void {
    const ms = Math.floor(atMs);
    // A deterministic sub-millisecond part, strictly increasing within the log.
    let ns = 1 + (parseInt(hexDigest(`${this.id}:${this.seq++}`, 8), 16) % 999_000);
    if (ms < this.lastMs || (ms === this.lastMs && ns <= this.lastNs)) {
      if (ms <= this.lastMs) ns = Math.min(this.lastNs + 1 + (ns % 997), 999_999);
    }
    const stampMs = Math.max(ms, this.lastMs);
    this.lastMs = stampMs;
    this.lastNs = ns;
    this.lines.push({ ms: stampMs, ns, stream, text });
    this.bytes += text.length;
    while (this.bytes > LOG_CAP_BYTES && this.lines.length > 1) {
      this.bytes -= this.lines.shift()!.text.length;
      this.dropped++;
    }
  }

  private wake(): void {
    for (const f of [...this.followers]) f();
  }

  /** The log as `kubectl logs` reads it, with the options the kubelet applies. */
  read(options: Pick<LogOptions, 'follow' | 'timestamps' | 'tailLines' | 'sinceTimeMs' | 'limitBytes' | 'signal'>): ReadableStream<Uint8Array> {
    const format = (l: LogLine) => (options.timestamps ? `${rfc3339Nano(l.ms, l.ns)} ${l.text}` : l.text);
    const since = options.sinceTimeMs;
    let start = 0;
    if (since !== undefined) {
      while (start < this.lines.length && this.lines[start]!.ms < since) start++;
    }
    if (options.tailLines !== undefined && options.tailLines >= 0) start = Math.max(start, this.lines.length - options.tailLines);
    /** Absolute position of the next line to send. */
    let next = this.dropped + start;
    let remaining = options.limitBytes ?? Infinity;
    let wakeStream: (() => void) | undefined;
    let finished = false;
    const log = this;
    const stop = () => {
      finished = true;
      if (wakeStream) log.followers.delete(wakeStream);
      wakeStream?.();
    };
    return new ReadableStream<Uint8Array>({
      start(controller) {
        options.signal?.addEventListener('abort', () => {
          if (!finished) {
            stop();
            try {
              controller.close();
            } catch {
              // already closed
            }
          }
        }, { once: true });
      },
      async pull(controller) {
        for (;;) {
          if (finished) return;
          next = Math.max(next, log.dropped);
          if (next < log.dropped + log.lines.length) {
            const chunks: string[] = [];
            // A pull hands over what is there (bounded), the stream asks again for more.
            while (next < log.dropped + log.lines.length && chunks.length < 512) {
              const line = log.lines[next++ - log.dropped]!;
              if (since !== undefined && line.ms < since) continue;
              chunks.push(format(line));
            }
            let bytes = encoder.encode(chunks.join(''));
            if (bytes.length >= remaining) {
              bytes = bytes.slice(0, remaining);
              remaining = 0;
            } else remaining -= bytes.length;
            if (bytes.length > 0) controller.enqueue(bytes);
            if (remaining <= 0) {
              stop();
              controller.close();
            }
            return;
          }
          if (!options.follow || log.ended || options.signal?.aborted) {
            stop();
            controller.close();
            return;
          }
          await new Promise<void>((resolve) => {
            wakeStream = () => {
              if (wakeStream) log.followers.delete(wakeStream);
              wakeStream = undefined;
              resolve();
            };
            log.followers.add(wakeStream);
          });
        }
      },
      cancel() {
        stop();
      },
    });
  }
}
