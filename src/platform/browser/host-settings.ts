// What the browser host keeps beside the cluster's objects, in an IndexedDB
// database of its own (the objects' database belongs to the storage engine):
// the configuration document, the clock's offset and the nodes the user
// stopped. They must survive the worker being stopped and started again, as a
// real server's flags, its machine's clock and a powered-off machine do.

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ClusterConfiguration } from './cluster-config';

interface SettingsSchema extends DBSchema {
  settings: { key: 'configuration'; value: ClusterConfiguration } | { key: 'clock-offset'; value: number } | { key: 'stopped-nodes'; value: string[] };
}

type Key = 'configuration' | 'clock-offset' | 'stopped-nodes';

export interface HostSettings {
  configuration(): Promise<ClusterConfiguration | undefined>;
  saveConfiguration(config: ClusterConfiguration): Promise<void>;
  clockOffset(): Promise<number>;
  saveClockOffset(offsetMs: number): Promise<void>;
  /** The nodes whose kubelet the user stopped (they stay stopped when the worker starts again). */
  stoppedNodes(): Promise<string[]>;
  saveStoppedNodes(names: readonly string[]): Promise<void>;
}

export function openHostSettings(dbName: string): HostSettings {
  let db: Promise<IDBPDatabase<SettingsSchema>> | undefined;
  const database = () => {
    db ??= openDB<SettingsSchema>(dbName, 1, {
      upgrade(raw) {
        raw.createObjectStore('settings');
      },
    }).catch((err: unknown) => {
      db = undefined;
      throw err;
    });
    return db;
  };
  const get = async <T>(key: Key): Promise<T | undefined> => (await (await database()).get('settings', key)) as T | undefined;
  const put = async (key: Key, value: ClusterConfiguration | number | string[]): Promise<void> => {
    await (await database()).put('settings', value as never, key);
  };
  return {
    configuration: () => get<ClusterConfiguration>('configuration'),
    saveConfiguration: (config) => put('configuration', config),
    clockOffset: async () => (await get<number>('clock-offset')) ?? 0,
    saveClockOffset: (offsetMs) => put('clock-offset', offsetMs),
    stoppedNodes: async () => (await get<string[]>('stopped-nodes')) ?? [],
    saveStoppedNodes: (names) => put('stopped-nodes', [...names]),
  };
}
