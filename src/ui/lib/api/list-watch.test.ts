// The list-then-watch loop against a scripted server: what the client sends
// (resourceVersion to resume from, bookmarks asked for) and what it shows
// (adds, changes, deletes in order; a relist after 410 Gone).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListWatch, type ListWatchSnapshot } from './list-watch';

type Step = (url: URL) => Response;

function row(name: string, rv: string, cells: unknown[] = [name]) {
  return { cells, object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: rv } } };
}

function table(rows: unknown[], rv: string, columns = true) {
  return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: rv }, columnDefinitions: columns ? [{ name: 'Name', type: 'string', format: 'name' }] : null, rows };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A watch body: the given events (once `gate` resolves), then the end of the stream (or, open: never ends). */
function stream(events: unknown[], open = false, gate: Promise<void> = Promise.resolve()): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      await gate;
      for (const e of events) controller.enqueue(new TextEncoder().encode(`${JSON.stringify(e)}\n`));
      if (!open) controller.close();
    },
  });
  return new Response(body, { status: 200 });
}

function script(steps: Step[]): URL[] {
  const seen: URL[] = [];
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://localhost/');
    seen.push(url);
    const step = steps.shift();
    if (!step) return stream([], true);
    return step(url);
  });
  return seen;
}

async function until(lw: ListWatch, check: (s: ListWatchSnapshot) => boolean): Promise<ListWatchSnapshot> {
  for (let i = 0; i < 200; i++) {
    const s = lw.getSnapshot();
    if (check(s)) return s;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`condition not met: ${JSON.stringify({ ...lw.getSnapshot(), entries: undefined })}`);
}

const names = (s: ListWatchSnapshot) => s.items.map((e) => e.name);

afterEach(() => vi.unstubAllGlobals());

describe('list-then-watch (as client-go reflectors do)', () => {
  it('watches from the list resourceVersion, applies events in order, resumes after a bookmark, relists on 410', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen = script([
      () => json(table([row('a', '5'), row('b', '6')], '10')),
      () =>
        stream([
          { type: 'ADDED', object: table([row('c', '11')], '11', false) },
          { type: 'MODIFIED', object: table([row('a', '12', ['a', 'changed'])], '12', false) },
          { type: 'DELETED', object: table([row('b', '13')], '13', false) },
          { type: 'BOOKMARK', object: { kind: 'Table', metadata: { resourceVersion: '15' } } },
        ]),
      // The watch ended (server timeout): resume from the bookmark, then 410 Gone.
      () => stream([{ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 15 (20)' } }], false, gate),
      () => json(table([row('z', '21')], '22')),
    ]);
    const lw = new ListWatch({ path: '/api/v1/namespaces/default/configmaps', mode: 'table' });
    lw.start();
    const afterEvents = await until(lw, (s) => s.events >= 3);
    expect(names(afterEvents)).toEqual(['a', 'c']);
    expect(afterEvents.items.find((e) => e.uid === 'uid-a')!.cells).toEqual(['a', 'changed']);
    release();

    const relisted = await until(lw, (s) => s.lists === 2 && s.phase === 'watching');
    expect(names(relisted)).toEqual(['z']);
    lw.stop();

    const [list, watch, resume, relist, rewatch] = seen;
    expect(list!.searchParams.get('watch')).toBeNull();
    expect(watch!.searchParams.get('watch')).toBe('true');
    expect(watch!.searchParams.get('resourceVersion')).toBe('10');
    expect(watch!.searchParams.get('allowWatchBookmarks')).toBe('true');
    expect(resume!.searchParams.get('resourceVersion')).toBe('15');
    expect(relist!.searchParams.get('watch')).toBeNull();
    expect(rewatch!.searchParams.get('resourceVersion')).toBe('22');
  });

  it('lists in pages with limit and continue before watching', async () => {
    const seen = script([
      () => json({ ...table([row('a', '1')], '9'), metadata: { resourceVersion: '9', continue: 'next' } }),
      () => json(table([row('b', '2')], '9', false)),
    ]);
    const lw = new ListWatch({ path: '/api/v1/configmaps', mode: 'table', pageSize: 1 });
    lw.start();
    const s = await until(lw, (x) => x.phase === 'watching');
    lw.stop();
    expect(names(s)).toEqual(['a', 'b']);
    expect(seen[0]!.searchParams.get('limit')).toBe('1');
    expect(seen[1]!.searchParams.get('continue')).toBe('next');
    expect(seen[2]!.searchParams.get('resourceVersion')).toBe('9');
  });

  it('gives list items the apiVersion and kind of their list (object mode)', async () => {
    script([() => json({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '3' }, items: [{ metadata: { name: 'x', uid: 'u' } }] })]);
    const lw = new ListWatch({ path: '/api/v1/configmaps', mode: 'object' });
    lw.start();
    const s = await until(lw, (x) => x.lists === 1);
    lw.stop();
    expect(s.items[0]!.object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
  });
});
