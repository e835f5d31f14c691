// The browser every e2e test and the benchmark use: the Chromium that
// scripts/ensure-chromium.mjs found (KUBETAB_CHROMIUM, or its record), with
// the flags of a quiet, sandbox-free headless run.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** Undefined means Playwright's own browser. */
export function chromiumPath(): string | undefined {
  if (process.env.KUBETAB_CHROMIUM) return process.env.KUBETAB_CHROMIUM;
  try {
    const recorded = readFileSync(join(process.cwd(), 'node_modules/.cache/kubetab/chromium-path'), 'utf8').trim();
    if (recorded && existsSync(recorded)) return recorded;
  } catch {
    // nothing recorded: fall through
  }
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

export function launchOptions(): { executablePath: string | undefined; args: string[]; headless: true } {
  return { executablePath: chromiumPath(), args: [...CHROMIUM_ARGS], headless: true };
}
