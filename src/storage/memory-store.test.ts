// The conformance suite against the engine alone (no persistence), and
// against the engine over the in-memory Persistence (restart and failure
// scenarios without a disk or a browser).

import { createMemoryPersistence, type MemoryPersistence } from '../core/storage/memory-persistence';
import { openStore } from '../core/storage/mvcc-store';
import { runStoreConformance } from './conformance.suite';
import { withFaults } from './faulty-persistence';

runStoreConformance('memory', {
  open: (clock) => openStore({ clock }),
  openWithFaults: (clock, faults) => openStore({ clock, persistence: withFaults(createMemoryPersistence(), faults) }),
});

let last: MemoryPersistence | undefined;
runStoreConformance('memory persistence', {
  open: (clock) => openStore({ clock, persistence: (last = createMemoryPersistence()) }),
  reopen: (clock) => openStore({ clock, persistence: last! }),
  openWithFaults: (clock, faults) => openStore({ clock, persistence: withFaults((last = createMemoryPersistence()), faults) }),
});
