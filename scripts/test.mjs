#!/usr/bin/env node
// `npm test`: every check of the project, in order, then one summary line.
//   1. a Chromium for Playwright (scripts/ensure-chromium.mjs)
//   2. typecheck: the core's tsconfig (no DOM, no Node) and the rest
//   3. vitest: every unit and integration test
//   4. vite build
//   5. playwright: the built app in Chromium
//   6. playwright: the example app's tests (examples/kube-dashboard), both modes of kubetab/playwright
// The last line is `N passed, N failed[, N skipped]`, summing vitest's and
// Playwright's JSON reports; a step that fails without tests of its own
// (typecheck, build) counts as one failure. Exits non-zero on any failure.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './ensure-chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REPORTS = join(ROOT, 'node_modules', '.cache', 'kubetab', 'reports');
const BIN = join(ROOT, 'node_modules', '.bin');

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(title, command, args, env = {}) {
  process.stdout.write(`\n=== ${title}: ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
    child.on('error', (error) => {
      process.stdout.write(`${title}: ${error.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.stdout.write(`=== ${title}: ${code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      resolve(code ?? 1);
    });
  });
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A step without a test report of its own counts as one failure. */
function stepFailed(title) {
  totals.failed += 1;
  failures.push(title);
}

rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

// 1. Chromium
let chromium;
try {
  chromium = await ensureChromium();
  process.stdout.write(`Chromium: ${chromium}\n`);
} catch (error) {
  process.stdout.write(`Chromium: ${error.message}\n`);
  stepFailed('chromium');
}

// 2. typecheck, both programs
if ((await run('typecheck (core)', join(BIN, 'tsc'), ['-p', 'tsconfig.core.json', '--noEmit'])) !== 0) stepFailed('typecheck (core)');
if ((await run('typecheck', join(BIN, 'tsc'), ['-p', 'tsconfig.json', '--noEmit'])) !== 0) stepFailed('typecheck');

// 3. vitest
const vitestReport = join(REPORTS, 'vitest.json');
const vitestCode = await run('vitest', join(BIN, 'vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
const vitest = readJson(vitestReport);
if (vitest) {
  totals.passed += vitest.numPassedTests ?? 0;
  totals.failed += vitest.numFailedTests ?? 0;
  totals.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  // A suite that fails to load has no failed test in the counts: count it.
  const brokenFiles = (vitest.testResults ?? []).filter((file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0).length;
  totals.failed += brokenFiles;
  if (vitestCode !== 0 && (vitest.numFailedTests ?? 0) + brokenFiles === 0) stepFailed('vitest');
} else {
  stepFailed('vitest (no report)');
}

// 4. build
const buildCode = await run('vite build', join(BIN, 'vite'), ['build']);
if (buildCode !== 0) stepFailed('vite build');

// 5. playwright (needs the build and a browser)
if (buildCode === 0 && chromium) {
  const playwrightReport = join(REPORTS, 'playwright.json');
  const playwrightCode = await run('playwright', join(BIN, 'playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    KUBETAB_CHROMIUM: chromium,
    KUBETAB_E2E_PREBUILT: '1',
  });
  const playwright = readJson(playwrightReport);
  if (playwright?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = playwright.stats;
    totals.passed += expected + flaky;
    totals.failed += unexpected;
    totals.skipped += skipped;
    // Global errors (a web server that did not start) fail the run without failing a test.
    if (playwrightCode !== 0 && unexpected === 0) stepFailed('playwright');
  } else {
    stepFailed('playwright (no report)');
  }
} else {
  process.stdout.write('\n=== playwright: not run (no build or no browser)\n');
  stepFailed('playwright (not run)');
}

// 6. the example app's own Playwright tests (examples/kube-dashboard: kubetab/playwright in both modes)
if (chromium) {
  const exampleReport = join(REPORTS, 'playwright-example.json');
  const exampleCode = await run('playwright (example app)', join(BIN, 'playwright'), ['test', '-c', 'examples/kube-dashboard/playwright.config.ts', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: exampleReport,
    KUBETAB_CHROMIUM: chromium,
  });
  const example = readJson(exampleReport);
  if (example?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = example.stats;
    totals.passed += expected + flaky;
    totals.failed += unexpected;
    totals.skipped += skipped;
    if (exampleCode !== 0 && unexpected === 0) stepFailed('playwright (example app)');
  } else {
    stepFailed('playwright (example app, no report)');
  }
}

if (failures.length > 0) process.stdout.write(`\nFailed steps: ${failures.join(', ')}\n`);
const summary = `${totals.passed} passed, ${totals.failed} failed${totals.skipped > 0 ? `, ${totals.skipped} skipped` : ''}`;
process.stdout.write(`\n${summary}\n`);
process.exit(totals.failed > 0 ? 1 : 0);
