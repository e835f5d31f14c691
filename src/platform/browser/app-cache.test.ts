import { describe, expect, it } from 'vitest';
import { AppCache, appVersion, cacheNamePrefix, sha256Hex, type AppFile } from './app-cache';

// Rule (issue 6, quality): the app opens offline after the first visit, under its
// base path; a newer version takes over without serving a mix of two builds.

/** An in-memory CacheStorage with the few methods the app cache uses. */
class MemoryCaches {
  readonly stores = new Map<string, Map<string, Response>>();
  async open(name: string) {
    let store = this.stores.get(name);
    if (!store) this.stores.set(name, (store = new Map()));
    const entries = store;
    return {
      match: async (url: string) => entries.get(url)?.clone(),
      put: async (url: string, response: Response) => void entries.set(url, response),
      keys: async () => [...entries.keys()].map((url) => new Request(url)),
    };
  }
  async keys() {
    return [...this.stores.keys()];
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
}

const SCOPE = 'https://example.test/kubetab/';

/** A static host: path → body; `requests` records what was fetched. */
function host(files: Record<string, string>) {
  const requests: string[] = [];
  let online = true;
  return {
    requests,
    files,
    setOnline(value: boolean) {
      online = value;
    },
    fetch: async (request: Request) => {
      requests.push(new URL(request.url).pathname);
      if (!online) throw new TypeError('Failed to fetch');
      const path = new URL(request.url).pathname.replace(/^\/[^/]+\//, ''); // below the scope's one-level base path
      const body = files[path];
      if (body === undefined) return new Response('not found', { status: 404 });
      return new Response(body, { headers: { 'content-type': path.endsWith('.html') ? 'text/html' : 'text/javascript' } });
    },
  };
}

async function manifest(files: Record<string, string>): Promise<AppFile[]> {
  return Promise.all(Object.entries(files).map(async ([path, body]) => ({ path, sha256: await sha256Hex(new TextEncoder().encode(body)) })));
}

const V1 = { 'index.html': '<script src="assets/index-a.js"></script>', 'assets/index-a.js': 'console.log(1)', 'assets/editor-a.js': 'editor 1' };
const V2 = { 'index.html': '<script src="assets/index-b.js"></script>', 'assets/index-b.js': 'console.log(2)', 'assets/editor-a.js': 'editor 1' };

function get(path: string, mode: RequestMode = 'cors'): Request {
  // `mode: 'navigate'` cannot be set on a constructed Request; a navigation is told apart only by the path here.
  return new Request(new URL(path, SCOPE), { mode: mode === 'navigate' ? 'same-origin' : mode });
}

describe('app cache', () => {
  it('installs every file of the build and then serves them with no network (offline)', async () => {
    const caches = new MemoryCaches();
    const site = host({ ...V1 });
    const cache = new AppCache({ scope: SCOPE, files: await manifest(V1), caches: caches as unknown as CacheStorage, fetch: site.fetch });
    await cache.install();
    expect(await cache.missing()).toEqual([]);

    site.setOnline(false);
    const page = await cache.respond(get(''), '/');
    expect(await page!.text()).toBe(V1['index.html']);
    expect(page!.headers.get('content-type')).toBe('text/html');
    expect(await (await cache.respond(get('assets/index-a.js'), '/assets/index-a.js'))!.text()).toBe('console.log(1)');
    expect(await (await cache.respond(get('index.html?x=1'), '/index.html'))!.text()).toBe(V1['index.html']);
  });

  it('leaves files outside the build and non-GET requests to the network', async () => {
    const cache = new AppCache({ scope: SCOPE, files: await manifest(V1), caches: new MemoryCaches() as unknown as CacheStorage, fetch: host(V1).fetch });
    expect(cache.respond(get('sw.js'), '/sw.js')).toBeUndefined();
    expect(cache.respond(get('assets/other.js'), '/assets/other.js')).toBeUndefined();
    expect(cache.respond(new Request(new URL('index.html', SCOPE), { method: 'POST', body: 'x' }), '/index.html')).toBeUndefined();
  });

  it('an install fails, storing nothing of a file, when the host has other bytes than the build listed (no mix of versions)', async () => {
    const caches = new MemoryCaches();
    // The host still serves the old index.html while the new worker installs (a stale CDN).
    const site = host({ ...V2, 'index.html': V1['index.html'] });
    const cache = new AppCache({ scope: SCOPE, files: await manifest(V2), caches: caches as unknown as CacheStorage, fetch: site.fetch });
    await expect(cache.install()).rejects.toThrow(/index\.html: its bytes are not this version's/);
    expect(await caches.keys()).toEqual([]);
  });

  it('a miss goes to the network once and stores the verified file; a mismatching one is served but not stored', async () => {
    const caches = new MemoryCaches();
    const site = host({ ...V1 });
    const cache = new AppCache({ scope: SCOPE, files: await manifest(V1), caches: caches as unknown as CacheStorage, fetch: site.fetch });
    const [a, b] = await Promise.all([cache.respond(get('assets/editor-a.js'), 'assets/editor-a.js'), cache.respond(get('assets/editor-a.js'), 'assets/editor-a.js')]);
    expect([await a!.text(), await b!.text()]).toEqual(['editor 1', 'editor 1']);
    expect(site.requests.filter((p) => p.endsWith('editor-a.js'))).toHaveLength(1);
    expect(await cache.missing()).not.toContain('assets/editor-a.js');

    site.files['assets/index-a.js'] = 'changed on the host';
    expect(await (await cache.respond(get('assets/index-a.js'), 'assets/index-a.js'))!.text()).toBe('changed on the host');
    expect(await cache.missing()).toContain('assets/index-a.js');
  });

  it('fill() stores what it can and never rejects (the first visit, possibly cut short)', async () => {
    const site = host({ 'index.html': V1['index.html'], 'assets/index-a.js': V1['assets/index-a.js'] });
    const cache = new AppCache({ scope: SCOPE, files: await manifest(V1), caches: new MemoryCaches() as unknown as CacheStorage, fetch: site.fetch });
    await cache.fill();
    expect(await cache.missing()).toEqual(['assets/editor-a.js']);
  });

  it('a new version gets its own cache; activating it removes the old version of the same scope only', async () => {
    const caches = new MemoryCaches();
    const v1 = new AppCache({ scope: SCOPE, files: await manifest(V1), caches: caches as unknown as CacheStorage, fetch: host(V1).fetch });
    await v1.install();
    const otherApp = new AppCache({ scope: 'https://example.test/other/', files: await manifest(V1), caches: caches as unknown as CacheStorage, fetch: host(V1).fetch });
    await otherApp.install();
    const v2 = new AppCache({ scope: SCOPE, files: await manifest(V2), caches: caches as unknown as CacheStorage, fetch: host(V2).fetch });
    await v2.install();
    expect(await v2.cacheName()).not.toBe(await v1.cacheName());
    expect(await v2.removeOtherVersions()).toEqual([await v1.cacheName()]);
    expect(new Set(await caches.keys())).toEqual(new Set([await otherApp.cacheName(), await v2.cacheName()]));
    // The new version serves the new page, not the old one.
    expect(await (await v2.respond(get(''), ''))!.text()).toBe(V2['index.html']);
  });

  it('names versions by the file list', async () => {
    expect(await appVersion(await manifest(V1))).toBe(await appVersion((await manifest(V1)).reverse()));
    expect(await appVersion(await manifest(V1))).not.toBe(await appVersion(await manifest(V2)));
    expect(cacheNamePrefix(SCOPE)).toBe('kubetab-app /kubetab/ ');
  });
});
