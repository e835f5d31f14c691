// Issue 2, Storage: "One conformance suite runs unchanged against both
// [backends] (IndexedDB under Node through fake-indexeddb, and in a real
// browser)". This runs src/storage/conformance.suite.ts in Chromium against
// the browser's own IndexedDB, through the same persistence the worker uses.

import { openStore } from '../../src/core/storage/mvcc-store';
import { runStoreConformance } from '../../src/storage/conformance.suite';
import { withFaults } from '../../src/storage/faulty-persistence';
import { createIndexedDbPersistence } from '../../src/storage/indexeddb-persistence';

// Database names unique to this run: a browser profile may be reused.
const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
let n = 0;
let lastName = '';
const persistence = (dbName: string) => createIndexedDbPersistence({ dbName });

runStoreConformance('indexeddb in Chromium', {
  open: (clock) => openStore({ clock, persistence: persistence((lastName = `conformance-${run}-${++n}`)) }),
  reopen: (clock) => openStore({ clock, persistence: persistence(lastName) }),
  openWithFaults: (clock, faults) =>
    openStore({ clock, persistence: withFaults(persistence((lastName = `conformance-${run}-${++n}`)), faults) }),
});
