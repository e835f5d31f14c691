// kubetab/playwright: Playwright's `test` with a `kube` fixture
// (docs/embedding.md, "The Playwright fixture").
//
//   import { test, expect } from 'kubetab/playwright';
//   test('scales', async ({ page, kube }) => { await kube.apply(yaml); await page.goto('/'); … });
//
// Two modes (the `kubeMode` option, per project):
// - 'node' (default): one KubeTab server per Playwright worker (startKubeTab),
//   put back to its first state before each test (restore of a snapshot,
//   milliseconds without controllers). The page learns the server's URL and
//   token from `window.__KUBETAB__`, set before the app's scripts run; the
//   server allows the localhost origins by CORS. Tools the test runs get
//   KUBECONFIG in process.env.
// - 'service-worker': the cluster runs in the page's own service worker
//   (kubetab/worker): the fixture registers kubetab-worker.js for the page
//   before the app's scripts run and `window.__KUBETAB__.ready` resolves once
//   it answers. Each test has a new browser context, so a new cluster.
//
// The `kube` helpers have the same shape in both modes (async).

import { test as base, expect } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startKubeTab, type KubeTab, type KubeTabOptions, type KubeTabSnapshot, type FaultSpec, type InjectedFault, type KubeObject } from '../server/index';
import type { KubeTabWorkerOptions } from '../worker/index';

export { expect };
export type { KubeObject, FaultSpec, InjectedFault, KubeTabOptions, KubeTabWorkerOptions };

export type KubeMode = 'node' | 'service-worker';

/** What `window.__KUBETAB__` holds for the app under test (set before its scripts run). */
export interface KubeTabPageHook {
  readonly mode: KubeMode;
  /** The API server's URL for the app: the Node server's, or origin + API base of the worker. */
  server: string;
  /** The administrator's bearer token; undefined when the cluster is open. */
  token: string | undefined;
  /** Resolves (with this hook) once the cluster answers; await it before the first request. */
  readonly ready: Promise<KubeTabPageHook>;
}

/** The `kube` fixture: the cluster the test's page talks to. */
export interface KubeFixture {
  readonly mode: KubeMode;
  /** The URL the page's app uses (Node: the server; worker: origin + API base, known once the page has loaded). */
  readonly url: string;
  readonly token: string | undefined;
  /** Environment for tools the test runs (Node mode: { KUBECONFIG }, also set in process.env during the test; worker mode: {}). */
  readonly env: Readonly<Record<string, string>>;
  /** Node mode: the server itself (waitFor, idle, users, kubeconfig…). */
  readonly server: KubeTab | undefined;
  apply(input: string | KubeObject | readonly KubeObject[]): Promise<KubeObject[]>;
  get(ref: { apiVersion?: string; kind: string; name: string; namespace?: string }): Promise<KubeObject | undefined>;
  list(query: { apiVersion?: string; kind: string; namespace?: string; labelSelector?: string; fieldSelector?: string }): Promise<KubeObject[]>;
  delete(ref: { apiVersion?: string; kind: string; name: string; namespace?: string }): Promise<boolean>;
  snapshot(): Promise<unknown>;
  restore(snapshot: unknown): Promise<void>;
  advanceClock(ms: number): Promise<void>;
  readonly faults: {
    add(spec: FaultSpec): Promise<InjectedFault>;
    list(): Promise<InjectedFault[]>;
    remove(id: string): Promise<boolean>;
    clear(): Promise<void>;
  };
}

export interface KubeTabTestOptions {
  /** 'node' (default) or 'service-worker'. */
  kubeMode: KubeMode;
  /** Node mode: startKubeTab's options (default: open, no controllers' wait beyond the defaults, CORS for localhost and 127.0.0.1). */
  kubeOptions: KubeTabOptions;
  /** Objects (YAML or a list) in the cluster before each test. */
  kubeSeed: string | readonly KubeObject[] | undefined;
  /** Service-worker mode: startKubeTabWorker's options (default: /kubetab-worker.js, open, in memory). */
  kubeWorker: Omit<KubeTabWorkerOptions, 'seed'>;
}

interface WorkerFixtures extends Pick<KubeTabTestOptions, 'kubeMode' | 'kubeOptions' | 'kubeSeed'> {
  kubeServer: { server: KubeTab; base: KubeTabSnapshot; restoreBeforeNext: { value: boolean } } | undefined;
}

const LOCAL_ORIGINS = ['^https?://(localhost|127\\.0\\.0\\.1|\\[::1\\])(:|$)'];

/** The page API as a classic script (dist/package/worker.global.js), for an init script. */
function pageApiSource(): string {
  const candidates = [new URL('./worker.global.js', import.meta.url), new URL('../../../dist/package/worker.global.js', import.meta.url)];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error('kubetab/playwright: worker.global.js is missing (in the KubeTab repository, run `npm run build:package` or `node scripts/build-worker.mjs`)');
}

/** Runs in the page before its scripts: registers the worker and sets window.__KUBETAB__ (the page API comes as an argument: Playwright runs an init script's text inside a function, so its globals are not the page's). */
function installWorkerHook(api: { startKubeTabWorker(o: KubeTabWorkerOptions): Promise<{ server: string; token: string | undefined }> }, options: KubeTabWorkerOptions): void {
  if (window !== window.top) return;
  const start = api.startKubeTabWorker;
  const base = (options.apiBase ?? '').replace(/\/+$/, '');
  const hook = { mode: 'service-worker', server: location.origin + base, token: undefined as string | undefined, worker: undefined as unknown, ready: undefined as unknown };
  hook.ready = start(options).then((worker) => {
    hook.worker = worker;
    hook.server = worker.server;
    hook.token = worker.token;
    return hook;
  });
  (hook.ready as Promise<unknown>).catch((error: unknown) => console.error(error));
  (window as unknown as { __KUBETAB__: unknown }).__KUBETAB__ = hook;
}

/** Runs in the page before its scripts (Node mode): window.__KUBETAB__ with the server's URL and token. */
function installNodeHook(values: { server: string; token: string | undefined }): void {
  const hook = { mode: 'node', server: values.server, token: values.token, ready: undefined as unknown };
  hook.ready = Promise.resolve(hook);
  (window as unknown as { __KUBETAB__: unknown }).__KUBETAB__ = hook;
}

export const test = base.extend<Pick<KubeTabTestOptions, 'kubeWorker'> & { kube: KubeFixture }, WorkerFixtures>({
  kubeMode: ['node', { scope: 'worker', option: true }],
  kubeOptions: [{ open: true, corsAllowedOrigins: LOCAL_ORIGINS }, { scope: 'worker', option: true }],
  kubeSeed: [undefined, { scope: 'worker', option: true }],
  kubeWorker: [{ url: '/kubetab-worker.js', open: true, persist: 'memory' }, { option: true }],

  kubeServer: [
    async ({ kubeMode, kubeOptions, kubeSeed }, use) => {
      if (kubeMode !== 'node') return use(undefined);
      const server = await startKubeTab(kubeOptions);
      try {
        if (kubeSeed !== undefined) await server.apply(kubeSeed);
        const base = await server.snapshot();
        await use({ server, base, restoreBeforeNext: { value: false } });
      } finally {
        await server.close();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  page: async ({ page, kubeMode, kubeServer, kubeWorker, kubeSeed }, use, testInfo) => {
    if (kubeMode === 'node') {
      const server = kubeServer!.server;
      await page.addInitScript(installNodeHook, { server: server.url, token: server.token });
    } else {
      if (testInfo.project.use.serviceWorkers === 'block') throw new Error("kubetab/playwright: the service-worker mode needs serviceWorkers: 'allow' (this project blocks them)");
      const options: KubeTabWorkerOptions = { ...kubeWorker, ...(kubeSeed !== undefined ? { seed: kubeSeed } : {}) };
      await page.addInitScript({ content: `${pageApiSource()}\n;(${installWorkerHook.toString()})(KubeTabWorker, ${JSON.stringify(options)});` });
    }
    await use(page);
  },

  kube: async ({ page, kubeMode, kubeServer }, use) => {
    if (kubeMode === 'node') {
      const { server, base, restoreBeforeNext } = kubeServer!;
      // The first test gets the server as it started; each later one the same state again.
      if (restoreBeforeNext.value) await server.restore(base);
      restoreBeforeNext.value = true;
      const saved = process.env.KUBECONFIG;
      process.env.KUBECONFIG = server.kubeconfigPath;
      try {
        await use({
          mode: 'node',
          url: server.url,
          token: server.token,
          env: server.env,
          server,
          apply: (input) => server.apply(input),
          get: (ref) => server.get(ref),
          list: (query) => server.list(query),
          delete: (ref) => server.delete(ref),
          snapshot: () => server.snapshot(),
          restore: (snapshot) => server.restore(snapshot as KubeTabSnapshot),
          advanceClock: async (ms) => server.advanceClock(ms),
          faults: {
            add: async (spec) => server.faults.add(spec),
            list: async () => server.faults.list(),
            remove: async (id) => server.faults.remove(id),
            clear: async () => server.faults.clear(),
          },
        });
      } finally {
        server.faults.clear();
        if (saved === undefined) delete process.env.KUBECONFIG;
        else process.env.KUBECONFIG = saved;
      }
      return;
    }

    // Service-worker mode: the cluster lives in the page; each helper runs the page API there.
    let url = '';
    let token: string | undefined;
    const call = async (method: string, ...args: unknown[]): Promise<unknown> => {
      if (page.url() === 'about:blank') throw new Error(`kube.${method}: in the service-worker mode the cluster lives in the page: open the app first (page.goto)`);
      const answer = await page.evaluate(
        async ([name, list]) => {
          const hook = (window as unknown as { __KUBETAB__?: { ready: Promise<{ worker: Record<string, unknown>; server: string; token?: string }> } }).__KUBETAB__;
          if (!hook) throw new Error('this page has no window.__KUBETAB__: it is not a page of the app the fixture set up');
          const ready = await hook.ready;
          const [head, tail] = (name as string).split('.');
          const target = (tail ? ready.worker[head!] : ready.worker) as Record<string, (...a: unknown[]) => unknown>;
          const value = await target[tail ?? head!]!(...(list as unknown[]));
          return { value, server: ready.server, token: ready.token };
        },
        [method, args] as const,
      );
      url = answer.server;
      token = answer.token;
      return answer.value;
    };
    await use({
      mode: 'service-worker',
      get url() {
        return url;
      },
      get token() {
        return token;
      },
      env: {},
      server: undefined,
      apply: async (input) => (await call('apply', input)) as KubeObject[],
      get: async (ref) => ((await call('get', ref)) as KubeObject | undefined) ?? undefined,
      list: async (query) => (await call('list', query)) as KubeObject[],
      delete: async (ref) => (await call('delete', ref)) as boolean,
      snapshot: () => call('snapshot'),
      restore: async (snapshot) => void (await call('restore', snapshot)),
      advanceClock: async (ms) => void (await call('advanceClock', ms)),
      faults: {
        add: async (spec) => (await call('faults.add', spec)) as InjectedFault,
        list: async () => (await call('faults.list')) as InjectedFault[],
        remove: async (id) => (await call('faults.remove', id)) as boolean,
        clear: async () => void (await call('faults.clear')),
      },
    });
  },
});
