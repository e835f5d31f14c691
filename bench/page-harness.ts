// Measurement code that runs inside the benchmark's pages (bundled and loaded
// by bench/bench.html). Each function does the work a client does — fetch,
// read the body, parse it — and returns raw timings; the driver computes the
// statistics. Times are performance.now() milliseconds; `at` values are
// absolute (timeOrigin + now) so that two tabs can be compared.

declare global {
  interface Window {
    bench: typeof bench;
    MockServiceWorker?: any;
  }
}

function now(): number {
  return performance.now();
}

/**
 * Sent with every request: the administrator's credentials (the cluster is
 * secure by default), and to the floor worker too, so both carry the same
 * header bytes (the floor ignores it).
 */
let auth: Record<string, string> = {};

/** A page→worker message and its answer (src/platform/browser/messages.ts). */
async function askWorker<T>(message: Record<string, unknown>, transfer: Transferable[] = []): Promise<T> {
  const worker = navigator.serviceWorker.controller ?? (await navigator.serviceWorker.ready).active;
  if (!worker) throw new Error('no service worker');
  const channel = new MessageChannel();
  const reply = new Promise<{ ok: boolean; value?: T; error?: string }>((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data);
  });
  worker.postMessage(message, [channel.port2, ...transfer]);
  const answer = await reply;
  if (!answer.ok) throw new Error(answer.error);
  return answer.value as T;
}

/** The archive file exportArchive kept, for importArchive (it stays in the page: 20 MB need not go to the driver). */
let archive: Blob | undefined;

function absolute(): number {
  return performance.timeOrigin + performance.now();
}

/** A ConfigMap of about `size` bytes of JSON. */
function configMap(name: string, size: number): string {
  const skeleton = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { bench: 'kubetab' } }, data: { payload: '' } });
  return skeleton.replace('"payload":""', `"payload":"${'p'.repeat(Math.max(0, size - skeleton.length - 120))}"`);
}

async function untilControlled(): Promise<void> {
  if (navigator.serviceWorker.controller) return;
  await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
}

const bench = {
  /** True when the page is cross-origin isolated (fine-grained timers). */
  isolated(): boolean {
    return globalThis.crossOriginIsolated === true;
  },

  /** Registers a worker for this page's scope and waits for control. */
  async register(scriptUrl: string, scope: string): Promise<void> {
    const controlled = untilControlled();
    const registration = await navigator.serviceWorker.register(scriptUrl, { scope });
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) registration.active?.postMessage({ type: 'kubetab:claim' });
    await controlled;
  },

  /** Asks KubeTab's worker for its administrator's token and sends it from now on; returns whether there is one. */
  async useAdministrator(): Promise<boolean> {
    const state = await askWorker<{ administrator?: { token: string } }>({ type: 'kubetab:configuration:get' });
    auth = state.administrator ? { authorization: `Bearer ${state.administrator.token}` } : {};
    return state.administrator !== undefined;
  },

  /** Sends these credentials from now on (a page that was not registered itself). */
  setAuth(headers: Record<string, string>): void {
    auth = headers;
  },

  auth(): Record<string, string> {
    return auth;
  },

  /** Exports the cluster (its file kept in the page for importArchive); returns its number of stored objects. */
  async exportArchive(): Promise<number> {
    const exported = await askWorker<{ file: Blob; keys: number }>({ type: 'kubetab:cluster:export' });
    archive = exported.file;
    return exported.keys;
  },

  /** Wipes the cluster (it bootstraps again, same configuration and administrator). */
  async resetCluster(): Promise<void> {
    await askWorker({ type: 'kubetab:cluster:reset', configuration: 'keep' });
  },

  /** Imports the exported archive file, as the UI imports a user's file (the whole cluster is replaced by it); returns the elapsed ms. */
  async importArchive(): Promise<number> {
    if (!archive) throw new Error('nothing exported');
    const started = now();
    await askWorker({ type: 'kubetab:cluster:import', file: archive });
    return now() - started;
  },

  /** Polls url until it answers 200 (readiness after a restart of the core). */
  async waitReady(url: string, timeoutMs = 60_000): Promise<number> {
    const started = now();
    while (now() - started < timeoutMs) {
      const response = await fetch(url, { headers: { ...auth } });
      await response.arrayBuffer();
      if (response.ok) return now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${url} not ready within ${timeoutMs} ms`);
  },

  /** Starts msw in this page with one echo handler (msw's own worker script). */
  async startMsw(workerUrl: string, scope: string): Promise<void> {
    const { setupWorker, http, HttpResponse } = window.MockServiceWorker;
    const body = JSON.parse('{"kind":"Echo","apiVersion":"v1","metadata":{"name":"echo"},"data":{"pad":"' + 'x'.repeat(120) + '"}}');
    const worker = setupWorker(http.get('/msw/echo', () => HttpResponse.json(body)));
    await worker.start({ serviceWorker: { url: workerUrl, options: { scope } }, quiet: true, onUnhandledRequest: 'bypass' });
    await untilControlled();
  },

  /** `n` sequential requests; each timing covers fetch and reading the whole body. */
  async timeRequests(url: string, n: number, method = 'GET'): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = now();
      const response = await fetch(url, { method, headers: { accept: 'application/json', ...auth } });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status}`);
      times.push(now() - started);
    }
    return times;
  },

  /** `n` sequential creates of ~size-byte ConfigMaps named prefix-i. */
  async timeCreates(url: string, prefix: string, n: number, size: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const body = configMap(`${prefix}-${i}`, size);
      const started = now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...auth }, body });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`POST ${url}: HTTP ${response.status}`);
      times.push(now() - started);
    }
    return times;
  },

  /** `n` sequential lists: fetch, read and JSON.parse the body, as a client does. Returns timings and the body size. */
  async timeLists(url: string, n: number): Promise<{ times: number[]; bytes: number; items: number }> {
    const times: number[] = [];
    let bytes = 0;
    let items = 0;
    for (let i = 0; i < n; i++) {
      const started = now();
      const response = await fetch(url, { headers: { accept: 'application/json', ...auth } });
      const text = await response.text();
      const parsed = JSON.parse(text);
      times.push(now() - started);
      bytes = text.length;
      items = parsed.items?.length ?? 0;
    }
    return { times, bytes, items };
  },

  /** The body of `url`, as text (to hand to the floor worker). */
  async fetchText(url: string): Promise<string> {
    return (await fetch(url, { headers: { accept: 'application/json', ...auth } })).text();
  },

  /** Gives the floor worker `text` as its pre-built list `id` (an equal body). */
  async prepareFloorList(text: string, id: string): Promise<number> {
    await fetch(`/floor/prepare?id=${encodeURIComponent(id)}`, { method: 'POST', body: text });
    return text.length;
  },

  /** Creates `count` ~size-byte ConfigMaps with `concurrency` requests in flight; returns the elapsed ms. */
  async bulkImport(url: string, prefix: string, count: number, size: number, concurrency: number): Promise<number> {
    let next = 0;
    const started = now();
    const lane = async () => {
      while (next < count) {
        const i = next++;
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...auth },
          body: configMap(`${prefix}-${String(i).padStart(5, '0')}`, size),
        });
        await response.arrayBuffer();
        if (response.status !== 201) throw new Error(`POST ${url}: HTTP ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    return now() - started;
  },

  /** The floor's bulk write, timed inside the worker. */
  async floorBulk(count: number, size: number): Promise<number> {
    const response = await fetch(`/floor/bulk?n=${count}&size=${size}`, { method: 'POST' });
    return ((await response.json()) as { elapsedMs: number }).elapsedMs;
  },

  /** Opens a watch and records, per object name, the absolute time its event was parsed. */
  async recordWatch(url: string): Promise<void> {
    const arrivals: Record<string, number> = {};
    (window as any).__arrivals = arrivals;
    const response = await fetch(url, { headers: { accept: 'application/json', ...auth } });
    if (!response.ok) throw new Error(`watch ${url}: HTTP ${response.status}`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          const event = JSON.parse(line);
          const name = event.object?.metadata?.name;
          if (name && event.type === 'ADDED') arrivals[name] = absolute();
        }
      }
    })();
  },

  arrivals(): Record<string, number> {
    return (window as any).__arrivals ?? {};
  },

  /** Sequential creates, recording the absolute time each response was read. */
  async timedWrites(url: string, prefix: string, n: number, size: number, gapMs: number): Promise<Record<string, number>> {
    const done: Record<string, number> = {};
    for (let i = 0; i < n; i++) {
      const name = `${prefix}-${i}`;
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...auth }, body: configMap(name, size) });
      await response.arrayBuffer();
      done[name] = absolute();
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    return done;
  },

  /** One request, timed (the first after a cold start). */
  async timeOne(url: string): Promise<number> {
    const started = now();
    const response = await fetch(url, { headers: { accept: 'application/json', ...auth } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
    return now() - started;
  },
};

window.bench = bench;
export {};
