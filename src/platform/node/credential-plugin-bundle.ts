// The kubeconfig's credential-plugin command, made fast: kubectl starts the
// plugin at every call, and run through tsx from the TypeScript sources it
// cost a TypeScript loader's start-up (and, with a cold cache, a compile of
// its imports) each time. Here the plugin is bundled once, when the server
// writes the kubeconfig, into one plain JavaScript file that node runs
// directly. The bundle goes into the directory the server keeps its generated
// credentials in (removed at exit in memory mode). Without esbuild (the
// packaged CLI) it falls back to the tsx command.

import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { pluginCommand } from './credential-plugin';

const PLUGIN_SOURCE = fileURLToPath(new URL('./credential-plugin.ts', import.meta.url));

/** Bundles the plugin into `dir`/credential-plugin.mjs and returns the command that runs it with plain node. */
export function bundledPluginCommand(identity: string, tokenFile: string, dir: string): { command: string; args: string[] } {
  const outfile = join(dir, 'credential-plugin.mjs');
  try {
    buildSync({ entryPoints: [PLUGIN_SOURCE], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent' });
  } catch {
    return pluginCommand(identity, tokenFile);
  }
  return { command: process.execPath, args: [outfile, '--identity', identity, '--token-file', tokenFile] };
}
