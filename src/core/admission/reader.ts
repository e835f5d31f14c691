// The reader admission plugins look at other objects through: the store at
// its current revision, objects decoded to their storage version (kube's
// plugins read through informers; reading the store directly is never stale).
// The configuration collections every write reads come from the server's
// watch-kept copies (collection-cache.ts), which are just as current.

import type { ServerContext } from '../api/context';
import { decode, keyFor, prefixFor } from '../api/resource-store';
import type { KubeObject } from '../kinds/types';
import { admissionCollectionsOf } from './collection-cache';
import type { AdmissionReader } from './types';

export function storeReader(ctx: ServerContext): AdmissionReader {
  const collections = admissionCollectionsOf(ctx);
  return {
    async get(gr, namespace, name) {
      const cached = collections.collection(gr.group, gr.resource);
      if (cached) return cached.get(namespace, name);
      const served = ctx.registry.lookupGroupResource(gr.group, gr.resource);
      if (!served) return undefined;
      const kv = await ctx.store.get(keyFor(served, namespace, name));
      return kv ? decode(ctx, served, kv) : undefined;
    },
    async list(gr, namespace) {
      const cached = collections.collection(gr.group, gr.resource);
      // A copy: callers sort the list they get.
      if (cached) return cached.list(namespace).slice();
      const served = ctx.registry.lookupGroupResource(gr.group, gr.resource);
      if (!served) return [];
      const range = await ctx.store.range({ prefix: prefixFor(served, namespace) });
      return range.kvs.map((kv): KubeObject => decode(ctx, served, kv));
    },
    cached: (gr) => collections.collection(gr.group, gr.resource),
    resourceForKind(apiVersion, kind) {
      const slash = apiVersion.indexOf('/');
      const group = slash < 0 ? '' : apiVersion.slice(0, slash);
      const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
      const served = ctx.registry.lookupKind(group, version, kind);
      return served ? { group: served.group, resource: served.definition.plural, namespaced: served.definition.namespaced } : undefined;
    },
  };
}

// kube's utilrand.String alphabet: no vowels (no words) and no easily confused characters.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function randomAlphanumerics(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = '';
  for (const b of bytes) out += ALPHANUMS[b % ALPHANUMS.length];
  return out;
}
