// Builds what `npm pack` publishes (docs/decisions/0353): the Node entry
// points as JavaScript bundles and their type declarations, under
// dist/package/. Run by `npm run build:package` and by `prepack`.
//
// - dist/package/server.js   kubetab/server (startKubeTab), ESM, Node >= 20.19
// - dist/package/cli.js      the `kubetab` command (kubetab serve …)
// - dist/package/types/…     .d.ts of kubetab/server and what its signatures name
//
// The bundles carry KubeTab's own code; the npm packages the server uses at
// run time stay imports, listed as the package's dependencies.

import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorkerBundles } from './build-worker.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'package');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const RUNTIME_DEPENDENCIES = Object.keys(pkg.dependencies ?? {});

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const started = Date.now();
const result = await build({
  entryPoints: { server: join(root, 'src/package/server/index.ts'), cli: join(root, 'src/package/cli.ts') },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // Each bundle is one file: the CLI's dynamic import of the server CLI is inlined.
  splitting: false,
  external: RUNTIME_DEPENDENCIES,
  define: { __KUBETAB_VERSION__: JSON.stringify(pkg.version) },
  // ws and other CommonJS dependencies are imported, not bundled; Node's ESM loader handles them.
  banner: { js: "import { createRequire as __kubetabCreateRequire } from 'node:module'; const require = __kubetabCreateRequire(import.meta.url);" },
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
// The browser half and the fixture (scripts/build-worker.mjs): kubetab-worker.js, worker.js, worker.global.js, playwright.js.
await buildWorkerBundles();
const imported = new Set();
for (const output of Object.values(result.metafile.outputs)) for (const i of output.imports) if (i.external && !i.path.startsWith('node:')) imported.add(i.path.split('/').slice(0, i.path.startsWith('@') ? 2 : 1).join('/'));
const missing = [...imported].filter((name) => !RUNTIME_DEPENDENCIES.includes(name) && !isBuiltin(name));
if (missing.length) throw new Error(`the bundles import packages that are not dependencies: ${missing.join(', ')}`);

function isBuiltin(name) {
  return ['fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'tls', 'url', 'util', 'stream', 'events', 'zlib', 'buffer', 'child_process', 'module', 'worker_threads', 'timers', 'assert', 'dns', 'querystring', 'string_decoder', 'perf_hooks', 'async_hooks'].includes(name);
}

// Type declarations: tsc emits the sources' .d.ts; the package keeps those the entry's signatures reach.
const types = join(root, 'dist', 'package-types-all');
rmSync(types, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.package.json'), '--outDir', types], { stdio: 'inherit' });
const reached = new Set();
const visit = (file) => {
  if (reached.has(file) || !existsSync(file)) return;
  reached.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:from\s+|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = resolve(dirname(file), m[1]);
    for (const candidate of [`${target}.d.ts`, join(target, 'index.d.ts')]) if (existsSync(candidate)) visit(candidate);
  }
};
for (const entry of ['server', 'worker', 'playwright']) visit(join(types, `package/${entry}/index.d.ts`));
for (const file of reached) {
  const to = join(out, 'types', relative(types, file));
  mkdirSync(dirname(to), { recursive: true });
  // Node's ESM resolution (moduleResolution node16/nodenext in a consumer) wants each relative import's file named.
  const text = readFileSync(file, 'utf8').replace(/((?:from\s+|import\()\s*['"])(\.{1,2}\/[^'"]+)(['"])/g, (whole, head, spec, tail) => {
    const target = resolve(dirname(file), spec);
    if (existsSync(`${target}.d.ts`)) return `${head}${spec}.js${tail}`;
    if (existsSync(join(target, 'index.d.ts'))) return `${head}${spec}/index.js${tail}`;
    return whole;
  });
  writeFileSync(to, text);
}
rmSync(types, { recursive: true, force: true });
for (const entry of ['server', 'worker', 'playwright']) writeFileSync(join(out, `${entry}.d.ts`), `export * from './types/package/${entry}/index.js';\n`);
console.log(`dist/package: server.js, cli.js, worker.js, kubetab-worker.js, playwright.js and ${reached.size} declaration files in ${Date.now() - started} ms`);
