import { existsSync, readFileSync } from 'node:fs';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

/** The Chromium scripts/ensure-chromium.mjs found (as e2e/support/chromium.ts reads it; no relative import here, see vite.config.ts). */
function chromiumPath(): string | undefined {
  if (process.env.KUBETAB_CHROMIUM) return process.env.KUBETAB_CHROMIUM;
  const record = 'node_modules/.cache/kubetab/chromium-path';
  const recorded = existsSync(record) ? readFileSync(record, 'utf8').trim() : '';
  if (recorded && existsSync(recorded)) return recorded;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

// Two projects:
// - node: the unit and integration tests next to the code (src/**/*.test.ts);
// - browser: tests that need a real browser's IndexedDB, such as the storage
//   conformance suite run unchanged against Chromium (e2e/browser/*.browser.test.ts).
// Playwright's own end-to-end tests (e2e/*.spec.ts) are not vitest's.
export default defineConfig({
  test: {
    // Two cores shared by everyone: keep the pool small.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['e2e/browser/**/*.browser.test.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                executablePath: chromiumPath(),
                args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
