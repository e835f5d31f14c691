#!/usr/bin/env node
// Serves the built app (dist/, or --out-dir) under its base path and prints its
// URL. Options: --port N (default 4173, or $PORT), --out-dir DIR, --build
// (build first). The base path comes from KUBETAB_BASE, as for the build.

import { build, preview } from 'vite';

function option(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return fallback;
  const arg = args[i];
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1];
}

const port = Number(option('port', process.env.PORT ?? '4173'));
const outDir = option('out-dir', process.env.KUBETAB_OUT_DIR ?? 'dist');

if (process.argv.includes('--build')) {
  await build({ build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
}

const server = await preview({
  build: { outDir },
  preview: { port, strictPort: true, host: '127.0.0.1', open: false },
});
const url = server.resolvedUrls?.local?.[0];
process.stdout.write(`KubeTab is served at ${url}\n`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close().finally(() => process.exit(0));
  });
}
