// The utilities: output and exit statuses as a client of the container sees
// them (kubectl logs, kubectl exec).

import { describe, expect, it } from 'vitest';
import { commandExists } from './index';
import { FakeIo } from './testing/fake-io';
import { run, sh } from './testing/run';

describe('date, hostname, uname, id', () => {
  it('prints dates as busybox does, in UTC', async () => {
    const r = await sh('date; date -u +%Y-%m-%dT%H:%M:%SZ; date -I; date -Iseconds; date -R; date +%s; date -d @0 "+%F %T"');
    expect(r.out).toBe(
      'Sat Nov 28 17:42:17 UTC 2026\n2026-11-28T17:42:17Z\n2026-11-28\n2026-11-28T17:42:17+00:00\nSat, 28 Nov 2026 17:42:17 +0000\n' +
        `${Math.floor(r.io.start / 1000)}\n1970-01-01 00:00:00\n`,
    );
  });

  it('pads the day of month with a space', async () => {
    const r = await sh('date', { start: Date.UTC(2026, 0, 5, 3, 4, 5) });
    expect(r.out).toBe('Mon Jan  5 03:04:05 UTC 2026\n');
  });

  it('names the pod and a linux kernel', async () => {
    const r = await sh('hostname; uname; uname -r; uname -m; uname -a', { hostname: 'web-7d9f' });
    expect(r.out).toBe('web-7d9f\nLinux\n6.8.0-kubetab\nx86_64\nLinux web-7d9f 6.8.0-kubetab #1 SMP PREEMPT_DYNAMIC Mon Nov 23 12:00:00 UTC 2026 x86_64 GNU/Linux\n');
  });

  it('is root unless the pod says otherwise', async () => {
    expect((await sh('whoami; id -u')).out).toBe('root\n0\n');
    const r = await sh('id; whoami', { uid: 1000, gid: 3000, groups: [2000] });
    expect(r.out).toBe('uid=1000 gid=3000 groups=3000,2000\n');
    expect(r.err).toBe('whoami: unknown uid 1000\n');
  });
});

describe('environment', () => {
  it('prints the environment', async () => {
    const r = await run(['env'], { env: { A: '1' }, hostname: 'p' });
    expect(r.out).toBe('PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nHOSTNAME=p\nA=1\nHOME=/root\n');
    expect((await run(['printenv', 'A'], { env: { A: '1' } })).out).toBe('1\n');
    expect((await run(['printenv', 'B'])).code).toBe(1);
  });
});

describe('files', () => {
  const files = { '/etc/config/key': 'value-1', '/etc/config/other': 'x\n', '/data/lines': 'one\ntwo\nthree\nfour\n' };

  it('cats files, stdin and numbered lines', async () => {
    expect((await sh('cat /etc/config/key', { files })).out).toBe('value-1');
    expect((await sh('echo piped | cat')).out).toBe('piped\n');
    expect((await sh('cat -n /data/lines', { files })).out).toBe('     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n');
    const missing = await sh('cat /nope; echo $?');
    expect(missing.err).toBe("cat: can't open '/nope': No such file or directory\n");
    expect(missing.out).toBe('1\n');
  });

  it('lists directories', async () => {
    expect((await sh('ls /etc/config', { files })).out).toBe('key\nother\n');
    expect((await sh('ls -a /etc/config', { files })).out).toBe('.\n..\nkey\nother\n');
    const long = await sh('ls -l /etc/config', { files });
    expect(long.out).toBe('total 8\n-rw-r--r--    1 root     root             7 Nov 28 17:42 key\n-rw-r--r--    1 root     root             2 Nov 28 17:42 other\n');
  });

  it('makes, touches, copies, moves and removes', async () => {
    const r = await sh('mkdir -p /work/a/b && touch /work/a/b/f && echo hi > /work/x && cp /work/x /work/a/ && mv /work/x /work/y && ls /work /work/a && rm -r /work/a && ls /work; mkdir /work/q/r; rm /nope; rm -f /nope; echo $?');
    expect(r.out).toBe('/work:\na\ny\n\n/work/a:\nb\nx\ny\n0\n');
    expect(r.err).toBe("mkdir: can't create directory '/work/q/r': No such file or directory\nrm: can't remove '/nope': No such file or directory\n");
  });

  it('heads and tails', async () => {
    expect((await sh('head -n 2 /data/lines; tail -n 1 /data/lines; tail -n +3 /data/lines; head -1 /data/lines', { files })).out).toBe('one\ntwo\nfour\nthree\nfour\none\n');
  });

  it('follows a file with tail -f until signalled', async () => {
    const io = new FakeIo({ files: { '/var/log/app.log': 'start\n' }, signals: [{ at: 10_500, signal: 'SIGTERM' }] });
    const { runCommand } = await import('./index');
    const done = runCommand(['sh', '-c', '(sleep 3; echo more >> /var/log/app.log) & tail -f /var/log/app.log'], io);
    const { code } = await done;
    expect(io.timedLines()).toEqual([
      { at: 0, line: 'start' },
      { at: 3000, line: 'more' },
    ]);
    expect(code).toBe(143);
  });
});

describe('text filters', () => {
  it('counts with wc', async () => {
    expect((await sh('printf "a b\\nc\\n" | wc -l')).out).toBe('2\n');
    expect((await sh('printf "a b\\nc\\n" | wc')).out).toBe('        2         3         6\n');
    expect((await sh('wc -c /etc/f', { files: { '/etc/f': 'abc' } })).out).toBe('3 /etc/f\n');
  });

  it('greps', async () => {
    const input = 'printf "Apple\\nbanana\\ncherry\\n" | ';
    expect((await sh(input + 'grep an')).out).toBe('banana\n');
    expect((await sh(input + 'grep -i apple')).out).toBe('Apple\n');
    expect((await sh(input + 'grep -v an')).out).toBe('Apple\ncherry\n');
    expect((await sh(input + 'grep -c a')).out).toBe('1\n');
    expect((await sh(input + 'grep -E "^(b|c)"')).out).toBe('banana\ncherry\n');
    expect((await sh(input + 'grep -n "rr"')).out).toBe('3:cherry\n');
    const quiet = await sh(input + 'grep -q zzz; echo $?; ' + input + 'grep -q an; echo $?');
    expect(quiet.out).toBe('1\n0\n');
  });

  it('cuts, translates and edits with sed', async () => {
    expect((await sh('echo a:b:c | cut -d: -f2,3')).out).toBe('b:c\n');
    expect((await sh('echo hello | cut -c1-3')).out).toBe('hel\n');
    expect((await sh('echo hello | tr a-z A-Z; echo hello | tr -d l; echo aaabbb | tr -s ab')).out).toBe('HELLO\nheo\nab\n');
    expect((await sh("echo 'hello world' | sed 's/o/0/g'; echo abc | sed 's/\\(b\\)/[\\1]/'; printf '1\\n2\\n3\\n' | sed -n '2p'; printf '1\\n2\\n3\\n' | sed '1d'")).out).toBe(
      'hell0 w0rld\na[b]c\n2\n2\n3\n',
    );
  });

  it('sorts and removes duplicates', async () => {
    expect((await sh('printf "10\\n9\\n100\\n" | sort -n; printf "b\\na\\nb\\n" | sort -u; printf "a\\na\\nb\\n" | uniq')).out).toBe('9\n10\n100\na\nb\na\nb\n');
  });
});

describe('shell utilities', () => {
  it('prints with echo -n/-e and printf', async () => {
    expect((await sh('echo -n a; echo -e "b\\tc"; echo "d\\ne"')).out).toBe('ab\tc\nd\\ne\n');
    expect((await sh('printf "%s=%d %5.2f %x %-3s| %03d %%\\n" n 42 3.14159 255 ab 7')).out).toBe('n=42  3.14 ff ab | 007 %\n');
    expect((await sh('printf "%s\\n" a b c')).out).toBe('a\nb\nc\n');
  });

  it('tests strings, numbers and files', async () => {
    const r = await sh(
      '[ a = a ] && echo 1; [ -n "" ] || echo 2; [ 3 -gt 2 ] && echo 3; test -f /etc/f && echo 4; [ -d /etc ] && echo 5; [ -e /nope ] || echo 6; [[ abc == a* ]] && echo 7; [ ! -z x ] && echo 8; [ 1 -eq 1 -a 2 -eq 3 ] || echo 9',
      { files: { '/etc/f': '' } },
    );
    expect(r.out).toBe('1\n2\n3\n4\n5\n6\n7\n8\n9\n');
    const bad = await sh('[ x -eq 1 ]; echo $?; [ a = b');
    expect(bad.err).toBe('sh: x: bad number\nsh: missing ]\n');
    expect(bad.out).toBe('2\n');
  });

  it('computes with expr and seq', async () => {
    expect((await sh('expr 2 + 3 \\* 4; expr length hello; expr abc : "a\\(.\\)"; seq 3; seq 2 2 6; seq -s, 3')).out).toBe('14\n5\nb\n1\n2\n3\n2\n4\n6\n1,2,3\n');
  });

  it('reads lines with read', async () => {
    const r = await sh('read a b; echo "[$a][$b]"; read line; echo "[$line]"; read x || echo eof', { stdin: ['one two three\n', 'second line\n'] });
    expect(r.out).toBe('[one][two three]\n[second line]\neof\n');
  });

  it('finds commands with command -v and which', async () => {
    const r = await sh('command -v ls; command -v cd; which sleep; command -v nope || echo none; type echo');
    expect(r.out).toBe('/bin/ls\ncd\n/bin/sleep\nnone\necho is a shell builtin\n');
  });
});

describe('servers', () => {
  it('listens with nc until signalled', async () => {
    const r = await sh('nc -lk -p 8080', { signals: [{ at: 60_000, signal: 'SIGTERM' }] });
    expect(r.io.listening).toEqual([8080]);
    expect(r.code).toBe(143);
    expect(r.io.elapsed()).toBe(60_000);
  });

  it('reports memory and CPU with stress, and ends at its timeout', async () => {
    const r = await run(['stress', '--vm', '1', '--vm-bytes', '150M', '--vm-hang', '1', '--cpu', '2', '--timeout', '10s'], { pid1: true });
    expect(r.io.memoryHistory).toEqual([
      { at: 0, bytes: 150 * 1024 * 1024 },
      { at: 10_000, bytes: 0 },
    ]);
    expect(r.out).toBe('stress: info: [1] dispatching hogs: 2 cpu, 0 io, 1 vm, 0 hdd\nstress: info: [1] successful run completed in 10s\n');
    expect(r.code).toBe(0);
  });

  it('holds stress memory until killed', async () => {
    const r = await run(['stress', '--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'], { pid1: true, signals: [{ at: 5_000, signal: 'SIGKILL' }] });
    expect(r.io.memoryHistory[0]).toEqual({ at: 0, bytes: 250 * 1024 * 1024 });
    expect(r.code).toBe(137);
  });
});

describe('commandExists', () => {
  it('knows shells, utilities, programs and files', () => {
    const io = new FakeIo({ files: { '/docker-entrypoint.sh': '#!/bin/sh\n' }, programs: { nginx: async () => 0 } });
    expect(commandExists('sh')).toBe(true);
    expect(commandExists('/bin/bash')).toBe(true);
    expect(commandExists('sleep')).toBe(true);
    expect(commandExists('/usr/bin/env')).toBe(true);
    expect(commandExists('nginx', io)).toBe(true);
    expect(commandExists('/docker-entrypoint.sh', io)).toBe(true);
    expect(commandExists('nginx')).toBe(false);
    expect(commandExists('/app/missing')).toBe(false);
    expect(commandExists('cd')).toBe(false);
  });
});

describe('tar (kubectl cp)', () => {
  it('archives a file and a directory to standard output, as `kubectl cp pod:/path` asks, and lists them back', async () => {
    const files = { '/data/a.txt': 'alpha\n', '/data/sub/b.txt': 'ünïcode\n', '/etc/motd': 'hi\n' };
    const created = await run(['tar', 'cf', '-', '/data', 'etc/motd'], { files, cwd: '/' });
    expect(created.code).toBe(0);
    expect(created.err).toBe("tar: removing leading '/' from member names\n");
    const bytes = new TextEncoder().encode(created.out);
    expect(bytes.length % 512).toBe(0);
    expect(new TextDecoder().decode(bytes.subarray(257, 262))).toBe('ustar');
    const listed = await run(['tar', '-tf', '-'], { stdin: [created.out] });
    expect(listed.out).toBe('data/\ndata/a.txt\ndata/sub/\ndata/sub/b.txt\netc/motd\n');
  });

  it('extracts standard input under -C, as `kubectl cp FILE pod:/dir/` sends it, making the directories', async () => {
    const archive = (await run(['tar', 'cf', '-', 'data'], { files: { '/src/data/a.txt': 'alpha\n', '/src/data/sub/b.txt': 'ünïcode\n' }, cwd: '/src' })).out;
    const extracted = await run(['tar', '-xmf', '-', '-C', '/tmp'], { stdin: [archive], directories: ['/tmp'] });
    expect(extracted.code).toBe(0);
    expect(extracted.io.fs.read('/tmp/data/a.txt')).toBe('alpha\n');
    expect(extracted.io.fs.read('/tmp/data/sub/b.txt')).toBe('ünïcode\n');
  });

  it('reports a missing member and a missing directory as busybox does', async () => {
    const missing = await run(['tar', 'cf', '-', '/nope']);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe('tar: /nope: No such file or directory\ntar: error exit delayed from previous errors\n');
    const noDir = await run(['tar', '-xf', '-', '-C', '/missing'], { stdin: [''] });
    expect(noDir.code).toBe(1);
    expect(noDir.err).toBe("tar: can't change directory to '/missing': No such file or directory\n");
  });
});
