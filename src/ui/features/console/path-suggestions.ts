// Completion for the path field: every collection discovery lists (in the
// namespace the explorer works in, and cluster-wide), the group-version
// roots and the server's other endpoints; once the path names a collection,
// the names of its objects, and once it names an object, its subresources.

import { useEffect, useMemo, useState } from 'react';
import { apiJson } from '../../lib/api/client';
import { useDiscovery } from '../../lib/api/discovery';
import { collectionPath, groupVersionPrefix, objectPath } from '../../lib/api/resource-paths';
import type { KubeList } from '../../lib/api/types';

const FIXED = ['/api', '/apis', '/version', '/openapi/v3', '/openapi/v2', '/healthz', '/livez', '/readyz', '/.well-known/openid-configuration', '/openid/v1/jwks'];
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json';

export function usePathSuggestions(path: string, namespace: string): string[] {
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
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    setNames([]);
    if (!collection) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      apiJson<KubeList>(clean, { query: { limit: 200 }, headers: { accept: METADATA_LIST }, signal: controller.signal }).then(
        (list) => setNames(list.items.map((item) => objectPath(collection.resource, item.metadata?.namespace ?? collection.namespace, item.metadata?.name ?? ''))),
        () => undefined,
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [collection, clean]);

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
