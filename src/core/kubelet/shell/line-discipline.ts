// A terminal's line discipline in canonical mode, as the kernel's tty does
// for `kubectl exec -it`: it takes the raw bytes the client sends and gives
// back complete lines for the process, plus the echo to show. Printable
// characters echo; Backspace/DEL erases (`\b \b`); Enter ends the line
// (`\r\n`); Ctrl-U kills the line and Ctrl-W a word; Ctrl-C echoes `^C`,
// drops the line and interrupts (SIGINT); Ctrl-\ quits (SIGQUIT); Ctrl-D on
// an empty line is the end of input, elsewhere it hands over the line typed
// so far. Escape sequences (arrow keys) are ignored.

export interface LineDisciplineEvents {
  /** Text to write back to the terminal. */
  echo(text: string): void;
  /** A complete line (with its '\n'), or a partial one handed over by Ctrl-D. */
  line(text: string): void;
  /** Ctrl-C (INT) or Ctrl-\ (QUIT): the foreground process group is signalled. */
  interrupt(signal: 'INT' | 'QUIT'): void;
  /** Ctrl-D on an empty line. */
  endOfInput(): void;
}

export class LineDiscipline {
  private current = '';
  private readonly decoder = new TextDecoder('utf-8');
  /** Inside an escape sequence: 'esc' after ESC, 'csi' after ESC [, 'ss3' after ESC O. */
  private escape: '' | 'esc' | 'csi' | 'ss3' = '';

  constructor(private readonly events: LineDisciplineEvents) {}

  /** The line typed so far (not yet handed over). */
  get pending(): string {
    return this.current;
  }

  input(data: Uint8Array | string): void {
    const text = typeof data === 'string' ? data : this.decoder.decode(data, { stream: true });
    for (const c of text) this.character(c);
  }

  private character(c: string): void {
    if (this.escape === 'esc') {
      this.escape = c === '[' ? 'csi' : c === 'O' ? 'ss3' : '';
      return;
    }
    if (this.escape === 'csi') {
      // Parameters and intermediates until a final byte (@ to ~).
      if (c >= '@' && c <= '~') this.escape = '';
      return;
    }
    if (this.escape === 'ss3') {
      this.escape = '';
      return;
    }
    switch (c) {
      case '\x1b':
        this.escape = 'esc';
        return;
      case '\x03':
        this.current = '';
        this.events.echo('^C');
        this.events.interrupt('INT');
        return;
      case '\x1c':
        this.current = '';
        this.events.echo('^\\');
        this.events.interrupt('QUIT');
        return;
      case '\x04':
        if (this.current === '') this.events.endOfInput();
        else {
          const line = this.current;
          this.current = '';
          this.events.line(line);
        }
        return;
      case '\x7f':
      case '\b': {
        if (this.current === '') return;
        const chars = [...this.current];
        chars.pop();
        this.current = chars.join('');
        this.events.echo('\b \b');
        return;
      }
      case '\x15':
        this.events.echo('\b \b'.repeat([...this.current].length));
        this.current = '';
        return;
      case '\x17': {
        const kept = this.current.replace(/\S+\s*$/, '');
        this.events.echo('\b \b'.repeat([...this.current].length - [...kept].length));
        this.current = kept;
        return;
      }
      case '\r':
      case '\n': {
        const line = this.current + '\n';
        this.current = '';
        this.events.echo('\r\n');
        this.events.line(line);
        return;
      }
      case '\t':
        this.current += c;
        this.events.echo(c);
        return;
      default:
        // Other control characters (Ctrl-Z without job control, Ctrl-L, …) are not typed.
        if (c < ' ') return;
        this.current += c;
        this.events.echo(c);
    }
  }
}

/** A terminal's output processing (ONLCR): '\n' goes out as '\r\n'. */
export function terminalOutput(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
