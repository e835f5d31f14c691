// The informer as a client-go reflector: list, watch from the list's resourceVersion,
// resume from the last event's resourceVersion when a watch ends, list again on 410 Gone
// and tell the handlers what changed meanwhile.

import { describe, expect, it } from 'vitest';
import { Activity } from '../runtime/activity';
import { ApiClient } from './api-client';
import { Informer } from './informer';

const cm = (name: string, rv: string) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv, uid: `u-${name}` } });

function scripted(answers: ((url: URL) => Response)[]) {
  const seen: string[] = [];
  const pending: Request[] = [];
  const send = async (r: Request) => {
    const url = new URL(r.url);
    seen.push(`${url.pathname}?${url.searchParams.toString()}`);
    const next = answers.shift();
    // A watch that never answers, until the informer gives up on it (the request is kept
    // referenced: a Request's signal stops following its source once the Request is collected).
    if (!next) {
      pending.push(r);
      return new Promise<Response>((_resolve, reject) => r.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    return next(url);
  };
  return { send, seen };
}

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const events = (...lines: unknown[]) => new Response(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { status: 200 });

describe('informer', () => {
  it('resumes after a watch ends and relists on 410, reporting what changed', async () => {
    const { send, seen } = scripted([
      () => json({ metadata: { resourceVersion: '10' }, items: [cm('a', '5'), cm('b', '6')] }),
      () => events({ type: 'MODIFIED', object: cm('a', '11') }, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } }),
      () => events({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 15 (20)' } }),
      () => json({ metadata: { resourceVersion: '30' }, items: [cm('a', '11'), cm('c', '25')] }),
    ]);
    const activity = new Activity();
    const informer = new Informer(new ApiClient({ send }), { group: '', version: 'v1', resource: 'configmaps' }, activity);
    const log: string[] = [];
    informer.addHandler({
      onAdd: (o) => log.push(`add ${o.metadata?.name}`),
      onUpdate: (_old, o) => log.push(`update ${o.metadata?.name}@${o.metadata?.resourceVersion}`),
      onDelete: (o) => log.push(`delete ${o.metadata?.name}`),
    });
    informer.start();
    await activity.idle();
    await new Promise((r) => setTimeout(r, 50));
    await activity.idle();
    // As client-go's Replace: the listed objects first, then the ones that vanished.
    expect(log).toEqual(['add a', 'add b', 'update a@11', 'add c', 'delete b']);
    expect(seen).toEqual([
      '/api/v1/configmaps?',
      '/api/v1/configmaps?resourceVersion=10&allowWatchBookmarks=true&watch=1',
      '/api/v1/configmaps?resourceVersion=15&allowWatchBookmarks=true&watch=1',
      '/api/v1/configmaps?',
      '/api/v1/configmaps?resourceVersion=30&allowWatchBookmarks=true&watch=1',
    ]);
    expect(informer.list().map((o) => o.metadata?.name)).toEqual(['a', 'c']);
    await informer.stop();
  });
});
