// The node authorizer's graph kept from the store: on a cold start it is
// complete before the store's full load ends (docs/decisions/0131, 0170), so a
// node's first request is decided against every stored pod, and it follows
// the writes made after the load.

import { describe, expect, it } from 'vitest';
import { manualClock } from '../../clock';
import { createMemoryPersistence } from '../../storage/memory-persistence';
import { openStore } from '../../storage/mvcc-store';
import type { KeyValue } from '../../storage/types';
import { PersistenceFaults, withFaults } from '../../../storage/faulty-persistence';
import { createNodeGraph } from './node-graph';

const pod = (name: string, node: string, secret: string) =>
  JSON.stringify({ metadata: { name, namespace: 'default' }, spec: { nodeName: node, volumes: [{ name: 'v', secret: { secretName: secret } }] } });
const decode = (kv: KeyValue) => JSON.parse(kv.value) as unknown;

describe('node graph', () => {
  it('is ready with the stored pods before the store has loaded, and follows writes after the load', async () => {
    const persistence = createMemoryPersistence();
    const clock = manualClock();
    const first = await openStore({ clock, persistence });
    await first.create('/registry/core/pods/default/p1', () => pod('p1', 'node-a', 's1'));
    await first.close();

    const faults = new PersistenceFaults();
    const release = faults.holdLoad();
    const store = await openStore({ clock, persistence: withFaults(persistence, faults) });
    let loaded = false;
    void store.ready().then(() => (loaded = true));
    const graph = createNodeGraph(store, decode);
    await graph.ready;
    expect(loaded).toBe(false);
    expect(graph.isRelatedToNode('node-a', 'secret', 'default', 's1')).toBe(true);
    expect(graph.isRelatedToNode('node-b', 'secret', 'default', 's1')).toBe(false);

    release();
    await store.ready();
    await store.create('/registry/core/pods/default/p2', () => pod('p2', 'node-b', 's2'));
    expect(graph.isRelatedToNode('node-b', 'secret', 'default', 's2')).toBe(true);
    graph.stop();
    await store.close();
  });
});
