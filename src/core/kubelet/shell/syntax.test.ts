// The shell language: quoting, expansions, lists, pipelines, redirections,
// compound commands, functions and exit statuses, through `sh -c`.

import { describe, expect, it } from 'vitest';
import { run, sh } from './testing/run';

describe('words and quoting', () => {
  it('keeps quoted text whole and splits unquoted expansions', async () => {
    const r = await sh(`X='a  b'; printf '[%s]' $X "$X" 'it''s' "q\\"q" a\\ b; echo`);
    expect(r.out).toBe('[a][b][a  b][its][q"q][a b]\n');
  });

  it('expands parameters and their operators', async () => {
    const r = await sh('A=hello; E=; echo ${A} ${#A} ${U:-dflt} ${E:-empty} ${E-set} ${A:+alt} ${N:=new} $N ${A#he} ${A%lo} ${A/l/L} ${A//l/L} ${A:1:3}');
    // E is set (empty): ${E-set} is empty and makes no field.
    expect(r.out).toBe('hello 5 dflt empty alt new new llo hel heLlo heLLo ell\n');
  });

  it('gives the special parameters', async () => {
    const r = await run(['sh', '-c', 'echo "$0|$#|$1|$2|$@|$*"; false; echo $?; echo $$', 'name', 'one', 'two'], { pid1: true });
    expect(r.out).toBe('name|2|one|two|one two|one two\n1\n1\n');
  });

  it('expands "$@" into one field per parameter', async () => {
    const r = await run(['sh', '-c', 'for a in "$@"; do echo "<$a>"; done; set --; for a in "$@"; do echo never; done', 'sh', 'a b', 'c']);
    expect(r.out).toBe('<a b>\n<c>\n');
  });

  it('substitutes commands with $( ) and backticks, and evaluates $(( ))', async () => {
    const r = await sh('X=$(echo one; echo two); Y=`echo three`; echo "$X" $Y $(( (2+3)*4 % 7 )) $((1<<4)) $((10/3)) $((-7/2))');
    expect(r.out).toBe('one\ntwo three 6 16 3 -3\n');
  });

  it('expands ${VAR:?} into an error that ends the script', async () => {
    const r = await sh('echo before; echo ${MISSING:?is required}; echo after');
    expect(r.out).toBe('before\n');
    expect(r.err).toBe('sh: MISSING: is required\n');
    expect(r.code).toBe(2);
  });

  it('reports division by zero', async () => {
    const r = await sh('echo $((1/0))');
    expect(r.err).toBe('sh: divide by zero\n');
    expect(r.code).toBe(2);
  });

  it('ignores comments and joins continued lines', async () => {
    const r = await sh('echo a # not this\necho b \\\n  c');
    expect(r.out).toBe('a\nb c\n');
  });

  it('expands globs against the container files', async () => {
    const r = await sh('echo /etc/config/*; echo /nomatch/*', { files: { '/etc/config/b': '2', '/etc/config/a': '1' } });
    expect(r.out).toBe('/etc/config/a /etc/config/b\n/nomatch/*\n');
  });

  it('applies ~ and $HOME', async () => {
    const r = await sh('echo ~ $HOME');
    expect(r.out).toBe('/root /root\n');
  });
});

describe('lists and pipelines', () => {
  it('runs ; && || and !', async () => {
    const r = await sh('true && echo yes; false && echo never; false || echo no; ! false && echo negated; true || echo never');
    expect(r.out).toBe('yes\nno\nnegated\n');
  });

  it('pipes output between commands', async () => {
    const r = await sh('printf "b\\na\\nc\\na\\n" | sort | uniq -c | sort -r | head -n 1');
    expect(r.out).toBe('      2 a\n');
  });

  it('has the status of the last command of a pipeline', async () => {
    const r = await sh('false | true; echo $?; true | false; echo $?');
    expect(r.out).toBe('0\n1\n');
  });

  it('ends an endless writer when its reader is done', async () => {
    const r = await sh('yes | head -n 3; echo done');
    expect(r.out).toBe('y\ny\ny\ndone\n');
  });

  it('runs pipeline members in subshells', async () => {
    const r = await sh('X=1; echo 2 | read X; echo $X');
    expect(r.out).toBe('1\n');
  });
});

describe('redirections', () => {
  it('writes, appends and reads files', async () => {
    const r = await sh('echo one > /tmp/f; echo two >> /tmp/f; cat < /tmp/f; wc -l < /tmp/f');
    expect(r.out).toBe('one\ntwo\n2\n');
    expect(r.io.fs.read('/tmp/f')).toBe('one\ntwo\n');
  });

  it('duplicates and discards streams', async () => {
    const r = await sh('ls /missing 2>&1; ls /missing 2>/dev/null; echo out >/dev/null; echo err >&2');
    expect(r.out).toBe('ls: /missing: No such file or directory\n');
    expect(r.err).toBe('err\n');
  });

  it('reports a file it cannot create', async () => {
    const r = await sh('echo x > /etc/config/key; echo $?', { files: { '/etc/config/key': 'v' }, readOnly: ['/etc/config'] });
    expect(r.err).toBe("sh: can't create /etc/config/key: Read-only file system\n");
    expect(r.out).toBe('1\n');
  });

  it('reads here-documents, expanded unless the delimiter is quoted', async () => {
    const r = await sh("N=world\ncat <<EOF\nhello $N\nEOF\ncat <<'EOF'\nhello $N\nEOF\ncat <<-END\n\tindented\n\tEND");
    expect(r.out).toBe('hello world\nhello $N\nindented\n');
  });

  it('makes exec redirections permanent', async () => {
    const r = await sh('exec >/tmp/log 2>&1; echo into-log; ls /nope');
    expect(r.out).toBe('');
    expect(r.io.fs.read('/tmp/log')).toBe('into-log\nls: /nope: No such file or directory\n');
  });

  it('writes to the container log through /proc/1/fd/1', async () => {
    const r = await sh('echo to-log > /proc/1/fd/1');
    expect(r.out).toBe('to-log\n');
  });
});

describe('variables and environment', () => {
  it('exports variables to commands and gives a command its own assignments', async () => {
    const r = await sh('A=1; export B=2; C=3 printenv C; printenv A; echo $?; printenv B; echo ${C:-unset}');
    expect(r.out).toBe('3\n1\n2\nunset\n');
  });

  it('has the container environment, HOSTNAME and PATH', async () => {
    const r = await sh('echo $HOSTNAME $GREETING; echo $PATH', { env: { GREETING: 'hi' }, hostname: 'web-0' });
    expect(r.out).toBe('web-0 hi\n/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n');
  });

  it('unsets, shifts and sets positional parameters', async () => {
    const r = await sh('X=1; unset X; echo "[$X]"; set -- a b c; shift; echo $# $1; shift 2; echo $#');
    expect(r.out).toBe('[]\n2 b\n0\n');
  });
});

describe('compound commands', () => {
  it('runs if / elif / else', async () => {
    const r = await sh('for n in 1 2 3; do if [ $n -eq 1 ]; then echo one; elif [ $n = 2 ]; then echo two; else echo other; fi; done');
    expect(r.out).toBe('one\ntwo\nother\n');
  });

  it('runs while and until with break and continue', async () => {
    const r = await sh('i=0; while true; do i=$((i+1)); [ $i -eq 2 ] && continue; [ $i -gt 4 ] && break; echo $i; done; until [ $i -eq 0 ]; do i=$((i-1)); done; echo end $i');
    expect(r.out).toBe('1\n3\n4\nend 0\n');
  });

  it('runs for over words, and over the positional parameters', async () => {
    const r = await run(['sh', '-c', 'for x in a "b c"; do echo $x; done; for p; do echo p=$p; done', 'sh', '1', '2']);
    expect(r.out).toBe('a\nb c\np=1\np=2\n');
  });

  it('breaks out of nested loops', async () => {
    const r = await sh('for a in 1 2; do for b in 1 2; do echo $a$b; break 2; done; done; echo after');
    expect(r.out).toBe('11\nafter\n');
  });

  it('matches case patterns', async () => {
    const r = await sh('for w in apple Banana 42 x.txt; do case $w in a*) echo A;; [A-Z]*) echo upper;; [0-9]|[0-9][0-9]) echo num;; *.txt|*.md) echo doc;; esac; done');
    expect(r.out).toBe('A\nupper\nnum\ndoc\n');
  });

  it('groups in the shell and isolates subshells', async () => {
    const r = await sh('X=1; { X=2; echo in-group; }; echo $X; (X=3; echo in-sub $X); echo $X; (exit 4); echo $?');
    expect(r.out).toBe('in-group\n2\nin-sub 3\n2\n4\n');
  });

  it('defines and calls functions with return and local', async () => {
    const r = await sh('greet() { local who=$1; echo "hello $who"; return 3; }; who=outer; greet you; echo $? $who; function f { echo $#; }; f a b');
    expect(r.out).toBe('hello you\n3 outer\n2\n');
  });

  it('redirects a whole loop', async () => {
    const r = await sh('printf "a\\nb\\n" > /tmp/in; while read line; do echo "got $line"; done < /tmp/in > /tmp/out; cat /tmp/out');
    expect(r.out).toBe('got a\ngot b\n');
  });
});

describe('exit statuses and errors', () => {
  it('ends with exit N, modulo 256', async () => {
    expect((await sh('exit 3')).code).toBe(3);
    expect((await sh('exit 257')).code).toBe(1);
    expect((await sh('false')).code).toBe(1);
    expect((await sh('true; echo x')).code).toBe(0);
  });

  it('reports an unknown command with 127', async () => {
    const r = await sh('foo bar; echo $?');
    expect(r.err).toBe('sh: foo: not found\n');
    expect(r.out).toBe('127\n');
  });

  it('reports a syntax error with 2, running nothing', async () => {
    const r = await sh('echo hi; done');
    expect(r.err).toBe('sh: syntax error: unexpected "done"\n');
    expect(r.out).toBe('');
    expect(r.code).toBe(2);
    expect((await sh('if true; then echo')).err).toBe('sh: syntax error: unexpected end of file (expecting "fi")\n');
    expect((await sh("echo 'open")).err).toBe('sh: syntax error: unterminated quoted string\n');
  });

  it('stops at the first failure under set -e', async () => {
    const r = await sh('set -e; false || true; if false; then :; fi; echo reached; false; echo never');
    expect(r.out).toBe('reached\n');
    expect(r.code).toBe(1);
  });

  it('traces commands under set -x', async () => {
    const r = await sh('set -x; X="a b"; echo $X');
    expect(r.err).toBe("+ X='a b'\n+ echo a b\n");
  });

  it('runs the EXIT trap at the end', async () => {
    const r = await sh("trap 'echo cleanup' EXIT; echo work; exit 5");
    expect(r.out).toBe('work\ncleanup\n');
    expect(r.code).toBe(5);
  });

  it('reports a builtin error as busybox ash does', async () => {
    const r = await sh('cd /nowhere; echo $?');
    expect(r.err).toBe("sh: cd: line 1: can't cd to /nowhere: No such file or directory\n");
    expect(r.out).toBe('2\n');
  });
});

describe('entry points', () => {
  it('runs a script file, with its name in messages', async () => {
    const r = await run(['sh', '/scripts/run.sh', 'arg'], { files: { '/scripts/run.sh': '#!/bin/sh\necho "$0 $1"\nnope\n' } });
    expect(r.out).toBe('/scripts/run.sh arg\n');
    expect(r.err).toBe('/scripts/run.sh: line 3: nope: not found\n');
    expect(r.code).toBe(127);
  });

  it('runs a program directly, without expansion', async () => {
    const r = await run(['echo', '$HOME', '*']);
    expect(r.out).toBe('$HOME *\n');
  });

  it('runs an executable script given as the command', async () => {
    const r = await run(['/app/start.sh'], { files: { '/app/start.sh': '#!/bin/sh\necho started $#\n' } });
    expect(r.out).toBe('started 0\n');
  });

  it('accepts bash, /bin/sh and busybox sh', async () => {
    for (const argv of [['bash', '-c', 'echo ok'], ['/bin/sh', '-c', 'echo ok'], ['busybox', 'sh', '-c', 'echo ok'], ['/bin/ash', '-ec', 'echo ok']]) {
      expect((await run(argv)).out).toBe('ok\n');
    }
  });

  it('runs programs the runtime provides', async () => {
    const r = await sh('nginx -g "daemon off;"; echo $?', {
      programs: {
        nginx: async (args, io) => {
          io.stdout(`nginx ${args.join('|')} ${io.env['HOSTNAME']}\n`);
          return 0;
        },
      },
    });
    expect(r.out).toBe('nginx -g|daemon off; test-pod\n0\n');
  });
});
