// Completion for the path field: every collection discovery lists (in the
// namespace the explorer works in, and cluster-wide), the group-version
// roots and the server's other endpoints; once the path names a collection,
// the names of its objects, and once it names an object, its subresources.
// The names come from the last list the user sent from the console: typing
// sends nothing (a request per keystroke would be sent as the user's identity
// and fill the Access log with requests no one sent, issue 16 item 25).

import { useMemo } from 'react';
import { useDiscovery } from '../../lib/api/discovery';
import { collectionPath, groupVersionPrefix, objectPath } from '../../lib/api/resource-paths';

const FIXED = ['/api', '/apis', '/version', '/openapi/v3', '/openapi/v2', '/healthz', '/livez', '/readyz', '/.well-known/openid-configuration', '/openid/v1/jwks'];

const MAX_NAMES = 500;

/** The objects of the last list the console received, and the path it was sent to. */
export interface ListedNames {
  readonly path: string;
  readonly items: ReadonlyArray<{ readonly namespace: string; readonly name: string }>;
}

/** What a response teaches the suggestions: the names in a list's items (undefined when it is no list). */
export function listedNames(path: string, body: unknown): ListedNames | undefined {
  const items = (body as { items?: unknown } | null | undefined)?.items;
  if (!Array.isArray(items)) return undefined;
  const clean = path.split('?')[0]!.replace(/\/+$/, '');
  return {
    path: clean,
    // A datalist of thousands of options helps no one: the first ones.
    items: items.slice(0, MAX_NAMES).flatMap((item: { metadata?: { name?: string; namespace?: string } } | null) => (item?.metadata?.name ? [{ name: item.metadata.name, namespace: item.metadata.namespace ?? '' }] : [])),
  };
}

export function usePathSuggestions(path: string, namespace: string, listed?: ListedNames): string[] {
  const { resources } = useDiscovery();
  const base = useMemo(() => {
    const out = new Set<string>(FIXED);
    for (const r of resources) {
      out.add(groupVersionPrefix(r.groupVersion));
      if (r.namespaced && namespace) out.add(collectionPath(r, namespace));
      out.add(collectionPath(r, ''));
    }
    return [...out].sort();
  }, [resources, namespace]);

  const clean = path.split('?')[0]!.replace(/\/+$/, '');
  // The collection this path names (exactly), if any.
  const collection = useMemo(() => {
    for (const r of resources) {
      const ns = /\/namespaces\/([^/]+)\//.exec(clean)?.[1];
      if (clean === collectionPath(r, '') || (ns && r.namespaced && clean === collectionPath(r, decodeURIComponent(ns)))) return { resource: r, namespace: ns ? decodeURIComponent(ns) : '' };
    }
    return null;
  }, [resources, clean]);
  const names = useMemo(() => {
    if (!collection || !listed || listed.path !== clean) return [];
    return listed.items.map((item) => objectPath(collection.resource, item.namespace || collection.namespace, item.name));
  }, [collection, listed, clean]);

  // Subresources of an object path.
  const subresources = useMemo(() => {
    for (const r of resources) {
      if (!r.subresources.length) continue;
      const prefix = r.namespaced ? collectionPath(r, 'NS').replace('/namespaces/NS/', '/namespaces/[^/]+/') : collectionPath(r, '');
      const match = new RegExp(`^${prefix.replace(/\./g, '\\.')}/[^/]+$`).exec(clean);
      if (match) return r.subresources.map((s) => `${clean}/${s}`);
    }
    return [];
  }, [resources, clean]);

  return useMemo(() => [...subresources, ...names, ...base], [subresources, names, base]);
}
