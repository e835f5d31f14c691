// Builds the browser half of the kubetab package (docs/decisions/0356) into
// dist/package/, as standalone files with everything inlined:
//
// - kubetab-worker.js   the service worker other apps serve (`kubetab init <public dir>` copies it)
// - worker.js           kubetab/worker: startKubeTabWorker, the page API (ESM, for the app's bundler)
// - worker.global.js    the same as a classic script (global KubeTabWorker), for kubetab/playwright's init script
// - playwright.js       kubetab/playwright (Node ESM; imports ./server.js and @playwright/test)
//
// Run by scripts/build-package.mjs; alone (`node scripts/build-worker.mjs`) it
// rebuilds only these, in a few seconds (the example app's tests use that).

import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'package');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

export async function buildWorkerBundles() {
  mkdirSync(out, { recursive: true });
  const define = { __KUBETAB_VERSION__: JSON.stringify(pkg.version) };
  const browser = { bundle: true, platform: 'browser', target: 'es2022', define, legalComments: 'none', logLevel: 'warning', charset: 'ascii' };
  await Promise.all([
    build({ ...browser, entryPoints: [join(root, 'src/package/worker/worker-script.ts')], outfile: join(out, 'kubetab-worker.js'), format: 'iife', minify: true }),
    build({ ...browser, entryPoints: [join(root, 'src/package/worker/index.ts')], outfile: join(out, 'worker.js'), format: 'esm' }),
    build({ ...browser, entryPoints: [join(root, 'src/package/worker/index.ts')], outfile: join(out, 'worker.global.js'), format: 'iife', globalName: 'KubeTabWorker' }),
    build({
      entryPoints: [join(root, 'src/package/playwright/index.ts')],
      outfile: join(out, 'playwright.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      define,
      legalComments: 'none',
      logLevel: 'warning',
      external: ['@playwright/test'],
      plugins: [
        {
          // The fixture shares kubetab/server's module (one copy of the server code).
          name: 'kubetab-server-entry',
          setup(b) {
            b.onResolve({ filter: /^\.\.\/server\/index$/ }, () => ({ path: './server.js', external: true }));
            b.onResolve({ filter: /^\.\.\/worker\/index$/ }, () => ({ path: './worker.js', external: true }));
          },
        },
      ],
    }),
  ]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildWorkerBundles();
  console.log(`dist/package: kubetab-worker.js, worker.js, worker.global.js, playwright.js in ${Date.now() - started} ms`);
}
