#!/usr/bin/env node
// `npm run bench [-- NAME…]`: runs bench/*.bench.ts one after the other (each in
// its own process, through tsx), or only those whose name contains one of the
// given words. Each prints its own table. Not part of `npm test`.
// BENCH_QUICK=1 runs fewer iterations.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './ensure-chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const filters = process.argv.slice(2);
const files = readdirSync(join(ROOT, 'bench'))
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort();

if (files.length === 0) {
  console.error(`no benchmark matches ${filters.join(' ')}`);
  process.exit(2);
}

// Only the browser benchmark needs Chromium (`npm run bench -- cluster` runs without one).
if (files.some((name) => name.startsWith('browser'))) await ensureChromium();
let failed = 0;
for (const file of files) {
  console.log(`\n##### ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join('bench', file)], { cwd: ROOT, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    failed++;
    console.error(`${file} failed (${result.signal ?? `exit ${result.status}`})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
