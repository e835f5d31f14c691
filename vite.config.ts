import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin, type ResolvedConfig } from 'vite';

// The app's base path comes from one setting: KUBETAB_BASE ('/' by default,
// '/kubetab/' for GitHub Pages). The service worker is emitted at its root as
// sw.js, so its scope is the base path. KUBETAB_OUT_DIR sends a build
// elsewhere than dist/ (the e2e sub-path build). sw.js carries the list of the
// build's files with their SHA-256 (decision 0200): the worker stores exactly
// those for offline use, and any change to the app changes sw.js, which is how
// the browser notices a new version.
//
// This file imports nothing relative: vite's coming native config loader
// cannot resolve extensionless TypeScript imports.

function normalizeBase(value: string): string {
  const withSlashes = `/${value.trim()}/`.replace(/\/{2,}/g, '/');
  return withSlashes;
}

const base = normalizeBase(process.env.KUBETAB_BASE ?? '/');
const SERVICE_WORKER_ENTRY = fileURLToPath(new URL('./src/platform/browser/service-worker.ts', import.meta.url));
const SERVICE_WORKER_FILE = 'sw.js';

/**
 * The CEL library (@marcbachmann/cel-js) builds its function registry when its
 * module is evaluated: 5–12 ms of every cold start of the worker, though a
 * request needs CEL only with CEL rules, policies or expressions configured
 * (decision 0315). In the worker's bundle its import is replaced by a stand-in
 * whose Environment loads the library when the first one is constructed: a
 * require() of the ES module, which the bundler turns into a function that
 * evaluates the library once, on its first call. The three modules that use CEL
 * already build their environments on first use, so nothing else changes; the
 * stand-in exports only what the project imports (another name fails the build).
 */
function lazyCelLibrary(): Plugin {
  const LIBRARY = '@marcbachmann/cel-js';
  const STAND_IN = '\0kubetab:lazy-cel-library';
  let library: string | undefined;
  return {
    name: 'kubetab-lazy-cel-library',
    // Before vite's own resolver, which would resolve the bare name first.
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== LIBRARY || importer === STAND_IN) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      library = resolved.id;
      return STAND_IN;
    },
    load(id) {
      if (id !== STAND_IN || !library) return null;
      return [
        'let library;',
        `const load = () => (library ??= require(${JSON.stringify(library)}));`,
        'export const Environment = new Proxy(function Environment() {}, { construct: (_target, args) => Reflect.construct(load().Environment, args) });',
      ].join('\n');
    },
  };
}

/**
 * Bundles the service worker on its own: one self-contained classic script
 * (IIFE), sharing no chunk with the page, since a classic worker cannot import
 * the page's chunks and module workers are not in every browser.
 *
 * The script is ASCII only (non-ASCII characters escaped): a single one makes
 * the browser decode all of it to UTF-16 at every start of the worker, 4 ms
 * instead of 1 for this script (decision 0318). Escaping cannot reach the raw
 * text of a tagged template (String.raw) or a kept comment, so a character left
 * in a minified script is reported.
 */
async function bundleServiceWorker(config: ResolvedConfig, minify: boolean, appFiles: readonly AppFile[]): Promise<string> {
  const result = await build({
    configFile: false,
    root: config.root,
    mode: config.mode,
    logLevel: 'warn',
    publicDir: false,
    plugins: [lazyCelLibrary()],
    define: { 'import.meta.env.BASE_URL': JSON.stringify(config.base), __KUBETAB_APP_FILES__: JSON.stringify(appFiles) },
    build: {
      write: false,
      emptyOutDir: false,
      minify,
      sourcemap: false,
      target: 'es2022',
      lib: { entry: SERVICE_WORKER_ENTRY, formats: ['iife'], name: 'KubeTabServiceWorker', fileName: () => SERVICE_WORKER_FILE },
      rolldownOptions: { output: { codeSplitting: false, charset: 'ascii' } },
    },
  });
  for (const output of Array.isArray(result) ? result : [result]) {
    if (!('output' in output)) continue;
    for (const chunk of output.output) {
      if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
      // (Not checked unminified, as the dev server serves it: comments keep their text.)
      const nonAscii = minify ? /[^\x00-\x7f]/.exec(chunk.code) : null;
      if (nonAscii) config.logger.warn(`${SERVICE_WORKER_FILE} holds a non-ASCII character (${JSON.stringify(chunk.code.slice(Math.max(0, nonAscii.index - 40), nonAscii.index + 10))}): the worker's every start decodes it as UTF-16`);
      return chunk.code;
    }
  }
  throw new Error('the service worker bundle produced no entry chunk');
}

/** One file of the build for the worker's app cache (src/platform/browser/app-cache.ts), its path relative to the base. */
interface AppFile {
  readonly path: string;
  readonly sha256: string;
}

function sha256(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Files of the public directory, copied as they are into the output. */
function publicFiles(dir: string): { path: string; bytes: Uint8Array }[] {
  const found: { path: string; bytes: Uint8Array }[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push({ path: relative(dir, full).split(sep).join('/'), bytes: readFileSync(full) });
    }
  };
  walk(dir);
  return found;
}

/**
 * Every file the build writes (the page's chunks and assets, index.html, the
 * public directory's files) with the SHA-256 of its bytes; source maps and
 * the worker itself are left out.
 */
function listAppFiles(config: ResolvedConfig, bundle: Record<string, { type: 'chunk'; code: string } | { type: 'asset'; source: string | Uint8Array }>): AppFile[] {
  const files = new Map<string, string>();
  if (config.build.copyPublicDir && config.publicDir) {
    try {
      for (const file of publicFiles(config.publicDir)) files.set(file.path, sha256(file.bytes));
    } catch {
      // no public directory
    }
  }
  for (const [fileName, output] of Object.entries(bundle)) files.set(fileName, sha256(output.type === 'chunk' ? output.code : output.source));
  return [...files]
    .filter(([path]) => path !== SERVICE_WORKER_FILE && !path.endsWith('.map') && !path.startsWith('.vite/'))
    .map(([path, hash]) => ({ path, sha256: hash }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Serves (dev) and emits (build) `${base}sw.js`. */
function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'kubetab-service-worker',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if ((req.url ?? '').split('?')[0] !== `${config.base}${SERVICE_WORKER_FILE}`) return next();
        bundleServiceWorker(config, false, []).then(
          (code) => {
            res.setHeader('content-type', 'text/javascript');
            res.setHeader('cache-control', 'no-cache');
            res.end(code);
          },
          (error: unknown) => next(error),
        );
      });
    },
    // After the other plugins (index.html is emitted in theirs): the bundle is complete.
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const appFiles = listAppFiles(config, bundle as Parameters<typeof listAppFiles>[1]);
        this.emitFile({ type: 'asset', fileName: SERVICE_WORKER_FILE, source: await bundleServiceWorker(config, config.build.minify !== false, appFiles) });
      },
    },
  };
}

export default defineConfig({
  base,
  plugins: [react(), serviceWorkerPlugin()],
  resolve: {
    alias: [
      // monaco-yaml's worker (through monaco-worker-manager) imports Monaco's
      // worker by its pre-0.50 path, which monaco-editor 0.57's exports map
      // no longer allows; point it at the same module's exported name.
      { find: /^monaco-editor\/esm\/vs\/editor\/editor\.worker(\.js)?$/, replacement: 'monaco-editor/editor/editor.worker' },
    ],
  },
  build: {
    outDir: process.env.KUBETAB_OUT_DIR ?? 'dist',
    target: 'es2022',
    // Monaco is large; its chunk size is no news.
    chunkSizeWarningLimit: 4096,
  },
  preview: { host: '127.0.0.1' },
  server: { host: '127.0.0.1' },
});
