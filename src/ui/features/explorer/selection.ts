// The explorer's selection lives in the URL (#/explorer?gv=apps/v1&resource=deployments&name=web&ons=default):
// a reload or a link from another view lands on the same object.

import type { DiscoveredResource } from '../../lib/api/discovery';
import { navigate, routeHref } from '../../lib/router';

export interface ExplorerSelection {
  readonly gv: string;
  readonly resource: string;
  /** Selected object's name and namespace (ons), if any. */
  readonly name: string;
  readonly objectNamespace: string;
}

export const DEFAULT_SELECTION: ExplorerSelection = { gv: 'v1', resource: 'configmaps', name: '', objectNamespace: '' };

export function selectionFrom(params: Readonly<Record<string, string>>): ExplorerSelection {
  return {
    gv: params.gv || DEFAULT_SELECTION.gv,
    resource: params.resource || DEFAULT_SELECTION.resource,
    name: params.name ?? '',
    objectNamespace: params.ons ?? '',
  };
}

export function selectionParams(selection: Partial<ExplorerSelection>): Record<string, string | undefined> {
  return { gv: selection.gv, resource: selection.resource, name: selection.name, ons: selection.objectNamespace };
}

export function selectionHref(selection: Partial<ExplorerSelection>): string {
  return routeHref('explorer', selectionParams(selection));
}

export function select(selection: Partial<ExplorerSelection>): void {
  navigate('explorer', selectionParams(selection));
}

export function resourceKey(r: Pick<DiscoveredResource, 'groupVersion' | 'resource'>): string {
  return `${r.groupVersion}/${r.resource}`;
}
