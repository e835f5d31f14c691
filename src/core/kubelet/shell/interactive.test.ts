// Interactive shells: the line discipline on its own, and a terminal session
// as `kubectl exec -it pod -- sh` drives it (typed bytes in, echo and
// output out with '\r\n').

import { describe, expect, it } from 'vitest';
import { LineDiscipline, runInteractive, startTerminalSession } from './index';
import { FakeIo } from './testing/fake-io';

function discipline(): { d: LineDiscipline; echo: string[]; lines: string[]; events: string[] } {
  const echo: string[] = [];
  const lines: string[] = [];
  const events: string[] = [];
  const d = new LineDiscipline({
    echo: (text) => echo.push(text),
    line: (text) => lines.push(text),
    interrupt: (signal) => events.push(signal),
    endOfInput: () => events.push('EOF'),
  });
  return { d, echo, lines, events };
}

/** Lets the session run until it waits for input or time (no real time passes). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('line discipline', () => {
  it('echoes, erases and hands over lines', () => {
    const { d, echo, lines } = discipline();
    d.input('ecx\x7fho hi\r');
    expect(echo.join('')).toBe('ecx\b \bho hi\r\n');
    expect(lines).toEqual(['echo hi\n']);
  });

  it('kills the line with Ctrl-U and a word with Ctrl-W', () => {
    const { d, lines } = discipline();
    d.input('abc\x15ls -l /tm\x17/etc\r');
    expect(lines).toEqual(['ls -l /etc\n']);
  });

  it('interrupts with Ctrl-C, drops the line, and ends input with Ctrl-D on an empty line', () => {
    const { d, echo, lines, events } = discipline();
    d.input(new TextEncoder().encode('sleep 9\x03\x04'));
    expect(echo.join('')).toBe('sleep 9^C');
    expect(lines).toEqual([]);
    expect(events).toEqual(['INT', 'EOF']);
  });

  it('ignores arrow keys', () => {
    const { d, lines } = discipline();
    d.input('a\x1b[Db\x1bOA\r');
    expect(lines).toEqual(['ab\n']);
  });
});

describe('terminal session', () => {
  it('prompts, echoes and runs lines, and ends with exit', async () => {
    const io = new FakeIo({ hostname: 'nginx-1' });
    const session = startTerminalSession(['sh'], io);
    await settle();
    session.input('hostname\r');
    await settle();
    session.input('echo "a\r');
    await settle();
    session.input('b"\r');
    await settle();
    session.input('exit 3\r');
    expect((await session.done).code).toBe(3);
    expect(io.output()).toBe('# hostname\r\nnginx-1\r\n# echo "a\r\n> b"\r\na\r\nb\r\n# exit 3\r\n');
  });

  it('interrupts a running command with Ctrl-C and prompts again', async () => {
    const io = new FakeIo({ manualTime: true });
    const session = startTerminalSession(['sh'], io);
    await settle();
    session.input('sleep 1000\r');
    await settle();
    await io.advance(2_000);
    session.input('\x03');
    await settle();
    session.input('echo $?\r');
    await settle();
    session.input('\x04');
    expect((await session.done).code).toBe(0);
    expect(io.output()).toBe('# sleep 1000\r\n^C\r\n# echo $?\r\n130\r\n# \r\n');
    expect(io.elapsed()).toBe(2_000);
  });

  it('drops a half-typed line on Ctrl-C at the prompt', async () => {
    const io = new FakeIo();
    const session = startTerminalSession(['/bin/sh'], io);
    await settle();
    session.input('echo never\x03');
    await settle();
    session.input('exit\r');
    expect((await session.done).code).toBe(130);
    expect(io.output()).toBe('# echo never^C\r\n# exit\r\n');
  });

  it('uses PS1 when the container sets it', async () => {
    const io = new FakeIo({ env: { PS1: '\\u@\\h:\\w\\$ ' }, hostname: 'box', cwd: '/tmp' });
    const session = startTerminalSession(['sh'], io);
    await settle();
    session.input('exit\r');
    await session.done;
    expect(io.output()).toBe('root@box:/tmp# exit\r\n');
  });

  it('reports errors and goes on', async () => {
    const io = new FakeIo();
    const session = startTerminalSession(['sh'], io);
    await settle();
    session.input('nope\r');
    await settle();
    session.input('fi\r');
    await settle();
    session.input('exit\r');
    expect((await session.done).code).toBe(2);
    expect(io.output()).toBe('# nope\r\nsh: nope: not found\r\n# fi\r\nsh: syntax error: unexpected "fi"\r\n# exit\r\n');
  });
});

describe('runInteractive', () => {
  it('reads lines from stdin until its end', async () => {
    const io = new FakeIo({ stdin: ['echo one\n', 'X=2\n', 'echo $X\n'] });
    const { code } = await runInteractive(io);
    expect(code).toBe(0);
    expect(io.output('both')).toBe('# one\n# # 2\n# \n');
  });
});
