// What the browser host keeps beside the cluster's objects, in an IndexedDB
// database of its own (the objects' database belongs to the storage engine):
// the configuration document and the clock's offset. Both must survive the
// worker being stopped and started again, as a real server's flags and its
// machine's clock do.

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ClusterConfiguration } from './cluster-config';

interface SettingsSchema extends DBSchema {
  settings: { key: 'configuration'; value: ClusterConfiguration } | { key: 'clock-offset'; value: number };
}

type Key = 'configuration' | 'clock-offset';

export interface HostSettings {
  configuration(): Promise<ClusterConfiguration | undefined>;
  saveConfiguration(config: ClusterConfiguration): Promise<void>;
  clockOffset(): Promise<number>;
  saveClockOffset(offsetMs: number): Promise<void>;
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
  const put = async (key: Key, value: ClusterConfiguration | number): Promise<void> => {
    await (await database()).put('settings', value as never, key);
  };
  return {
    configuration: () => get<ClusterConfiguration>('configuration'),
    saveConfiguration: (config) => put('configuration', config),
    clockOffset: async () => (await get<number>('clock-offset')) ?? 0,
    saveClockOffset: (offsetMs) => put('clock-offset', offsetMs),
  };
}
