// Reloads of --authorization-config and --authentication-config under Node,
// as kube-apiserver's filesystem.WatchUntil does: a watch on each file's
// directory (editors and kubectl-style tools replace files by rename, which a
// watch on the file itself loses), debounced, plus a poll every minute in
// case an event is missed. Each check asks the core to read the files again
// (`ApiServer.reloadConfigFiles`); the core keeps the last good version when
// a new one is bad, and this logs what happened with kube's words.

import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { ApiServer, ConfigReload } from '../../core/server';

export const WATCHED_FLAGS = ['authorization-config', 'authentication-config'] as const;

export interface ConfigWatcherOptions {
  readonly flags: Readonly<Record<string, string>>;
  readonly apiServer: Pick<ApiServer, 'reloadConfigFiles'>;
  /** Where reload outcomes are reported (default: console). */
  readonly log?: (level: 'info' | 'error', message: string) => void;
  /** kube polls every minute. */
  readonly pollMs?: number;
  /** Events within this window make one check. */
  readonly debounceMs?: number;
  /** Each check's outcome (tests wait on it). */
  readonly onReload?: (outcomes: readonly ConfigReload[]) => void;
}

export interface ConfigWatcher {
  /** Checks the files now. */
  check(): Promise<readonly ConfigReload[]>;
  stop(): void;
}

/** kube-apiserver's log lines for an outcome. */
export function describeReload(outcome: ConfigReload): { level: 'info' | 'error'; message: string } | undefined {
  if (outcome.status === 'unchanged') return undefined;
  if (outcome.status === 'success') return { level: 'info', message: outcome.file === 'authorization-config' ? 'reloaded authz config' : 'reloaded authentication config' };
  return { level: 'error', message: outcome.error ?? `reloading ${outcome.file} failed` };
}

const defaultLog = (level: 'info' | 'error', message: string) => (level === 'error' ? console.error(message) : console.info(message));

export function watchConfigFiles(options: ConfigWatcherOptions): ConfigWatcher {
  const paths = WATCHED_FLAGS.map((f) => options.flags[f]).filter((p): p is string => Boolean(p)).map((p) => resolve(p));
  const log = options.log ?? defaultLog;
  let stopped = false;
  const check = async (): Promise<readonly ConfigReload[]> => {
    const outcomes = await options.apiServer.reloadConfigFiles();
    for (const outcome of outcomes) {
      const line = describeReload(outcome);
      if (line) log(line.level, line.message);
    }
    options.onReload?.(outcomes);
    return outcomes;
  };
  if (paths.length === 0) return { check, stop() {} };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void check().catch((err: unknown) => log('error', `watching configuration files: ${String(err)}`)), options.debounceMs ?? 100);
  };
  const watchers: FSWatcher[] = [];
  for (const dir of new Set(paths.map((p) => dirname(p)))) {
    const names = new Set(paths.filter((p) => dirname(p) === dir).map((p) => basename(p)));
    try {
      const w = watch(dir, (_event, name) => {
        if (name === null || names.has(String(name))) schedule();
      });
      w.on('error', (err) => log('error', `watching configuration files: ${err.message}`));
      watchers.push(w);
    } catch (err) {
      log('error', `watching configuration files: ${(err as Error).message}`);
    }
  }
  const poll = setInterval(schedule, options.pollMs ?? 60_000);
  poll.unref();
  return {
    check,
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(poll);
      for (const w of watchers) w.close();
    },
  };
}
