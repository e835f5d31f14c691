// `kubetab init <public dir>`: copies KubeTab's service worker for other apps
// (kubetab-worker.js, built by scripts/build-worker.mjs) into an app's public
// folder, as `msw init` copies mockServiceWorker.js. The app then registers it
// with startKubeTabWorker (kubetab/worker).

import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WORKER_FILE = 'kubetab-worker.js';

/** The built worker script: beside this module in the package, or in dist/package/ when run from the repository's sources. */
function builtWorker(): string {
  for (const candidate of [new URL(`./${WORKER_FILE}`, import.meta.url), new URL(`../../dist/package/${WORKER_FILE}`, import.meta.url)]) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return path;
  }
  throw new Error(`${WORKER_FILE} is not built (in the KubeTab repository: node scripts/build-worker.mjs)`);
}

export function initWorker(args: readonly string[], write: (line: string) => void): void {
  const [dir, ...rest] = args;
  if (dir === undefined || dir === '--help' || dir === '-h') {
    write(`Usage: kubetab init <public dir>\n\nCopies ${WORKER_FILE} into the folder the app serves at its root (vite: public/), so that\nstartKubeTabWorker() from 'kubetab/worker' can register it. Run it again after upgrading kubetab.\n`);
    if (dir === undefined) throw new Error('kubetab init: name the public folder, e.g. `kubetab init public`');
    return;
  }
  if (rest.length) throw new Error(`kubetab init: one folder only (got ${args.length})`);
  const target = resolve(dir);
  if (existsSync(target) && !statSync(target).isDirectory()) throw new Error(`kubetab init: ${target} is not a folder`);
  mkdirSync(target, { recursive: true });
  const to = join(target, WORKER_FILE);
  copyFileSync(builtWorker(), to);
  write(`wrote ${to}\nregister it in the app: startKubeTabWorker({ url: '/${WORKER_FILE}', apiBase: '/k8s' }) from 'kubetab/worker'\n`);
}
