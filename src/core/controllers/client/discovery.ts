// Discovery as the controllers use it: every resource the server serves,
// with its scope, kind and verbs, from the two aggregated discovery documents
// (/api and /apis). `preferred` marks each group's preferred version, which
// is what kube's ServerPreferredResources keeps; the REST mapping of an
// ownerReference's apiVersion and kind may use any served version.

import type { ApiClient } from './api-client';
import { errorMessage } from './api-error';
import type { GroupVersionResource } from './resource-path';

export interface DiscoveredResource extends GroupVersionResource {
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  /** The group's preferred version (the first one discovery lists). */
  readonly preferred: boolean;
}

export interface DiscoveryResult {
  readonly resources: readonly DiscoveredResource[];
  /** Group versions that could not be discovered, with why (kube's ErrGroupDiscoveryFailed). */
  readonly failed: ReadonlyMap<string, string>;
}

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface AggregatedResource {
  resource: string;
  responseKind?: { kind?: string };
  scope?: string;
  verbs?: string[];
}
interface AggregatedVersion {
  version: string;
  resources?: AggregatedResource[];
  freshness?: string;
}
interface AggregatedGroup {
  metadata?: { name?: string };
  versions?: AggregatedVersion[];
}

export async function discoverResources(client: ApiClient): Promise<DiscoveryResult> {
  const resources: DiscoveredResource[] = [];
  const failed = new Map<string, string>();
  for (const path of ['/api', '/apis']) {
    let doc: { items?: AggregatedGroup[] };
    try {
      doc = await client.call('GET', path, undefined, { Accept: AGGREGATED });
    } catch (err) {
      failed.set(path, errorMessage(err));
      continue;
    }
    for (const group of doc.items ?? []) {
      const name = group.metadata?.name ?? '';
      (group.versions ?? []).forEach((v, index) => {
        const gv = name ? `${name}/${v.version}` : v.version;
        if (v.freshness === 'Stale') {
          failed.set(gv, 'stale GroupVersion discovery');
          return;
        }
        for (const r of v.resources ?? []) {
          resources.push({
            group: name,
            version: v.version,
            resource: r.resource,
            kind: r.responseKind?.kind ?? '',
            namespaced: r.scope === 'Namespaced',
            verbs: r.verbs ?? [],
            preferred: index === 0,
          });
        }
      });
    }
  }
  return { resources, failed };
}

export function supportsVerbs(r: DiscoveredResource, verbs: readonly string[]): boolean {
  return verbs.every((v) => r.verbs.includes(v));
}

/** The resource serving a kind at an apiVersion (kube's RESTMapper.RESTMapping), if served. */
export function resourceForKind(resources: readonly DiscoveredResource[], apiVersion: string, kind: string): DiscoveredResource | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return resources.find((r) => r.group === group && r.version === version && r.kind === kind);
}

export function gvrKey(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}/${gvr.resource}`;
}
