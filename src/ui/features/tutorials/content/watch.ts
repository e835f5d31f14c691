// Tutorial (c): watch and resourceVersion — list then watch, resume after a
// disconnect, bookmarks, paging with continue, and 410 Gone once the history
// a resourceVersion points into has expired.

import { queryOf, type AuditEntry, type TutorialContext } from '../context';
import { fail, pass, type Tutorial } from '../model';

const NS = 'watch-demo';
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS }, data: { made: name } });

const onDemo = (r: AuditEntry) => r.event.objectRef?.resource === 'configmaps' && r.event.objectRef.namespace === NS && !r.event.objectRef.name;

async function prepare(ctx: TutorialContext): Promise<void> {
  await ctx.ensure('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await ctx.ensure(CONFIGMAPS, configMap('first'));
}

async function listVersion(ctx: TutorialContext): Promise<string> {
  const list = await ctx.api('GET', CONFIGMAPS);
  return String(list.json?.metadata?.resourceVersion ?? '');
}

const ACCEPT = [{ name: 'Accept', value: 'application/json' }];

export const watchAndResourceVersion: Tutorial = {
  id: 'watch',
  title: 'Watch and resourceVersion',
  summary: 'List then watch, resume after a disconnect, bookmarks, paging with continue, and the 410 Gone that ends an expired resourceVersion.',
  steps: [
    {
      id: 'list',
      title: 'List',
      body: [
        'Every write gets a new resourceVersion, and a list says at which one it was read: `metadata.resourceVersion` of the list. That number is where a watch can start, so that nothing happens unseen between the two.',
        'Prepare the namespace `watch-demo`, then send the list from the console and note the list\'s resourceVersion.',
      ],
      actions: [
        { label: 'Prepare watch-demo', run: async (ctx) => (await prepare(ctx), `Namespace ${NS} with ConfigMap first.`) },
        { label: 'Open the list in the console', run: async (ctx) => ctx.openConsole({ method: 'GET', path: CONFIGMAPS, query: {}, headers: ACCEPT }) },
      ],
      checks: 'the ConfigMaps of watch-demo were listed.',
      async check(ctx) {
        const hit = (await ctx.audit()).find((r) => onDemo(r) && r.event.verb === 'list' && r.event.responseStatus?.code === 200);
        return hit ? pass('Listed.') : fail('No list of ConfigMaps in watch-demo yet.');
      },
    },
    {
      id: 'watch',
      title: 'Watch from the list',
      body: [
        'A watch with `resourceVersion` set to the list\'s delivers every change after it, each as an event (ADDED, MODIFIED, DELETED) carrying the object and its new resourceVersion.',
        'Start the watch in the console, then make a change: a ConfigMap `second` appears as ADDED.',
      ],
      actions: [
        {
          label: 'Open the watch in the console',
          run: async (ctx) => ctx.openConsole({ method: 'GET', path: CONFIGMAPS, query: { watch: 'true', resourceVersion: await listVersion(ctx) }, headers: ACCEPT }),
        },
        { label: 'Create ConfigMap second', run: async (ctx) => (await ctx.ensure(CONFIGMAPS, configMap('second')), 'ConfigMap second created.') },
      ],
      checks: 'a watch of watch-demo started from a resourceVersion, and second exists.',
      async check(ctx) {
        const watched = (await ctx.audit()).some((r) => onDemo(r) && r.event.verb === 'watch' && queryOf(r).get('resourceVersion'));
        const second = await ctx.get(`${CONFIGMAPS}/second`);
        if (!watched) return fail('No watch of watch-demo from a resourceVersion yet.');
        return second ? pass('Watched, and second was created.') : fail('Watching; now create ConfigMap second.');
      },
    },
    {
      id: 'resume',
      title: 'Resume after a disconnect',
      body: [
        'Connections drop. A client that remembers the last resourceVersion it saw resumes from there and misses nothing: the server replays what happened meanwhile.',
        'Stop the watch. Create `third` while nobody watches. Then watch again from `second`\'s resourceVersion: third arrives as ADDED.',
      ],
      actions: [
        { label: 'Create ConfigMap third (while stopped)', run: async (ctx) => (await ctx.ensure(CONFIGMAPS, configMap('third')), 'ConfigMap third created.') },
        {
          label: 'Open the watch from second',
          run: async (ctx) => {
            const second = await ctx.get(`${CONFIGMAPS}/second`);
            ctx.openConsole({ method: 'GET', path: CONFIGMAPS, query: { watch: 'true', resourceVersion: String(second?.metadata?.resourceVersion ?? '') }, headers: ACCEPT });
          },
        },
      ],
      checks: 'a watch started from second\'s resourceVersion, after third was created.',
      async check(ctx) {
        const second = await ctx.get(`${CONFIGMAPS}/second`);
        const third = await ctx.get(`${CONFIGMAPS}/third`);
        if (!second || !third) return fail('second and third should both exist.');
        const resumed = (await ctx.audit()).some((r) => onDemo(r) && r.event.verb === 'watch' && queryOf(r).get('resourceVersion') === second.metadata?.resourceVersion);
        return resumed ? pass('Resumed from second; third came as ADDED.') : fail(`No watch from resourceVersion ${second.metadata?.resourceVersion ?? '?'} (second's) yet.`);
      },
    },
    {
      id: 'bookmarks',
      title: 'Bookmarks',
      body: [
        'A quiet watch still moves on: with `allowWatchBookmarks=true` the server sends BOOKMARK events that only carry a newer resourceVersion, so a client can resume from further on.',
        'With `sendInitialEvents=true` and `resourceVersionMatch=NotOlderThan` the watch first sends the current objects as ADDED, then a BOOKMARK marking the end of that initial state. Start it and look for the bookmark.',
      ],
      actions: [
        {
          label: 'Open the watch with bookmarks',
          run: async (ctx) =>
            ctx.openConsole({ method: 'GET', path: CONFIGMAPS, query: { watch: 'true', allowWatchBookmarks: 'true', sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' }, headers: ACCEPT }),
        },
      ],
      checks: 'a watch of watch-demo asked for bookmarks.',
      async check(ctx) {
        const hit = (await ctx.audit()).some((r) => onDemo(r) && r.event.verb === 'watch' && queryOf(r).get('allowWatchBookmarks') === 'true');
        return hit ? pass('Watched with bookmarks.') : fail('No watch of watch-demo with allowWatchBookmarks=true yet.');
      },
    },
    {
      id: 'paging',
      title: 'Paging with continue',
      body: [
        'Large lists come in pages: `limit` caps a page, and the list\'s `metadata.continue` token fetches the next one — at the same resourceVersion as the first page, so the pages are one consistent list.',
        'Add a few ConfigMaps, list with `limit=3`, then follow the continue token until it is empty.',
      ],
      actions: [
        {
          label: 'Add seven ConfigMaps',
          run: async (ctx) => {
            for (let i = 1; i <= 7; i++) await ctx.ensure(CONFIGMAPS, configMap(`page-${i}`));
            return 'page-1 … page-7 created.';
          },
        },
        { label: 'Open a page of three in the console', run: async (ctx) => ctx.openConsole({ method: 'GET', path: CONFIGMAPS, query: { limit: '3' }, headers: ACCEPT }) },
      ],
      checks: 'a list of watch-demo was continued with a continue token.',
      async check(ctx) {
        const hit = (await ctx.audit()).some((r) => onDemo(r) && r.event.verb === 'list' && queryOf(r).get('continue') && r.event.responseStatus?.code === 200);
        return hit ? pass('Followed a continue token.') : fail('No list of watch-demo with a continue token answered 200 yet.');
      },
    },
    {
      id: 'gone',
      title: '410 Gone',
      body: [
        'The server keeps history for a while (five minutes here, as kube-apiserver compacts etcd), not forever. A resourceVersion or continue token that points before the kept history cannot be served: 410 Gone, and the client must list again.',
        'The action takes a continue token now, makes one more change, and moves the server\'s clock six minutes ahead. Send the prefilled list with that old token: 410 Gone. (A watch from first\'s resourceVersion now ends with an ERROR event carrying the same 410.)',
      ],
      actions: [
        {
          label: 'Take a token, move the clock 6 minutes',
          run: async (ctx) => {
            const page = await ctx.api('GET', `${CONFIGMAPS}?limit=2`);
            const token = String(page.json?.metadata?.continue ?? '');
            if (!token) throw new Error('watch-demo has too few ConfigMaps for a second page: do the paging step first');
            await ctx.ensure(CONFIGMAPS, configMap(`late-${Date.now().toString(36)}`));
            await ctx.advanceClock(6 * 60_000);
            // A write after the jump: the history before the window is compacted away.
            await ctx.ensure(CONFIGMAPS, configMap(`later-${Date.now().toString(36)}`));
            ctx.openConsole({ method: 'GET', path: CONFIGMAPS, query: { limit: '2', continue: token }, headers: ACCEPT });
            return 'The clock moved six minutes ahead; the console holds the old continue token.';
          },
        },
        {
          label: 'Open a watch from first',
          run: async (ctx) => {
            const first = await ctx.get(`${CONFIGMAPS}/first`);
            ctx.openConsole({ method: 'GET', path: CONFIGMAPS, query: { watch: 'true', resourceVersion: String(first?.metadata?.resourceVersion ?? '') }, headers: ACCEPT });
          },
        },
      ],
      checks: 'a list of watch-demo with a continue token was answered 410 Gone.',
      async check(ctx) {
        const hit = (await ctx.audit()).find((r) => onDemo(r) && r.event.verb === 'list' && queryOf(r).get('continue') && r.event.responseStatus?.code === 410);
        return hit ? pass(`410: ${hit.event.responseStatus?.message ?? ''}`) : fail('No list with an expired continue token answered 410 yet.');
      },
    },
  ],
};
