// Paths of collections and objects, as kubectl builds them from discovery.

import type { DiscoveredResource } from './discovery';
import type { KubeObject } from './types';

export function groupVersionPrefix(groupVersion: string): string {
  return groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
}

/** /api/v1/namespaces/ns/configmaps, or cluster-wide when namespace is ''. */
export function collectionPath(resource: Pick<DiscoveredResource, 'groupVersion' | 'resource' | 'namespaced'>, namespace: string): string {
  const prefix = groupVersionPrefix(resource.groupVersion);
  return resource.namespaced && namespace ? `${prefix}/namespaces/${encodeURIComponent(namespace)}/${resource.resource}` : `${prefix}/${resource.resource}`;
}

export function objectPath(resource: Pick<DiscoveredResource, 'groupVersion' | 'resource' | 'namespaced'>, namespace: string, name: string): string {
  return `${collectionPath(resource, resource.namespaced ? namespace : '')}/${encodeURIComponent(name)}`;
}

/** The resource serving apiVersion+kind (the exact version; else null). */
export function resourceForKind(resources: readonly DiscoveredResource[], apiVersion: string, kind: string): DiscoveredResource | null {
  return resources.find((r) => r.groupVersion === apiVersion && r.kind === kind && !r.resource.includes('/')) ?? null;
}

export interface ObjectLocation {
  readonly resource: DiscoveredResource;
  readonly namespace: string;
  readonly name: string;
  readonly collectionPath: string;
  readonly objectPath: string;
}

/**
 * Where an object from a manifest lives. Namespaced objects without a
 * namespace go to `defaultNamespace`, as kubectl does.
 */
export function locateObject(resources: readonly DiscoveredResource[], object: KubeObject, defaultNamespace: string): ObjectLocation {
  const apiVersion = object.apiVersion ?? '';
  const kind = object.kind ?? '';
  if (!apiVersion || !kind) throw new Error('the document has no apiVersion or kind');
  const resource = resourceForKind(resources, apiVersion, kind);
  if (!resource) throw new Error(`no resource of kind "${kind}" in version "${apiVersion}" is served`);
  const namespace = resource.namespaced ? object.metadata?.namespace || defaultNamespace : '';
  const name = object.metadata?.name ?? '';
  return {
    resource,
    namespace,
    name,
    collectionPath: collectionPath(resource, namespace),
    objectPath: name ? objectPath(resource, namespace, name) : '',
  };
}

/** Parses an API path into its parts (for kubectl command lines, links). */
export interface ParsedApiPath {
  readonly groupVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly name: string;
  readonly subresource: string;
}

export function parseApiPath(path: string): ParsedApiPath | null {
  const clean = path.split('?')[0]!.replace(/^\/+|\/+$/g, '');
  const parts = clean.split('/').map(decodeURIComponent);
  let rest: string[];
  let groupVersion: string;
  if (parts[0] === 'api' && parts.length >= 2) {
    groupVersion = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    groupVersion = `${parts[1]}/${parts[2]}`;
    rest = parts.slice(3);
  } else return null;
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1]!;
    rest = rest.slice(2);
  }
  if (!rest.length) return null;
  return { groupVersion, namespace, resource: rest[0]!, name: rest[1] ?? '', subresource: rest[2] ?? '' };
}
