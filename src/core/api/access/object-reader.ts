// Reads stored objects for authenticators and the TokenRequest (service
// accounts, Secrets, Pods, Nodes): straight from the store, as kube-apiserver
// reads them through its own getters, never through the request pipeline.

import type { KubeObject } from '../../kinds/types';
import type { ServerContext } from '../context';
import { objectKey } from '../storage-keys';

export interface ObjectReader {
  get(group: string, resource: string, namespace: string, name: string): Promise<KubeObject | undefined>;
}

export function createObjectReader(ctx: Pick<ServerContext, 'store' | 'decodeCache'>): ObjectReader {
  return {
    async get(group, resource, namespace, name) {
      if (!name) return undefined;
      const kv = await ctx.store.get(objectKey({ group, resource }, namespace, name));
      if (!kv) return undefined;
      try {
        return ctx.decodeCache.decode(kv);
      } catch {
        // A record that cannot be read vouches for nothing.
        return undefined;
      }
    },
  };
}
