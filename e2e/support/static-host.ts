// A static host the test owns, so that it can be taken down: serves a copy of
// a build under a base path, as GitHub Pages does (no rewrites; 404 for what
// is not there). Its content can be changed to stand for a new deployment.

import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export interface StaticHost {
  /** The app's URL ('http://127.0.0.1:port/kubetab/'). */
  readonly url: string;
  /** The served copy of the build (change its files to deploy a new version). */
  readonly dir: string;
  /** Paths requested so far. */
  readonly requests: string[];
  /** Stops the host: open connections are cut, new ones refused. */
  close(): Promise<void>;
}

/** Serves a copy of `buildDir` under `base` on a free port. */
export async function startStaticHost(buildDir: string, base: string): Promise<StaticHost> {
  const dir = mkdtempSync(join(tmpdir(), 'kubetab-host-'));
  cpSync(buildDir, dir, { recursive: true });
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
    requests.push(pathname);
    if (!pathname.startsWith(base)) return void res.writeHead(404).end('not found');
    let file = normalize(join(dir, pathname.slice(base.length)));
    if (!file.startsWith(dir)) return void res.writeHead(404).end('not found');
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const body = readFileSync(file);
      // As GitHub Pages: cacheable for a while, so that only the worker's own revalidation sees a new deployment at once.
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=600' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base}`,
    dir,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
