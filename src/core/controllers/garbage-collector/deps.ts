// What the garbage collector's workers need from the world, as functions.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient, DeleteOptions } from '../client/api-client';
import { isNotFound } from '../client/api-error';
import { resourceForKind, type DiscoveredResource } from '../client/discovery';
import type { GroupVersionResource } from '../client/resource-path';

export interface Mapping {
  readonly gvr: GroupVersionResource;
  readonly namespaced: boolean;
}

export interface GarbageCollectorDeps {
  /** The resource serving apiVersion/kind (kube's RESTMapper); undefined when none is served. */
  mapping(apiVersion: string, kind: string): Mapping | undefined;
  /** The object, or undefined when it does not exist. */
  get(gvr: GroupVersionResource, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** A JSON merge patch of the object; a 404 is not an error. */
  mergePatch(gvr: GroupVersionResource, namespace: string, name: string, patch: unknown): Promise<void>;
  /** DELETE with options; 404 is left to the caller. */
  delete(gvr: GroupVersionResource, namespace: string, name: string, options: DeleteOptions): Promise<void>;
}

export function apiGarbageCollectorDeps(client: ApiClient, resources: () => readonly DiscoveredResource[]): GarbageCollectorDeps {
  return {
    mapping(apiVersion, kind) {
      const r = resourceForKind(resources(), apiVersion, kind);
      return r ? { gvr: { group: r.group, version: r.version, resource: r.resource }, namespaced: r.namespaced } : undefined;
    },
    async get(gvr, namespace, name) {
      try {
        return await client.get(gvr, namespace, name);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async mergePatch(gvr, namespace, name, patch) {
      try {
        await client.patch(gvr, namespace, name, patch, 'application/merge-patch+json');
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
    async delete(gvr, namespace, name, options) {
      await client.delete(gvr, namespace, name, options);
    },
  };
}
