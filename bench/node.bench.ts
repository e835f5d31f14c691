// Under Node: get and list throughput of the KubeTab server from a load
// generator (autocannon), beside a bare node:http server answering the same
// bodies pre-built. Each server runs in its own process; the load generator
// in this one.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from './support/build';
import { ms, perSecond, ratio, table, type Row } from './support/stats';

const QUICK = process.env.BENCH_QUICK === '1';
const DURATION_S = QUICK ? 3 : 10;
const CONNECTIONS = 10;

/** Starts a child process and resolves with the first http URL it prints. */
function startServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL from ${args.join(' ')}: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

async function load(url: string): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: { accept: 'application/json' } });
}

function configMap(name: string, size: number): string {
  const skeleton = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { bench: 'kubetab' } }, data: { payload: '' } });
  return skeleton.replace('"payload":""', `"payload":"${'p'.repeat(Math.max(0, size - skeleton.length - 120))}"`);
}

async function post(url: string, body: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (response.status !== 201) throw new Error(`POST ${url}: HTTP ${response.status} ${await response.text()}`);
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'kubetab-node-bench-'));
  const children: ChildProcess[] = [];
  const rows: Row[] = [];
  try {
    const kubetab = await startServer(['--import', 'tsx', 'src/platform/node/cli.ts', '--port', '0', '--open']);
    children.push(kubetab.child);
    const api = `${kubetab.url}/api/v1`;
    for (const name of ['bench', 'bench-1k']) await post(`${api}/namespaces`, JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
    await post(`${api}/namespaces/bench/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' }, data: { k: 'v' } }));
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 1000) {
          const i = next++;
          await post(`${api}/namespaces/bench-1k/configmaps`, configMap(`obj-${String(i).padStart(4, '0')}`, 2048));
        }
      }),
    );
    const getUrl = `${api}/namespaces/bench/configmaps/one`;
    const listUrl = `${api}/namespaces/bench-1k/configmaps`;
    const getBody = await (await fetch(getUrl)).text();
    const listBody = await (await fetch(listUrl)).text();
    writeFileSync(join(tmp, 'get.json'), getBody);
    writeFileSync(join(tmp, 'list.json'), listBody);

    const bare = await startServer([join('bench', 'bare-node-server.mjs'), join(tmp, 'get.json'), join(tmp, 'list.json')]);
    children.push(bare.child);

    for (const [figure, kubetabUrl, bareUrl, bytes] of [
      ['get one object', getUrl, `${bare.url}/get`, getBody.length],
      ['list of 1,000 objects', listUrl, `${bare.url}/list`, listBody.length],
    ] as const) {
      console.log(`${figure}: ${DURATION_S} s × 2, ${CONNECTIONS} connections…`);
      const k = await load(kubetabUrl);
      const b = await load(bareUrl);
      if (k.non2xx > 0 || k.errors > 0) console.warn(`KubeTab: ${k.non2xx} non-2xx, ${k.errors} errors`);
      rows.push({
        figure: `${figure} (${bytes < 10_240 ? `${bytes} B` : `${Math.round(bytes / 1024)} KiB`}), throughput`,
        kubetab: perSecond(k.requests.average, 'req/s'),
        floor: perSecond(b.requests.average, 'req/s'),
        ratio: ratio(k.requests.average / b.requests.average),
        target: '',
        met: undefined,
      });
      rows.push({
        figure: `${figure}, mean latency under load`,
        kubetab: ms(k.latency.average),
        floor: ms(b.latency.average),
        ratio: ratio(k.latency.average / b.latency.average),
        target: '',
        met: undefined,
      });
    }
  } finally {
    for (const child of children) child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`\nNode benchmark (autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each; floor: bare node:http with pre-built bodies):\n`);
  console.log(table(rows));
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'node.json'), JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
