// The browser benchmark of issue 2: each KubeTab figure beside its floor,
// measured in the same run by a bare service worker of the same origin, in
// headless Chromium with a persistent profile (an incognito profile keeps
// IndexedDB in memory and flatters writes).

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright';
import { launchOptions } from '../e2e/support/chromium';
import { BENCH_DIST, ROOT, buildApp, bundleScript } from './support/build';
import { startBenchServer } from './support/static-server';
import { ms, p50, p90, perSecond, ratio, table, type Row } from './support/stats';

const QUICK = process.env.BENCH_QUICK === '1';
const N = {
  get: QUICK ? 100 : 500,
  create: QUICK ? 60 : 300,
  lists1k: QUICK ? 5 : 15,
  lists10k: QUICK ? 3 : 9,
  watch: QUICK ? 30 : 100,
  msw: QUICK ? 100 : 500,
  cold: QUICK ? 3 : 7,
  bulk: 10_000,
  floorCreates: QUICK ? 1000 : 3000,
  objectSize: 2048,
};

const API = '/kubetab/api/v1';
/** Samples per batch when KubeTab's and the floor's are taken in turns. */
const BATCH = 20;

async function evaluate<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(({ fn, args }) => (window as any).bench[fn](...args), { fn, args }) as Promise<T>;
}

async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error on ${url}:`, error));
  await page.goto(url);
  return page;
}

async function post(page: Page, path: string, body: unknown): Promise<number> {
  return page.evaluate(
    async ({ path, body }) =>
      (await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...(window as any).bench.auth() }, body: JSON.stringify(body) })).status,
    { path, body },
  );
}

/**
 * Takes KubeTab's and the floor's samples in alternating small batches (which
 * goes first alternates too), so that both see the same load of a shared
 * machine instead of one measuring a busy minute and the other a quiet one.
 */
async function alternate<T>(rounds: number, kubetab: (round: number) => Promise<T[]>, floor: (round: number) => Promise<T[]>): Promise<[T[], T[]]> {
  const ours: T[] = [];
  const theirs: T[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      ours.push(...(await kubetab(round)));
      theirs.push(...(await floor(round)));
    } else {
      theirs.push(...(await floor(round)));
      ours.push(...(await kubetab(round)));
    }
  }
  return [ours, theirs];
}

/** Stops every service worker of the browser through CDP and waits until none runs. */
async function stopAllWorkers(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const status = new Map<string, string>();
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions as { versionId: string; runningStatus: string }[]) status.set(v.versionId, v.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  const deadline = Date.now() + 10_000;
  while ([...status.values()].some((s) => s !== 'stopped') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await cdp.send('ServiceWorker.disable');
  await cdp.detach();
  // Let the browser settle, so the start that follows is a cold one and nothing else.
  await new Promise((r) => setTimeout(r, 200));
}

/** A row comparing two sets of times by their p50s; `limit` is the target ratio, if there is one. */
function p50Row(figure: string, ours: number[], floor: number[], limit: number | undefined, target = limit === undefined ? '—' : `<= ${limit}x`): Row {
  const r = p50(ours) / p50(floor);
  return { figure, kubetab: ms(p50(ours)), floor: ms(p50(floor)), ratio: ratio(r), target, met: limit === undefined ? undefined : r <= limit };
}

/** The floor worker with KubeTab's whole script appended inside a function nothing calls. */
function withUnrunScript(floorWorker: string, kubetabScript: string): string {
  return `${floorWorker}\n// KubeTab's worker script, never called: only its size counts.\nfunction kubetabScriptNeverRun() {\n${kubetabScript}\n}\n`;
}

async function main(): Promise<void> {
  console.log('browser benchmark: building the app, the floor worker and the harness…');
  await buildApp();
  const floorWorker = await bundleScript(join(ROOT, 'bench', 'floor-worker.ts'));
  const server = await startBenchServer({
    appDir: BENCH_DIST,
    floorWorker,
    sizedFloorWorker: withUnrunScript(floorWorker, readFileSync(join(BENCH_DIST, 'sw.js'), 'utf8')),
    harness: await bundleScript(join(ROOT, 'bench', 'page-harness.ts')),
    mswWorkerFile: join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'),
    mswLibraryFile: join(ROOT, 'node_modules', 'msw', 'lib', 'iife', 'index.js'),
  });
  const profile = mkdtempSync(join(tmpdir(), 'kubetab-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, { ...launchOptions(), baseURL: server.origin });
  const rows: Row[] = [];
  const raw: Record<string, unknown> = {};
  try {
    const kt = await openPage(context, '/kubetab/bench.html');
    await evaluate(kt, 'register', '/kubetab/sw.js', '/kubetab/');
    // The cluster is secure by default: requests carry the administrator's token (as the UI's do).
    const secure = await evaluate<boolean>(kt, 'useAdministrator');
    const auth = await evaluate<Record<string, string>>(kt, 'auth');
    await evaluate(kt, 'waitReady', '/kubetab/readyz');
    const floor = await openPage(context, '/floor/bench.html');
    await evaluate(floor, 'register', '/floor/sw.js', '/floor/');
    await evaluate(floor, 'setAuth', auth);
    const sized = await openPage(context, '/floor-sized/bench.html');
    await evaluate(sized, 'register', '/floor-sized/sw.js', '/floor-sized/');
    await evaluate(sized, 'setAuth', auth);
    const msw = await openPage(context, '/msw/bench.html');
    await evaluate(msw, 'startMsw', '/msw/mockServiceWorker.js', '/msw/');
    const isolated = await evaluate<boolean>(kt, 'isolated');
    console.log(`pages ready on ${server.origin} (profile ${profile}; timers ${isolated ? '5 µs, cross-origin isolated' : '100 µs'}; ${secure ? 'secure cluster, administrator token' : 'open cluster'})`);

    for (const ns of ['bench', 'bench-1k', 'bench-10k', 'bench-watch']) {
      const status = await post(kt, `${API}/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      if (status !== 201) throw new Error(`creating namespace ${ns}: HTTP ${status}`);
    }

    // 10,000 ~2 KiB objects created over HTTP, 32 in flight. Each is one fetch through the
    // worker, and a fetch costs the same to any worker: the fair floor is the bare worker's
    // POST + one put transaction at the same concurrency (docs/decisions/0133).
    console.log('10,000 creates over HTTP…');
    const createsMs = await evaluate<number>(kt, 'bulkImport', `${API}/namespaces/bench-10k/configmaps`, 'obj', N.bulk, N.objectSize, 32);
    const floorCreatesMs = await evaluate<number>(floor, 'bulkImport', '/floor/create', 'obj', N.floorCreates, N.objectSize, 32);
    const createsRate = N.bulk / (createsMs / 1000);
    const floorCreatesRate = N.floorCreates / (floorCreatesMs / 1000);
    rows.push({
      figure: '10,000 creates over HTTP, 32 in flight (floor: POST + one put)',
      kubetab: perSecond(createsRate),
      floor: perSecond(floorCreatesRate),
      ratio: ratio(createsRate / floorCreatesRate),
      target: '—',
      met: undefined,
    });
    raw.creates = { createsMs, floorCreatesMs, floorCreates: N.floorCreates };

    // Bulk import: KubeTab's import path, a cluster archive (every stored object, the 10,000
    // above included) imported into a fresh cluster, as a backup is restored into a new
    // install; floor: 1,000-put IndexedDB transactions (docs/decisions/0133).
    console.log('bulk import of the cluster archive…');
    const imported = await evaluate<number>(kt, 'exportArchive');
    await evaluate(kt, 'resetCluster');
    await evaluate(kt, 'waitReady', '/kubetab/readyz');
    const importMs = await evaluate<number>(kt, 'importArchive');
    const readyMs = await evaluate<number>(kt, 'waitReady', '/kubetab/readyz');
    const floorBulkMs = await evaluate<number>(floor, 'floorBulk', N.bulk, N.objectSize);
    const importRate = imported / (importMs / 1000);
    const floorBulkRate = N.bulk / (floorBulkMs / 1000);
    rows.push({
      figure: `bulk import of 10,000 objects (cluster archive, ${imported.toLocaleString('en-US')} objects)`,
      kubetab: perSecond(importRate),
      floor: perSecond(floorBulkRate),
      ratio: ratio(importRate / floorBulkRate),
      target: '>= 0.70x',
      met: importRate / floorBulkRate >= 0.7,
    });
    raw.bulk = { imported, importMs, readyAfterImportMs: readyMs, floorBulkMs };
    await evaluate(kt, 'bulkImport', `${API}/namespaces/bench-1k/configmaps`, 'obj', 1000, N.objectSize, 32);

    // get of one object vs a fixed 200-byte JSON.
    console.log('get…');
    await post(kt, `${API}/namespaces/bench/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' }, data: { k: 'v' } });
    const getUrl = `${API}/namespaces/bench/configmaps/one`;
    await evaluate(kt, 'timeRequests', getUrl, 50);
    await evaluate(floor, 'timeRequests', '/floor/get', 50);
    const [getTimes, floorGetTimes] = await alternate(
      N.get / BATCH,
      () => evaluate<number[]>(kt, 'timeRequests', getUrl, BATCH),
      () => evaluate<number[]>(floor, 'timeRequests', '/floor/get', BATCH),
    );
    rows.push(p50Row('get one object (p50)', getTimes, floorGetTimes, 1.2));
    raw.get = { p50: p50(getTimes), p90: p90(getTimes), floorP50: p50(floorGetTimes), floorP90: p90(floorGetTimes) };

    // create vs the floor's one IndexedDB put.
    console.log('create…');
    await evaluate(kt, 'timeCreates', `${API}/namespaces/bench/configmaps`, 'warm', 20, 400);
    await evaluate(floor, 'timeCreates', '/floor/create', 'warm', 20, 400);
    const [createTimes, floorCreateTimes] = await alternate(
      N.create / BATCH,
      (round) => evaluate<number[]>(kt, 'timeCreates', `${API}/namespaces/bench/configmaps`, `create-${round}`, BATCH, 400),
      (round) => evaluate<number[]>(floor, 'timeCreates', '/floor/create', `create-${round}`, BATCH, 400),
    );
    rows.push(p50Row('create (p50)', createTimes, floorCreateTimes, 1.2));
    raw.create = { p50: p50(createTimes), p90: p90(createTimes), floorP50: p50(floorCreateTimes), floorP90: p90(floorCreateTimes) };

    // lists vs an equal pre-built body streamed in 64 KiB chunks, both JSON.parse'd by the page.
    for (const [label, ns, n] of [
      ['1,000', 'bench-1k', N.lists1k],
      ['10,000', 'bench-10k', N.lists10k],
    ] as const) {
      console.log(`list of ${label}…`);
      const url = `${API}/namespaces/${ns}/configmaps`;
      const bytes = await evaluate<number>(floor, 'prepareFloorList', await evaluate<string>(kt, 'fetchText', url), ns);
      await evaluate(kt, 'timeLists', url, 2);
      await evaluate(floor, 'timeLists', `/floor/list?id=${ns}`, 2);
      let items = 0;
      const [listTimes, floorListTimes] = await alternate(
        n,
        async () => {
          const list = await evaluate<{ times: number[]; items: number }>(kt, 'timeLists', url, 1);
          items = list.items;
          return list.times;
        },
        async () => (await evaluate<{ times: number[] }>(floor, 'timeLists', `/floor/list?id=${ns}`, 1)).times,
      );
      rows.push(p50Row(`list of ${label} (${items} × ~${Math.round(bytes / Math.max(1, items))} B, p50)`, listTimes, floorListTimes, 1.5));
      raw[`list-${ns}`] = { bytes, items, p50: p50(listTimes), floorP50: p50(floorListTimes), times: listTimes, floorTimes: floorListTimes };
    }

    // A watch event reaching another tab, after the response of the write that caused it.
    console.log('watch latency…');
    const watcher = await openPage(context, '/kubetab/bench.html');
    await watcher.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await evaluate(watcher, 'setAuth', auth);
    await evaluate(watcher, 'recordWatch', `${API}/namespaces/bench-watch/configmaps?watch=1`);
    await new Promise((r) => setTimeout(r, 300));
    const written = await evaluate<Record<string, number>>(kt, 'timedWrites', `${API}/namespaces/bench-watch/configmaps`, 'w', N.watch, 400, 10);
    await new Promise((r) => setTimeout(r, 300));
    const arrived = await evaluate<Record<string, number>>(watcher, 'arrivals');
    const lags = Object.entries(written).map(([name, at]) => (arrived[name] ?? Number.NaN) - at);
    const missing = lags.filter((lag) => Number.isNaN(lag)).length;
    const watchP50 = p50(lags.filter((lag) => !Number.isNaN(lag)));
    rows.push({
      figure: `watch event to another tab after the write's response (p50${missing ? `, ${missing} missing` : ''})`,
      kubetab: ms(watchP50),
      floor: '—',
      ratio: '—',
      target: '< 1 ms',
      met: watchP50 < 1 && missing === 0,
    });
    raw.watch = { p50: watchP50, p90: p90(lags.filter((lag) => !Number.isNaN(lag))), missing };
    await watcher.close();

    // msw's echo vs KubeTab's get, same run.
    console.log('msw echo…');
    await evaluate(msw, 'timeRequests', '/msw/echo', 50);
    const mswTimes = await evaluate<number[]>(msw, 'timeRequests', '/msw/echo', N.msw);
    rows.push({
      figure: "KubeTab's get vs msw's echo (p50)",
      kubetab: ms(p50(getTimes)),
      floor: `msw ${ms(p50(mswTimes))}`,
      ratio: ratio(p50(getTimes) / p50(mswTimes)),
      target: '< 1x (faster)',
      met: p50(getTimes) < p50(mswTimes),
    });
    raw.msw = { p50: p50(mswTimes) };

    // Cold start: the first response after the worker was stopped, with 11,000+ objects stored.
    console.log('cold start…');
    const cold: number[] = [];
    const floorCold: number[] = [];
    const sizedCold: number[] = [];
    for (let i = 0; i < N.cold; i++) {
      await stopAllWorkers(kt);
      cold.push(await evaluate<number>(kt, 'timeOne', getUrl));
      await stopAllWorkers(floor);
      floorCold.push(await evaluate<number>(floor, 'timeOne', '/floor/cold'));
      await stopAllWorkers(sized);
      sizedCold.push(await evaluate<number>(sized, 'timeOne', '/floor-sized/cold'));
    }
    rows.push(p50Row('first response after a cold start, 11,000+ objects stored (p50)', cold, floorCold, 1.5));
    // Not a target: the same floor worker with KubeTab's script appended as a function it never
    // calls. Chromium loads a worker's whole script (and its code cache) before the first line
    // runs, so this is the part of KubeTab's cold start that only the script's size explains.
    rows.push(p50Row("the floor's cold start carrying KubeTab's script, never run (p50)", sizedCold, floorCold, undefined, "none: the script's size alone"));
    raw.cold = { kubetab: cold, floor: floorCold, sizedFloor: sizedCold };
  } finally {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }

  console.log(`\nBrowser benchmark (headless Chromium, persistent profile${QUICK ? ', BENCH_QUICK' : ''}):\n`);
  console.log(table(rows));
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'browser.json'), JSON.stringify({ at: new Date().toISOString(), rows, raw }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
