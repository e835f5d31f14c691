// Builds what the browser benchmark serves: the KubeTab app under /kubetab/
// (a production build, as users get it), the floor worker and the page harness
// (each one self-contained script).

import { join } from 'node:path';
import { build } from 'vite';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BENCH_DIST = join(ROOT, 'node_modules', '.cache', 'kubetab', 'dist-bench');
export const BENCH_BASE = '/kubetab/';

export async function buildApp(): Promise<void> {
  const previous = process.env.KUBETAB_BASE;
  process.env.KUBETAB_BASE = BENCH_BASE;
  try {
    await build({ root: ROOT, logLevel: 'warn', build: { outDir: BENCH_DIST, emptyOutDir: true } });
  } finally {
    if (previous === undefined) delete process.env.KUBETAB_BASE;
    else process.env.KUBETAB_BASE = previous;
  }
}

/** Bundles one TypeScript entry into a single classic script. */
export async function bundleScript(entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      lib: { entry, formats: ['iife'], name: 'KubeTabBench', fileName: () => 'script.js' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  for (const output of Array.isArray(result) ? result : [result]) {
    if (!('output' in output)) continue;
    for (const chunk of output.output) if (chunk.type === 'chunk' && chunk.isEntry) return chunk.code;
  }
  throw new Error(`no bundle for ${entry}`);
}
