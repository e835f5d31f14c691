// A command's standard streams inside the shell: where its output goes (the
// container's log, a file, a pipe to the next command, the text of a
// `$(…)`), and where its input comes from (the process's stdin, a file, a
// pipe, a here-document). Pipes have a capacity as Linux's do (64 KiB), so
// `yes | head -n 3` ends: `yes` waits while the pipe is full and dies of
// SIGPIPE once `head` has gone.

import { BrokenPipe } from './errors';

export interface OutputStream {
  /** Resolves once the text is taken (a full pipe makes the writer wait); throws BrokenPipe when no reader is left. */
  write(text: string): Promise<void>;
  /** The writing command is done with the stream (a pipe's reader sees its end). */
  close(): void;
}

/** A chunk source: the next piece of input, or null at its end. */
export type ChunkSource = () => Promise<string | null>;

/** Buffered input with the reads commands need: chunks, lines, everything. */
export class InputStream {
  private buffer = '';
  private ended = false;

  constructor(
    private readonly source: ChunkSource,
    private readonly onClose: () => void = () => {},
  ) {}

  static of(text: string): InputStream {
    let given = false;
    return new InputStream(async () => {
      if (given) return null;
      given = true;
      return text;
    });
  }

  static empty(): InputStream {
    return new InputStream(async () => null);
  }

  /** The next chunk of input (what is buffered first), or null at the end. */
  async read(): Promise<string | null> {
    if (this.buffer) {
      const chunk = this.buffer;
      this.buffer = '';
      return chunk;
    }
    if (this.ended) return null;
    const chunk = await this.source();
    if (chunk === null) this.ended = true;
    return chunk;
  }

  /** The next line without its newline; the last unterminated line; null at the end. */
  async readLine(): Promise<string | null> {
    for (;;) {
      const newline = this.buffer.indexOf('\n');
      if (newline >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        return line;
      }
      if (this.ended) {
        if (!this.buffer) return null;
        const line = this.buffer;
        this.buffer = '';
        return line;
      }
      const chunk = await this.source();
      if (chunk === null) this.ended = true;
      else this.buffer += chunk;
    }
  }

  /** Whether the last readLine's line ended with a newline is not tracked; this reads all that is left. */
  async readAll(): Promise<string> {
    let text = '';
    for (;;) {
      const chunk = await this.read();
      if (chunk === null) return text;
      text += chunk;
    }
  }

  /** Gives back text read too far (a `read` builtin reading a chunk holding several lines). */
  unread(text: string): void {
    this.buffer = text + this.buffer;
  }

  /** The reading command is done: a pipe's writer gets SIGPIPE from now on. */
  close(): void {
    this.onClose();
  }
}

/** An output that collects text (the standard output of a `$(…)`). */
export class CaptureStream implements OutputStream {
  text = '';
  async write(text: string): Promise<void> {
    this.text += text;
  }
  close(): void {}
}

/** An output that hands text to a synchronous sink (the container's log, a file). */
export class SinkStream implements OutputStream {
  constructor(private readonly sink: (text: string) => void) {}
  async write(text: string): Promise<void> {
    if (text) this.sink(text);
  }
  close(): void {}
}

export const NULL_OUTPUT: OutputStream = {
  async write(): Promise<void> {},
  close(): void {},
};

const PIPE_CAPACITY = 65_536;

/** A pipe between two commands of a pipeline. */
export class Pipe {
  private chunks: string[] = [];
  private size = 0;
  private writerClosed = false;
  private readerClosed = false;
  private wakeReader: (() => void) | undefined;
  private wakeWriters: (() => void)[] = [];

  readonly output: OutputStream = {
    write: (text) => this.write(text),
    close: () => {
      this.writerClosed = true;
      this.wake();
    },
  };

  readonly input = new InputStream(
    () => this.read(),
    () => {
      this.readerClosed = true;
      this.chunks = [];
      this.size = 0;
      this.wake();
    },
  );

  private async write(text: string): Promise<void> {
    if (!text) return;
    while (!this.readerClosed && this.size >= PIPE_CAPACITY) {
      await new Promise<void>((resolve) => this.wakeWriters.push(resolve));
    }
    if (this.readerClosed) throw new BrokenPipe();
    this.chunks.push(text);
    this.size += text.length;
    this.wake();
  }

  private async read(): Promise<string | null> {
    while (this.chunks.length === 0 && !this.writerClosed) {
      await new Promise<void>((resolve) => (this.wakeReader = resolve));
    }
    if (this.chunks.length === 0) return null;
    const text = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    this.wake();
    return text;
  }

  private wake(): void {
    const reader = this.wakeReader;
    this.wakeReader = undefined;
    reader?.();
    const writers = this.wakeWriters;
    this.wakeWriters = [];
    for (const writer of writers) writer();
  }
}
