// The app's own files (index.html, the page's chunks, Monaco and its workers),
// kept by the service worker in the Cache API so that the app opens offline
// after the first visit. The build lists every file it wrote with the SHA-256
// of its bytes (vite.config.ts, decision 0200); that list is compiled into
// sw.js, so a new build is a new worker version for the browser.
//
// One cache per version of the app: a worker serves only from its own
// version's cache, and a file is stored only when its bytes match the list, so
// a page never gets a mix of two builds from the cache. An update installs its
// whole cache before it takes over (install()); the first visit cannot wait for
// that (the page waits for the worker), so it fills in the background (fill()).

/** One file of the build, its path relative to the base path ('index.html', 'assets/index-abc.js'). */
export interface AppFile {
  readonly path: string;
  readonly sha256: string;
}

export interface AppCacheOptions {
  /** The worker's scope (registration.scope), ending in '/'. */
  readonly scope: string;
  readonly files: readonly AppFile[];
  readonly caches: CacheStorage;
  readonly fetch: (request: Request) => Promise<Response>;
}

const CACHE_PREFIX = 'kubetab-app';

/** Lower-case hex SHA-256 of some bytes. */
export async function sha256Hex(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The version of a build: a digest of its file list, so any changed file makes another version. */
export async function appVersion(files: readonly AppFile[]): Promise<string> {
  const lines = files.map((f) => `${f.path} ${f.sha256}\n`).sort();
  return (await sha256Hex(new TextEncoder().encode(lines.join('')))).slice(0, 16);
}

/** The caches of one scope share a prefix: two apps under different base paths of an origin keep apart. */
export function cacheNamePrefix(scope: string): string {
  return `${CACHE_PREFIX} ${new URL(scope).pathname} `;
}

/** The host answered with other bytes than this version's (a newer deployment); they are kept to be served unstored. */
class MismatchError extends Error {
  constructor(
    message: string,
    readonly bytes: ArrayBuffer,
    readonly headers: Headers,
  ) {
    super(message);
  }
}

export class AppCache {
  private readonly byPath: ReadonlyMap<string, AppFile>;
  private readonly name: Promise<string>;
  private readonly loading = new Map<string, Promise<Response>>();
  private filling: Promise<void> | undefined;
  private filledOnce = false;

  constructor(private readonly options: AppCacheOptions) {
    this.byPath = new Map(options.files.map((f) => [f.path, f]));
    this.name = appVersion(options.files).then((version) => cacheNamePrefix(options.scope) + version);
  }

  /** This version's cache name ('kubetab-app /kubetab/ 0123abcd…'). */
  cacheName(): Promise<string> {
    return this.name;
  }

  /**
   * The answer to a GET under the scope that is not the API's: the app's file
   * from this version's cache (the network on a miss), or undefined for
   * anything that is not one of the build's files (left to the network).
   * `path` is relative to the base path, with or without its leading '/'.
   */
  respond(request: Request, path: string): Promise<Response> | undefined {
    if (request.method !== 'GET') return undefined;
    let file = path.replace(/^\//, '');
    // The base path itself is the app's page (a navigation, or a fetch of './').
    if (file === '') file = 'index.html';
    if (!this.byPath.has(file)) return undefined;
    return this.serve(file);
  }

  /**
   * Stores every missing file, each verified; rejects on the first that cannot
   * be (an update's install: all or nothing), leaving no half-filled cache behind.
   */
  async install(): Promise<void> {
    try {
      await this.complete(true);
    } catch (error) {
      await this.options.caches.delete(await this.name);
      throw error;
    }
  }

  /**
   * The first time in this worker's life: fill() (a worker stopped half-way
   * through its first visit's fill finishes it when it starts again); later,
   * a settled promise. For a fetch event's waitUntil, which keeps the worker alive.
   */
  fillOnce(): Promise<void> {
    if (this.filledOnce) return Promise.resolve();
    this.filledOnce = true;
    return this.fill();
  }

  /** Stores what it can of the missing files (the first visit, or a fill cut short); never rejects. */
  fill(): Promise<void> {
    this.filling ??= this.complete(false)
      .catch((error: unknown) => console.warn('KubeTab: the app could not be stored for offline use:', error))
      .finally(() => {
      this.filling = undefined;
    });
    return this.filling;
  }

  /** Deletes the caches of this scope's other versions; returns their names. */
  async removeOtherVersions(): Promise<string[]> {
    const current = await this.name;
    const prefix = cacheNamePrefix(this.options.scope);
    const others = (await this.options.caches.keys()).filter((name) => name.startsWith(prefix) && name !== current);
    await Promise.all(others.map((name) => this.options.caches.delete(name)));
    return others;
  }

  /** The paths of this version's files not yet in its cache. */
  async missing(): Promise<string[]> {
    const cache = await this.options.caches.open(await this.name);
    const present = new Set((await cache.keys()).map((request) => new URL(request.url).href));
    return this.options.files.map((f) => f.path).filter((path) => !present.has(this.url(path)));
  }

  private url(path: string): string {
    return new URL(path, this.options.scope).href;
  }

  private async complete(strict: boolean): Promise<void> {
    const missing = await this.missing();
    // A few at a time: the page is loading too, and a host may limit connections.
    const queue = [...missing];
    const failures: string[] = [];
    const worker = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        try {
          await this.load(path, true);
        } catch (error) {
          failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
          if (strict) queue.length = 0;
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    if (strict && failures.length) throw new Error(`the app's files could not all be stored (${failures.join('; ')})`);
  }

  private async serve(path: string): Promise<Response> {
    const cache = await this.options.caches.open(await this.name);
    const hit = await cache.match(this.url(path));
    if (hit) return hit;
    try {
      return await this.load(path, false);
    } catch (error) {
      // The host has other bytes than this version's (a newer deployment): the
      // network's answer as it is, not stored. Anything else is a network error.
      if (error instanceof MismatchError) return new Response(error.bytes.slice(0), { status: 200, headers: error.headers });
      throw error;
    }
  }

  /**
   * Fetches one file, checks its bytes against the list and stores it. Loads
   * of one path share one fetch (a page's request and the fill's).
   */
  private load(path: string, revalidate: boolean): Promise<Response> {
    let pending = this.loading.get(path);
    if (!pending) {
      pending = this.fetchVerified(path, revalidate).finally(() => this.loading.delete(path));
      this.loading.set(path, pending);
    }
    return pending.then((response) => response.clone());
  }

  private async fetchVerified(path: string, revalidate: boolean): Promise<Response> {
    const expected = this.byPath.get(path)!;
    // 'no-cache': ask the host (a 304 is cheap), so that an HTTP cache's stale copy of index.html is not taken for this version's.
    const response = await this.options.fetch(new Request(this.url(path), { cache: revalidate ? 'no-cache' : 'default', credentials: 'same-origin' }));
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
    const bytes = await response.arrayBuffer();
    const actual = await sha256Hex(bytes);
    if (actual !== expected.sha256) {
      throw new MismatchError(`its bytes are not this version's (sha256 ${actual.slice(0, 12)}…, expected ${expected.sha256.slice(0, 12)}…)`, bytes, storedHeaders(response.headers));
    }
    // A fresh response: one that came through a redirect may not answer a navigation.
    const stored = new Response(bytes, { status: 200, headers: storedHeaders(response.headers) });
    const cache = await this.options.caches.open(await this.name);
    await cache.put(this.url(path), stored.clone());
    return stored;
  }
}

/** The headers worth keeping with a stored file. */
function storedHeaders(headers: Headers): Headers {
  const kept = new Headers();
  for (const name of ['content-type', 'content-language']) {
    const value = headers.get(name);
    if (value) kept.set(name, value);
  }
  return kept;
}

// The build's file list, compiled into sw.js by vite.config.ts; empty under the
// dev server, whose files change on every edit (nothing is cached there).
declare const __KUBETAB_APP_FILES__: readonly AppFile[] | undefined;

/** The worker's app cache for the build's files, or undefined when there is no build (dev server). */
export function createAppCache(scope: string): AppCache | undefined {
  const files = typeof __KUBETAB_APP_FILES__ === 'undefined' ? [] : __KUBETAB_APP_FILES__;
  if (files.length === 0) return undefined;
  return new AppCache({ scope, files, caches, fetch: (request) => fetch(request) });
}
