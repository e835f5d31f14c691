// The benchmark's floor: a bare service worker of the same origin as KubeTab's,
// doing the least a worker can do for each figure. KubeTab's figures are
// divided by these.
//
//   GET  /floor/get            a fixed 200-byte JSON
//   POST /floor/create         reads the body, one IndexedDB put transaction, answers 201 with the body
//   POST /floor/prepare?id=X   keeps the request body in memory as the pre-built list body X
//   GET  /floor/list?id=X      streams body X in 64 KiB chunks
//   GET  /floor/cold           one IndexedDB get, then a fixed 200-byte JSON (first response after a cold start)
//   POST /floor/bulk?n=N&size=S  writes N objects of S bytes in transactions of 1,000 puts; answers the elapsed ms
//
// The same worker also runs under /floor-sized/, with KubeTab's whole script appended as a
// function it never calls: its cold start shows what the size of KubeTab's script alone costs.
// Each scope answers its own paths and keeps its own database.

interface FetchEventLike extends Event {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
  waitUntil(promise: Promise<unknown>): void;
}
interface FloorGlobal {
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, listener: (event: FetchEventLike) => void): void;
}
const sw = self as unknown as FloorGlobal;
/** The scope's path ('/floor/', '/floor-sized/'). */
const SCOPE = new URL(sw.registration.scope).pathname;

/** Exactly 200 bytes of JSON. */
const FIXED_200 = (() => {
  const head = '{"kind":"Floor","apiVersion":"v1","metadata":{"name":"floor"},"data":{"pad":"';
  const tail = '"}}';
  return head + 'x'.repeat(200 - head.length - tail.length) + tail;
})();
const CHUNK = 64 * 1024;
const JSON_HEADERS = { 'content-type': 'application/json' };
const prepared = new Map<string, Uint8Array>();

let db: Promise<IDBDatabase> | undefined;
function openDb(): Promise<IDBDatabase> {
  db ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(`floor:${SCOPE}`, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('objects');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return db;
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

async function put(key: string, value: string): Promise<void> {
  const tx = (await openDb()).transaction('objects', 'readwrite');
  tx.objectStore('objects').put(value, key);
  await done(tx);
}

async function getOne(key: string): Promise<unknown> {
  const tx = (await openDb()).transaction('objects', 'readonly');
  const request = tx.objectStore('objects').get(key);
  await done(tx);
  return request.result;
}

function streamed(bytes: Uint8Array): Response {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.subarray(offset, offset + CHUNK));
      offset += CHUNK;
    },
  });
  return new Response(body, { headers: JSON_HEADERS });
}

async function bulk(n: number, size: number): Promise<Response> {
  const value = JSON.stringify({ data: { pad: 'y'.repeat(Math.max(0, size - 20)) } });
  const database = await openDb();
  const started = performance.now();
  for (let i = 0; i < n; i += 1000) {
    const tx = database.transaction('objects', 'readwrite');
    const store = tx.objectStore('objects');
    for (let j = i; j < Math.min(n, i + 1000); j++) store.put(value.replace('"data"', `"n":${j},"data"`), `bulk-${j}`);
    await done(tx);
  }
  const elapsed = performance.now() - started;
  return new Response(JSON.stringify({ elapsedMs: elapsed, objects: n }), { headers: JSON_HEADERS });
}

async function answer(request: Request, url: URL): Promise<Response> {
  switch (url.pathname.slice(SCOPE.length)) {
    case 'get':
      return new Response(FIXED_200, { headers: JSON_HEADERS });
    case 'create': {
      const body = await request.text();
      await put(`create-${Math.random()}`, body);
      return new Response(body, { status: 201, headers: JSON_HEADERS });
    }
    case 'prepare':
      prepared.set(url.searchParams.get('id') ?? '', new Uint8Array(await request.arrayBuffer()));
      return new Response('{}', { headers: JSON_HEADERS });
    case 'list': {
      const bytes = prepared.get(url.searchParams.get('id') ?? '');
      if (!bytes) return new Response('{"error":"not prepared"}', { status: 404, headers: JSON_HEADERS });
      return streamed(bytes);
    }
    case 'cold':
      await getOne('cold');
      return new Response(FIXED_200, { headers: JSON_HEADERS });
    case 'bulk':
      return bulk(Number(url.searchParams.get('n') ?? 10000), Number(url.searchParams.get('size') ?? 2048));
    default:
      return new Response('{"error":"unknown floor path"}', { status: 404, headers: JSON_HEADERS });
  }
}

sw.addEventListener('install', (event) => event.waitUntil(sw.skipWaiting()));
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim().then(() => put('cold', FIXED_200))));
sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== location.origin || !url.pathname.startsWith(SCOPE) || url.pathname.endsWith('.html') || url.pathname.endsWith('.js')) return;
  event.respondWith(answer(event.request, url));
});
