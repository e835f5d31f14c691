// The package's version: snapshots carry it, and a snapshot taken by another
// version is refused (stored objects, defaults and the bootstrap set change
// between versions). The published build defines __KUBETAB_VERSION__; run
// from the repository's sources it is read from package.json.

import { readFileSync } from 'node:fs';

declare const __KUBETAB_VERSION__: string | undefined;

function fromPackageJson(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

export const KUBETAB_VERSION: string = typeof __KUBETAB_VERSION__ === 'string' ? __KUBETAB_VERSION__ : fromPackageJson();
