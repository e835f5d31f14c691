// What the namespace deleter needs from the world, as functions, so that its
// steps can be tested with fakes and run against the API in production.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { isMethodNotSupported, isNotFound } from '../client/api-error';
import { discoverResources, type DiscoveredResource } from '../client/discovery';
import type { GroupVersionResource } from '../client/resource-path';

export const NAMESPACES: GroupVersionResource = { group: '', version: 'v1', resource: 'namespaces' };

export interface NamespacedDiscovery {
  /** The preferred version of every namespaced resource. */
  readonly resources: readonly DiscoveredResource[];
  readonly failures: ReadonlyMap<string, string>;
}

export interface NamespaceDeleterDeps {
  /** The namespace, or undefined when it is gone. */
  getNamespace(name: string): Promise<KubeObject | undefined>;
  /** PUT .../namespaces/<name>/status. */
  updateStatus(ns: KubeObject): Promise<KubeObject>;
  /** PUT .../namespaces/<name>/finalize. */
  finalize(ns: KubeObject): Promise<KubeObject>;
  discover(): Promise<NamespacedDiscovery>;
  /** DELETE of the collection; 'unsupported' on 404/405 as kube treats them. */
  deleteCollection(gvr: GroupVersionResource, namespace: string): Promise<'ok' | 'unsupported'>;
  /** The objects left; 'unsupported' when the resource cannot be listed. */
  list(gvr: GroupVersionResource, namespace: string): Promise<KubeObject[] | 'unsupported'>;
  /** DELETE of one object; 404 and 405 are not errors. */
  deleteItem(gvr: GroupVersionResource, namespace: string, name: string): Promise<void>;
  now(): number;
}

export function apiNamespaceDeps(client: ApiClient, now: () => number): NamespaceDeleterDeps {
  const background = { propagationPolicy: 'Background' as const };
  return {
    async getNamespace(name) {
      try {
        return await client.get(NAMESPACES, '', name);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    updateStatus: (ns) => client.update(NAMESPACES, '', ns, 'status'),
    finalize: (ns) => client.update(NAMESPACES, '', ns, 'finalize'),
    async discover() {
      const { resources, failed } = await discoverResources(client);
      return { resources: resources.filter((r) => r.preferred && r.namespaced && !r.resource.includes('/')), failures: failed };
    },
    async deleteCollection(gvr, namespace) {
      try {
        await client.deleteCollection(gvr, namespace, background);
        return 'ok';
      } catch (err) {
        if (isMethodNotSupported(err) || isNotFound(err)) return 'unsupported';
        throw err;
      }
    },
    async list(gvr, namespace) {
      try {
        return (await client.list(gvr, namespace)).items;
      } catch (err) {
        if (isMethodNotSupported(err) || isNotFound(err)) return 'unsupported';
        throw err;
      }
    },
    async deleteItem(gvr, namespace, name) {
      try {
        await client.delete(gvr, namespace, name, background);
      } catch (err) {
        if (isMethodNotSupported(err) || isNotFound(err)) return;
        throw err;
      }
    },
    now,
  };
}
