// Under Node: get and list throughput of the KubeTab server from a load
// generator (autocannon), beside a bare node:http server answering the same
// bodies pre-built. Each server runs in its own process; the load generator
// in this one. The machine is shared, so each figure is measured in several
// rounds, KubeTab and the floor one after the other (in alternating order),
// after a warm-up; the table gives medians, and the ratio is the median of
// the rounds' ratios (each taken under the same load).

import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from './support/build';
import { startServer } from './support/child-server';
import { ms, p50, perSecond, ratio, table, type Row } from './support/stats';

const QUICK = process.env.BENCH_QUICK === '1';
const DURATION_S = QUICK ? 3 : 10;
const ROUNDS = QUICK ? 1 : 3;
const WARM_UP_S = 2;
const CONNECTIONS = 10;

async function load(url: string, duration = DURATION_S): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, headers: { accept: 'application/json' } });
}

/** Throughput and mean latency of both servers: medians over the rounds, and the median of the rounds' ratios. */
async function compare(kubetabUrl: string, bareUrl: string) {
  // JIT and caches warm before anything counts.
  await load(kubetabUrl, WARM_UP_S);
  await load(bareUrl, WARM_UP_S);
  const k = { rps: [] as number[], latency: [] as number[] };
  const b = { rps: [] as number[], latency: [] as number[] };
  const rpsRatio: number[] = [];
  const latencyRatio: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const kubetabFirst = round % 2 === 0;
    const first = await load(kubetabFirst ? kubetabUrl : bareUrl);
    const second = await load(kubetabFirst ? bareUrl : kubetabUrl);
    const [kr, br] = kubetabFirst ? [first, second] : [second, first];
    if (kr.non2xx > 0 || kr.errors > 0) console.warn(`KubeTab: ${kr.non2xx} non-2xx, ${kr.errors} errors`);
    k.rps.push(kr.requests.average);
    k.latency.push(kr.latency.average);
    b.rps.push(br.requests.average);
    b.latency.push(br.latency.average);
    rpsRatio.push(kr.requests.average / br.requests.average);
    latencyRatio.push(kr.latency.average / br.latency.average);
    console.log(`  round ${round + 1}: KubeTab ${Math.round(kr.requests.average)} req/s, bare ${Math.round(br.requests.average)} req/s`);
  }
  return {
    kubetab: { rps: p50(k.rps), latency: p50(k.latency) },
    bare: { rps: p50(b.rps), latency: p50(b.latency) },
    rpsRatio: p50(rpsRatio),
    latencyRatio: p50(latencyRatio),
  };
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
      console.log(`${figure}: ${ROUNDS} round(s) of ${DURATION_S} s × 2, ${CONNECTIONS} connections…`);
      const result = await compare(kubetabUrl, bareUrl);
      rows.push({
        figure: `${figure} (${bytes < 10_240 ? `${bytes} B` : `${Math.round(bytes / 1024)} KiB`}), throughput`,
        kubetab: perSecond(result.kubetab.rps, 'req/s'),
        floor: perSecond(result.bare.rps, 'req/s'),
        ratio: ratio(result.rpsRatio),
        target: '',
        met: undefined,
      });
      rows.push({
        figure: `${figure}, mean latency under load`,
        kubetab: ms(result.kubetab.latency),
        floor: ms(result.bare.latency),
        ratio: ratio(result.latencyRatio),
        target: '',
        met: undefined,
      });
    }
  } finally {
    for (const child of children) child.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`\nNode benchmark (autocannon, ${CONNECTIONS} connections, median of ${ROUNDS} round(s) of ${DURATION_S} s each; floor: bare node:http with pre-built bodies):\n`);
  console.log(table(rows));
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'node.json'), JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
