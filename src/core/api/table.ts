// The Table (meta.k8s.io/v1) and PartialObjectMetadata representations.
// A kind's own columns come from its TableDefinition; kinds without one get
// kube-apiserver's default table: Name and Created At.

import { errors } from '../errors/status';
import { fieldErrors } from '../errors/field-errors';
import type { KubeObject, TableDefinition } from '../kinds/types';
import type { ServedResource } from './registry';

export const DEFAULT_TABLE: TableDefinition = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: 'The object name, unique within its namespace (or cluster-wide for cluster-scoped kinds).', priority: 0 },
    { name: 'Created At', type: 'date', description: 'When the server created the object (metadata.creationTimestamp).', priority: 0 },
  ],
  cells: (obj) => [obj.metadata?.name ?? '', obj.metadata?.creationTimestamp ?? null],
};

type IncludeObject = 'None' | 'Metadata' | 'Object';

function includeObjectOf(query: URLSearchParams): IncludeObject {
  const value = query.get('includeObject') ?? '';
  if (value === '') return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw errors.invalid({ group: 'meta.k8s.io', kind: 'TableOptions' }, '', [
    fieldErrors.notSupported('includeObject', value, ['Metadata', 'None', 'Object']),
  ]);
}

export function tableDefinitionFor(served: ServedResource): TableDefinition {
  return served.version.table ?? served.definition.table ?? DEFAULT_TABLE;
}

export function partialObjectMetadata(obj: KubeObject, version: string): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata ?? {} };
}

export function partialObjectMetadataList(objs: KubeObject[], listMeta: Record<string, unknown>, version: string): KubeObject {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMeta,
    // kube sets each item's TypeMeta too (asPartialObjectMetadataList), so JSON items name their kind.
    items: objs.map((o) => partialObjectMetadata(o, version)),
  };
}

function row(definition: TableDefinition, obj: KubeObject, include: IncludeObject, now: number): Record<string, unknown> {
  const out: Record<string, unknown> = { cells: definition.cells(obj, now) };
  if (include === 'Metadata') out['object'] = partialObjectMetadata(obj, 'v1');
  else if (include === 'Object') out['object'] = obj;
  return out;
}

function columnDefinitions(definition: TableDefinition): Record<string, unknown>[] {
  return definition.columns.map((c) => ({
    name: c.name,
    type: c.type,
    format: c.format ?? '',
    description: c.description ?? '',
    priority: c.priority,
  }));
}

export function listToTable(
  served: ServedResource,
  objs: KubeObject[],
  listMeta: Record<string, unknown>,
  query: URLSearchParams,
  now: number,
  withColumns = true,
): KubeObject {
  const definition = tableDefinitionFor(served);
  const include = includeObjectOf(query);
  const table: KubeObject = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: listMeta };
  table['columnDefinitions'] = withColumns ? columnDefinitions(definition) : null;
  table['rows'] = objs.map((o) => row(definition, o, include, now));
  return table;
}

export function objectToTable(served: ServedResource, obj: KubeObject, query: URLSearchParams, now: number, withColumns = true): KubeObject {
  return listToTable(served, [obj], { resourceVersion: obj.metadata?.resourceVersion ?? '' }, query, now, withColumns);
}
