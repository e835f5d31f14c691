// The utilities the shell finds by name (as if on PATH): what a busybox or
// Debian image offers for the usual tutorial commands. The runtime's own
// programs (ShellIO.programs) are looked up first and may replace any of them.

import type { Utility } from '../command';
import { basename, dirname, echo, env, falseCommand, hostname, id, printenv, seq, sleep, tee, trueCommand, uname, whoami, yes } from './basic';
import { date } from './date';
import { expr } from './expr';
import { cat, cp, head, ls, mkdir, mv, rm, tail, touch } from './files';
import { printf } from './printf';
import { nc, stress } from './servers';
import { cut, grep, sed, sort, tr, uniq, wc } from './text';
import { test } from './test';
import { tar } from './tar';
import { busybox, shellUtility, which } from '../launch';

export const UTILITIES: Readonly<Record<string, Utility>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, Utility>, {
    basename,
    busybox,
    cat,
    cp,
    cut,
    date,
    dirname,
    echo,
    egrep: (ctx: Parameters<Utility>[0]) => grep({ ...ctx, args: ['-E', ...ctx.args] }),
    env,
    expr,
    false: falseCommand,
    fgrep: (ctx: Parameters<Utility>[0]) => grep({ ...ctx, args: ['-F', ...ctx.args] }),
    grep,
    head,
    hostname,
    id,
    ls,
    mkdir,
    mv,
    nc,
    printenv,
    printf,
    rm,
    sed,
    seq,
    sleep,
    sort,
    stress,
    tail,
    tar,
    tee,
    test,
    '[': test,
    '[[': test,
    touch,
    tr,
    true: trueCommand,
    uname,
    uniq,
    wc,
    which,
    whoami,
    yes,
    sh: shellUtility,
    ash: shellUtility,
    bash: shellUtility,
    dash: shellUtility,
  }),
);

const BIN_DIRECTORIES = new Set(['/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin']);

/** Whether a path is in one of the directories of PATH (where `/bin/sleep` finds the sleep utility). */
export function isBinDirectory(path: string): boolean {
  return BIN_DIRECTORIES.has(path.slice(0, path.lastIndexOf('/')) || '/');
}
