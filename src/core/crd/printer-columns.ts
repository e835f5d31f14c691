// The Table of a custom resource (apiextensions' customresource
// tableconvertor): Name, then the version's additionalPrinterColumns — or a
// single Age column (.metadata.creationTimestamp) when it declares none.
// Cells are computed by the server: a string column prints the value as
// client-go's jsonpath does (maps and lists as JSON), integer/number/boolean
// columns carry the typed value or null, and a date column carries the age
// already humanised ("5m"), which is what kube-apiserver sends.

import type { KubeObject, TableColumn, TableDefinition } from '../kinds/types';
import { AGE_COLUMN, NAME_COLUMN } from '../kinds/builtin/common/table';
import { humanDuration } from '../kinds/builtin/common/human-duration';
import { formatGoFloat } from '../schema/typecheck';
import { firstResult, parseJsonPath, type Segment } from './jsonpath';
import type { CustomResourceColumnDefinition } from './types';

/** The column kube serves when a version declares no printer columns. */
export const DEFAULT_COLUMNS: CustomResourceColumnDefinition[] = [
  { name: 'Age', type: 'date', description: AGE_COLUMN.description, jsonPath: '.metadata.creationTimestamp' },
];

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Go's json.Marshal of an unstructured value: map keys sorted, no spaces. */
function goJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${goJson(value[k])}`)
      .join(',')}}`;
  }
  const text = JSON.stringify(value ?? null);
  return text.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** jsonpath's PrintResults for one value. */
function printValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatGoFloat(value);
  return goJson(value);
}

/** metav1.Time's query-parameter parse then ConvertToHumanReadableDateType. */
function dateCell(value: string, now: number): string {
  if (value === '' || value === 'null') return '<unknown>';
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return '<invalid>';
  const t = Date.parse(value);
  if (Number.isNaN(t)) return '<invalid>';
  if (t <= Date.parse('0001-01-01T00:00:00Z')) return '<unknown>';
  return humanDuration(now - t);
}

/** cellForJSONValue: the typed cell of a non-string column, null when the value does not fit. */
function typedCell(type: string, value: unknown, now: number): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? dateCell(value, now) : null;
    default:
      return null;
  }
}

/**
 * The TableDefinition of one version. A column whose path cannot be parsed
 * ends the list there, as kube falls back to the columns built so far.
 */
export function printerColumnsTable(columns: readonly CustomResourceColumnDefinition[] | undefined): TableDefinition {
  const declared = columns && columns.length ? columns : DEFAULT_COLUMNS;
  const headers: TableColumn[] = [NAME_COLUMN];
  const paths: { type: string; path: Segment[] }[] = [];
  for (const col of declared) {
    let path: Segment[];
    try {
      path = parseJsonPath(col.jsonPath ?? '');
    } catch {
      break;
    }
    paths.push({ type: col.type ?? 'string', path });
    const header: TableColumn = {
      name: col.name ?? '',
      type: (col.type ?? 'string') as TableColumn['type'],
      ...(col.format ? { format: col.format } : {}),
      description: col.description || `Custom resource definition column (in JSONPath format): ${col.jsonPath ?? ''}`,
      priority: col.priority ?? 0,
    };
    headers.push(header);
  }
  return {
    columns: headers,
    cells(obj: KubeObject, now: number): unknown[] {
      const cells: unknown[] = [obj.metadata?.name ?? ''];
      for (const { type, path } of paths) {
        const value = firstResult(path, obj);
        cells.push(type === 'string' ? printValue(value) : typedCell(type, value, now));
      }
      return cells;
    },
  };
}
