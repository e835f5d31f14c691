// Whether the cluster stored in IndexedDB has been seeded: kept in a database
// of its own beside the cluster's, so that a demo's seed is applied once, when
// its cluster is created (and again after reset()), never over what the user
// changed since.

import { openDB } from 'idb';
import type { SeedMarker } from './worker-cluster';

export function indexedDbSeedMarker(dbName: string): SeedMarker {
  const db = () => openDB(dbName, 1, { upgrade: (raw) => void raw.createObjectStore('marker') });
  return {
    async seeded() {
      const d = await db();
      try {
        return (await d.get('marker', 'seeded')) === true;
      } finally {
        d.close();
      }
    },
    async set(seeded) {
      const d = await db();
      try {
        await d.put('marker', seeded, 'seeded');
      } finally {
        d.close();
      }
    },
  };
}
