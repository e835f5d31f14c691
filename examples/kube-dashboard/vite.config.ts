// The example app's dev server. In an app of its own, 'kubetab/worker' would
// come from node_modules; here it is KubeTab's source.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const repository = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: { 'kubetab/worker': `${repository}src/package/worker/index.ts` } },
  server: { fs: { allow: [repository] } },
  clearScreen: false,
});
