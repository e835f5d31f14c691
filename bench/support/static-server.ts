// One origin for the whole browser benchmark, so KubeTab's worker, the floor
// worker and msw's worker are compared on equal terms:
//   /kubetab/…  the built app (its worker answers the API under /kubetab/)
//   /floor/…    the bare floor worker
//   /floor-sized/…  the floor worker carrying KubeTab's script as code it never runs
//   /msw/…      msw's worker and library
//   /harness.js the measurement code; /<scope>/bench.html an empty page that loads it

import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

const BENCH_HTML = '<!doctype html><meta charset="utf-8"><title>bench</title><script src="/harness.js"></script>';
const MSW_HTML = '<!doctype html><meta charset="utf-8"><title>bench</title><script src="/msw/msw.js"></script><script src="/harness.js"></script>';

export interface BenchServerFiles {
  readonly appDir: string;
  readonly floorWorker: string;
  /** The floor worker with KubeTab's script appended, never run (optional). */
  readonly sizedFloorWorker?: string;
  readonly harness: string;
  readonly mswWorkerFile: string;
  readonly mswLibraryFile: string;
}

export async function startBenchServer(files: BenchServerFiles): Promise<{ origin: string; close(): Promise<void> }> {
  const fixed = new Map<string, [string, string]>([
    ['/harness.js', [files.harness, TYPES['.js']!]],
    ['/floor/sw.js', [files.floorWorker, TYPES['.js']!]],
    ['/floor/bench.html', [BENCH_HTML, TYPES['.html']!]],
    ...(files.sizedFloorWorker
      ? ([
          ['/floor-sized/sw.js', [files.sizedFloorWorker, TYPES['.js']!]],
          ['/floor-sized/bench.html', [BENCH_HTML, TYPES['.html']!]],
        ] satisfies [string, [string, string]][])
      : []),
    ['/kubetab/bench.html', [BENCH_HTML, TYPES['.html']!]],
    ['/msw/bench.html', [MSW_HTML, TYPES['.html']!]],
    ['/msw/mockServiceWorker.js', [await readFile(files.mswWorkerFile, 'utf8'), TYPES['.js']!]],
    ['/msw/msw.js', [await readFile(files.mswLibraryFile, 'utf8'), TYPES['.js']!]],
  ]);
  const server = http.createServer(async (req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const known = fixed.get(path);
    if (known) {
      // Cross-origin isolation gives the pages performance.now() at 5 µs instead of 100 µs.
      const isolation = path.endsWith('.html') ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {};
      res.writeHead(200, { 'content-type': known[1], 'cache-control': 'no-cache', ...isolation });
      res.end(known[0]);
      return;
    }
    if (path.startsWith('/kubetab/')) {
      const relative = normalize(path.slice('/kubetab/'.length) || 'index.html');
      if (!relative.startsWith('..')) {
        try {
          const body = await readFile(join(files.appDir, relative));
          res.writeHead(200, { 'content-type': TYPES[extname(relative)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
          res.end(body);
          return;
        } catch {
          // fall through to 404
        }
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
