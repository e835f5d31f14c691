import { defineConfig } from '@playwright/test';
import { launchOptions } from './e2e/support/chromium';

// The built app in Chromium. Two builds are served: the root build (dist/) and
// a sub-path build as GitHub Pages serves it (KUBETAB_BASE=/kubetab/).
// scripts/ensure-chromium.mjs finds the browser and records its path.

const ROOT_PORT = Number(process.env.KUBETAB_E2E_PORT ?? 47173);
const PAGES_PORT = ROOT_PORT + 1;
const PAGES_OUT_DIR = 'node_modules/.cache/kubetab/dist-pages';
/** scripts/test.mjs builds dist/ itself; run alone, Playwright builds it first. */
const buildRoot = process.env.KUBETAB_E2E_PREBUILT === '1' ? '' : ' --build';

export default defineConfig({
  testDir: 'e2e',
  // Only Playwright's specs: e2e/browser/*.browser.test.ts belong to vitest's browser project.
  testMatch: '*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: launchOptions(),
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'root',
      testIgnore: /sub-path\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${ROOT_PORT}/` },
    },
    {
      name: 'pages',
      testMatch: /sub-path\.spec\.ts/,
      use: { baseURL: `http://127.0.0.1:${PAGES_PORT}/kubetab/` },
    },
  ],
  webServer: [
    {
      command: `node scripts/preview.mjs${buildRoot} --port ${ROOT_PORT} --out-dir dist`,
      url: `http://127.0.0.1:${ROOT_PORT}/`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
    },
    {
      command: `node scripts/preview.mjs --build --port ${PAGES_PORT} --out-dir ${PAGES_OUT_DIR}`,
      url: `http://127.0.0.1:${PAGES_PORT}/kubetab/`,
      env: { KUBETAB_BASE: '/kubetab/' },
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
    },
  ],
});
