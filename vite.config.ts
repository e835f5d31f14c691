import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin, type ResolvedConfig } from 'vite';

// The app's base path comes from one setting: KUBETAB_BASE ('/' by default,
// '/kubetab/' for GitHub Pages). The service worker is emitted at its root as
// sw.js, so its scope is the base path. KUBETAB_OUT_DIR sends a build
// elsewhere than dist/ (the e2e sub-path build).
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
 * Bundles the service worker on its own: one self-contained classic script
 * (IIFE), sharing no chunk with the page, since a classic worker cannot import
 * the page's chunks and module workers are not in every browser.
 */
async function bundleServiceWorker(config: ResolvedConfig, minify: boolean): Promise<string> {
  const result = await build({
    configFile: false,
    root: config.root,
    mode: config.mode,
    logLevel: 'warn',
    publicDir: false,
    define: { 'import.meta.env.BASE_URL': JSON.stringify(config.base) },
    build: {
      write: false,
      emptyOutDir: false,
      minify,
      sourcemap: false,
      target: 'es2022',
      lib: { entry: SERVICE_WORKER_ENTRY, formats: ['iife'], name: 'KubeTabServiceWorker', fileName: () => SERVICE_WORKER_FILE },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  for (const output of Array.isArray(result) ? result : [result]) {
    if (!('output' in output)) continue;
    for (const chunk of output.output) if (chunk.type === 'chunk' && chunk.isEntry) return chunk.code;
  }
  throw new Error('the service worker bundle produced no entry chunk');
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
        bundleServiceWorker(config, false).then(
          (code) => {
            res.setHeader('content-type', 'text/javascript');
            res.setHeader('cache-control', 'no-cache');
            res.end(code);
          },
          (error: unknown) => next(error),
        );
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: SERVICE_WORKER_FILE, source: await bundleServiceWorker(config, config.build.minify !== false) });
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
