// The example app's own tests, in both of kubetab/playwright's modes: against
// a KubeTab server in the test process (node) and against KubeTab in the
// page's service worker (service-worker). Part of `npm test`.
//
// Before the app's dev server starts: the worker bundles are built and
// `kubetab init public` copies kubetab-worker.js into the app's public folder,
// as an app of its own would do once after installing kubetab.

import { defineConfig } from '@playwright/test';
import type { KubeTabTestOptions } from 'kubetab/playwright';
import { launchOptions } from '../../e2e/support/chromium';

const PORT = Number(process.env.KUBETAB_EXAMPLE_PORT ?? 18051);

export default defineConfig<KubeTabTestOptions>({
  testDir: 'tests',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}/`,
    browserName: 'chromium',
    headless: true,
    launchOptions: launchOptions(),
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'node', use: { kubeMode: 'node', kubeOptions: { open: true, nodes: 0, corsAllowedOrigins: ['^http://localhost(:|$)'] } } },
    { name: 'service-worker', use: { kubeMode: 'service-worker', kubeWorker: { url: '/kubetab-worker.js', apiBase: '/k8s', open: true, persist: 'memory', nodes: 0 } } },
  ],
  webServer: {
    command: `node ../../scripts/build-worker.mjs && node --import tsx ../../src/package/cli.ts init public && node ../../node_modules/vite/bin/vite.js --port ${PORT} --strictPort`,
    cwd: '.',
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
  },
});
