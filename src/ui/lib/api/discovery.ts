// What the server serves, from aggregated discovery (apidiscovery.k8s.io/v2
// on /api and /apis), as kubectl reads it. One cached copy for the app;
// refresh() fetches again (after a CRD is created, say).

import { useEffect, useSyncExternalStore } from 'react';
import { apiFetch, errorFrom } from './client';
import { DISCOVERY_ACCEPT } from './types';

export interface DiscoveredResource {
  readonly group: string;
  readonly version: string;
  /** group/version, or version alone for the core group. */
  readonly groupVersion: string;
  readonly resource: string;
  readonly kind: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly subresources: readonly string[];
  /** The group's preferred version (the first one discovery lists). */
  readonly preferred: boolean;
}

interface AggregatedList {
  items?: Array<{
    metadata?: { name?: string };
    versions?: Array<{
      version: string;
      resources?: Array<{
        resource: string;
        responseKind?: { kind?: string };
        scope?: string;
        singularResource?: string;
        verbs?: string[];
        shortNames?: string[];
        categories?: string[];
        subresources?: Array<{ subresource: string }>;
      }>;
    }>;
  }>;
}

export function parseAggregatedDiscovery(list: AggregatedList): DiscoveredResource[] {
  const resources: DiscoveredResource[] = [];
  for (const item of list.items ?? []) {
    const group = item.metadata?.name ?? '';
    (item.versions ?? []).forEach((version, index) => {
      for (const r of version.resources ?? []) {
        resources.push({
          group,
          version: version.version,
          groupVersion: group ? `${group}/${version.version}` : version.version,
          resource: r.resource,
          kind: r.responseKind?.kind ?? '',
          singular: r.singularResource ?? '',
          namespaced: r.scope === 'Namespaced',
          verbs: r.verbs ?? [],
          shortNames: r.shortNames ?? [],
          categories: r.categories ?? [],
          subresources: (r.subresources ?? []).map((s) => s.subresource),
          preferred: index === 0,
        });
      }
    });
  }
  return resources;
}

async function fetchAggregated(path: string): Promise<DiscoveredResource[]> {
  const response = await apiFetch(path, { headers: { accept: DISCOVERY_ACCEPT } });
  if (!response.ok) throw await errorFrom(response);
  return parseAggregatedDiscovery((await response.json()) as AggregatedList);
}

export async function fetchDiscovery(): Promise<DiscoveredResource[]> {
  const [core, groups] = await Promise.all([fetchAggregated('/api'), fetchAggregated('/apis')]);
  return [...core, ...groups];
}

export interface DiscoveryState {
  readonly resources: readonly DiscoveredResource[];
  readonly loading: boolean;
  readonly error: string | null;
}

let state: DiscoveryState = { resources: [], loading: false, error: null };
let inflight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function setState(next: DiscoveryState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Fetches discovery again (at most one request at a time). */
export function refreshDiscovery(): Promise<void> {
  if (inflight) return inflight;
  setState({ ...state, loading: true });
  inflight = fetchDiscovery()
    .then(
      (resources) => setState({ resources, loading: false, error: null }),
      (error: unknown) => setState({ ...state, loading: false, error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** Discovery for components; the first caller triggers the fetch. */
export function useDiscovery(): DiscoveryState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      if (!state.resources.length && !state.loading && !state.error) void refreshDiscovery();
      return () => listeners.delete(listener);
    },
    () => state,
  );
}

/** The current discovery, fetched if needed (outside React). */
export async function discovery(): Promise<readonly DiscoveredResource[]> {
  if (!state.resources.length) await refreshDiscovery();
  if (!state.resources.length && state.error) throw new Error(state.error);
  return state.resources;
}

/**
 * Keeps discovery current while mounted: CustomResourceDefinitions are
 * watched, and each change to them (a CRD added, established, removed)
 * fetches discovery again, shortly after, once.
 */
export function useDiscoveryFollowingCrds(crdEvents: number): void {
  useEffect(() => {
    if (crdEvents === 0) return;
    const timer = setTimeout(() => void refreshDiscovery(), 300);
    return () => clearTimeout(timer);
  }, [crdEvents]);
}
