// Discovery: /api, /apis, /apis/<group>, /api/v1 and /apis/<group>/<version>,
// in the legacy form (APIVersions, APIGroupList, APIGroup, APIResourceList)
// and the aggregated form (apidiscovery.k8s.io APIGroupDiscoveryList).

import type { ResourceDefinition } from '../kinds/types';
import type { ServerContext } from './context';
import type { ServedResource } from './registry';

/** storageVersionHash: base64 of the first 8 bytes of sha256("<group>/<version>/<kind>") of the storage version. */
export async function storageVersionHash(group: string, version: string, kind: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${group}/${version}/${kind}`));
  const bytes = new Uint8Array(digest).slice(0, 8);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export class StorageVersionHashes {
  private readonly hashes = new Map<string, string>();
  async refresh(definitions: readonly ResourceDefinition[]): Promise<void> {
    for (const d of definitions) {
      if (d.virtual) continue;
      const storage = d.versions.find((v) => v.storage) ?? d.versions[0];
      if (!storage) continue;
      const key = `${d.group}/${storage.name}/${d.kind}`;
      if (!this.hashes.has(key)) this.hashes.set(key, await storageVersionHash(d.group, storage.name, d.kind));
    }
  }
  get(served: ServedResource): string | undefined {
    if (served.definition.virtual) return undefined;
    return this.hashes.get(`${served.group}/${served.storageVersion}/${served.definition.kind}`);
  }
}

function groupVersionString(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(ctx: ServerContext, name: string): Record<string, unknown> | undefined {
  const group = ctx.registry.groups().find((g) => g.name === name);
  if (!group || !name) return undefined;
  const versions = group.versions.map((v) => ({ groupVersion: groupVersionString(name, v), version: v }));
  return { name, versions, preferredVersion: versions[0] };
}

export function apiGroupList(ctx: ServerContext): Record<string, unknown> {
  const groups = ctx.registry
    .groups()
    .filter((g) => g.name !== '')
    .map((g) => apiGroup(ctx, g.name));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroupDocument(ctx: ServerContext, name: string): Record<string, unknown> | undefined {
  const group = apiGroup(ctx, name);
  return group ? { kind: 'APIGroup', apiVersion: 'v1', ...group } : undefined;
}

interface ResourceEntry {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

function resourceEntries(served: ServedResource, hashes: StorageVersionHashes): ResourceEntry[] {
  const d = served.definition;
  const main: ResourceEntry = {
    name: d.plural,
    singularName: d.singular,
    namespaced: d.namespaced,
    kind: d.kind,
    verbs: [...d.verbs].sort(),
  };
  if (d.shortNames?.length) main.shortNames = [...d.shortNames];
  if (d.categories?.length) main.categories = [...d.categories];
  const hash = hashes.get(served);
  if (hash) main.storageVersionHash = hash;
  const entries = [main];
  for (const sub of d.subresources ?? []) {
    const entry: ResourceEntry = { name: `${d.plural}/${sub.name}`, singularName: '', namespaced: d.namespaced, kind: sub.kind, verbs: [...sub.verbs].sort() };
    if (sub.group !== undefined && sub.version !== undefined && (sub.group !== served.group || sub.version !== served.version.name)) {
      entry.group = sub.group;
      entry.version = sub.version;
    }
    entries.push(entry);
  }
  return entries;
}

export function apiResourceList(ctx: ServerContext, hashes: StorageVersionHashes, group: string, version: string): Record<string, unknown> | undefined {
  const served = ctx.registry.resourcesIn(group, version);
  if (served.length === 0) return undefined;
  const resources = served.flatMap((s) => resourceEntries(s, hashes));
  // kube-apiserver's /api/v1 answer carries no apiVersion; the named groups' do.
  if (!group) return { kind: 'APIResourceList', groupVersion: version, resources };
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersionString(group, version), resources };
}

function discoveryResource(served: ServedResource): Record<string, unknown> {
  const d = served.definition;
  const out: Record<string, unknown> = {
    resource: d.plural,
    responseKind: { group: served.group, version: served.version.name, kind: d.kind },
    scope: d.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: d.singular,
    verbs: [...d.verbs].sort(),
  };
  if (d.shortNames?.length) out['shortNames'] = [...d.shortNames];
  if (d.categories?.length) out['categories'] = [...d.categories];
  if (d.subresources?.length) {
    out['subresources'] = d.subresources.map((sub) => ({
      subresource: sub.name,
      responseKind: { group: sub.group ?? served.group, version: sub.version ?? served.version.name, kind: sub.kind },
      verbs: [...sub.verbs].sort(),
    }));
  }
  return out;
}

function discoveryGroup(ctx: ServerContext, name: string): Record<string, unknown> {
  const group = ctx.registry.groups().find((g) => g.name === name)!;
  const metadata: Record<string, unknown> = { creationTimestamp: null };
  if (name) metadata['name'] = name;
  return {
    metadata,
    versions: group.versions.map((v) => ({
      version: v,
      resources: ctx.registry.resourcesIn(name, v).map(discoveryResource),
      freshness: 'Current',
    })),
  };
}

/** /api (core only) or /apis (named groups) in the aggregated form. */
export function aggregatedDiscovery(ctx: ServerContext, core: boolean, version: string): Record<string, unknown> {
  const items = ctx.registry
    .groups()
    .filter((g) => (core ? g.name === '' : g.name !== ''))
    .map((g) => discoveryGroup(ctx, g.name));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}
