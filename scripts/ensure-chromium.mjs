#!/usr/bin/env node
// Finds a Chromium for Playwright, installing one only where that can work:
//   1. Playwright's own download, when it is already installed;
//   2. Debian's chromium at /usr/bin/chromium;
//   3. as root on Debian: apt-get install chromium;
//   4. last: Playwright's download (needs network access to its CDN).
// Prints the executable's path and records it where playwright.config.ts and
// the benchmark find it (KUBETAB_CHROMIUM wins over the record).
//
// Usable as a module too: `import { ensureChromium } from './ensure-chromium.mjs'`.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the found path is recorded for other processes (node_modules is per-clone and ignored by git). */
export const CHROMIUM_RECORD = join(ROOT, 'node_modules', '.cache', 'kubetab', 'chromium-path');

/** Arguments every KubeTab browser run uses (tests and benchmark). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const DEBIAN_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

function log(message) {
  process.stderr.write(`ensure-chromium: ${message}\n`);
}

async function playwrightChromium() {
  try {
    const { chromium } = await import('playwright');
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

function debianChromium() {
  return DEBIAN_CHROMIUM.find((path) => existsSync(path));
}

function isRootOnDebian() {
  return typeof process.getuid === 'function' && process.getuid() === 0 && existsSync('/etc/debian_version');
}

function aptInstallChromium() {
  log('installing Debian chromium with apt-get (running as root)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update'], { stdio: ['ignore', 'inherit', 'inherit'], env });
  if (update.status !== 0) return false;
  const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium', 'fonts-liberation'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env,
  });
  return install.status === 0;
}

function playwrightDownload() {
  log('trying Playwright\'s own Chromium download…');
  const cli = join(ROOT, 'node_modules', 'playwright', 'cli.js');
  const result = spawnSync(process.execPath, [cli, 'install', 'chromium'], { stdio: ['ignore', 'inherit', 'inherit'] });
  return result.status === 0;
}

function works(path) {
  try {
    execFileSync(path, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** Returns the path of a working Chromium, installing one if needed. Throws when none can be had. */
export async function ensureChromium() {
  const fromEnv = process.env.KUBETAB_CHROMIUM;
  if (fromEnv && existsSync(fromEnv)) return record(fromEnv);

  let path = (await playwrightChromium()) ?? debianChromium();
  if (!path && isRootOnDebian() && aptInstallChromium()) path = debianChromium();
  if (!path && playwrightDownload()) path = await playwrightChromium();
  if (!path) {
    throw new Error(
      'no Chromium found: install Debian\'s chromium package (apt-get install chromium) or let Playwright download one (npx playwright install chromium)',
    );
  }
  if (!works(path)) log(`warning: ${path} --version failed; trying it anyway`);
  return record(path);
}

function record(path) {
  mkdirSync(dirname(CHROMIUM_RECORD), { recursive: true });
  writeFileSync(CHROMIUM_RECORD, path);
  process.env.KUBETAB_CHROMIUM = path;
  return path;
}

/** The recorded path without installing anything (for config files). */
export function recordedChromium() {
  if (process.env.KUBETAB_CHROMIUM) return process.env.KUBETAB_CHROMIUM;
  try {
    return readFileSync(CHROMIUM_RECORD, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureChromium().then(
    (path) => process.stdout.write(`${path}\n`),
    (error) => {
      log(error.message);
      process.exit(1);
    },
  );
}
