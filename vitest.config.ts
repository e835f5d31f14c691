import { defineConfig } from 'vitest/config';

// Unit tests sit next to the code (src/**/*.test.ts, scripts too); e2e/ is Playwright's.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    // Two cores shared by everyone: keep the pool small.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
