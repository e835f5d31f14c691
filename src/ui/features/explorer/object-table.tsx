// The objects of one resource as the server prints them (Table output, the
// columns kubectl get shows), kept current by list-then-watch, virtualised.

import { useMemo } from 'react';
import { Age } from '../../components/age';
import { VirtualTable, type VirtualColumn } from '../../components/virtual-table';
import type { ListWatchEntry, ListWatchSnapshot } from '../../lib/api/list-watch';
import type { DiscoveredResource } from '../../lib/api/discovery';
import { selectionHref } from './selection';

interface Props {
  readonly resource: DiscoveredResource;
  readonly snapshot: ListWatchSnapshot;
  readonly allNamespaces: boolean;
  readonly selectedName: string;
  readonly selectedNamespace: string;
}

const entryKey = (e: ListWatchEntry) => e.key;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function ObjectTable({ resource, snapshot, allNamespaces, selectedName, selectedNamespace }: Props) {
  const columns = useMemo<VirtualColumn<ListWatchEntry>[]>(() => {
    const defs = snapshot.columns.map((c, i) => ({ ...c, i })).filter((c) => (c.priority ?? 0) === 0);
    const out: VirtualColumn<ListWatchEntry>[] = [];
    if (allNamespaces && resource.namespaced) out.push({ id: 'ns', header: 'Namespace', width: 'minmax(110px, 1fr)', render: (e) => e.namespace });
    for (const def of defs) {
      if (def.format === 'name' || (def.i === 0 && def.name === 'Name')) {
        out.push({
          id: `c${def.i}`,
          header: def.name,
          width: 'minmax(180px, 2.5fr)',
          render: (e) => (
            <a href={selectionHref({ gv: resource.groupVersion, resource: resource.resource, name: e.name, objectNamespace: e.namespace })} title={e.name}>
              {e.name}
            </a>
          ),
        });
      } else if (def.name === 'Age' && (def.type === 'string' || def.type === 'date')) {
        // The server printed the age when it sent the row (built-in kinds type it 'string', CRDs' default
        // column 'date'); from the object's creationTimestamp it keeps ticking.
        out.push({
          id: `c${def.i}`,
          header: def.name,
          width: 'minmax(70px, 1fr)',
          render: (e) => <Age timestamp={e.object.metadata?.creationTimestamp ?? undefined} fallback={cellText(e.cells?.[def.i])} />,
        });
      } else {
        out.push({ id: `c${def.i}`, header: def.name, width: 'minmax(70px, 1fr)', render: (e) => cellText(e.cells?.[def.i]) });
      }
    }
    return out;
  }, [snapshot.columns, allNamespaces, resource]);
  const selectedKey = useMemo(
    () => (selectedName ? snapshot.items.find((e) => e.name === selectedName && e.namespace === selectedNamespace)?.key : undefined),
    [snapshot.items, selectedName, selectedNamespace],
  );
  return (
    <VirtualTable
      label={`${resource.kind} objects`}
      columns={columns}
      rows={snapshot.items}
      rowKey={entryKey}
      selectedKey={selectedKey}
      empty={snapshot.phase === 'listing' ? 'Listing…' : `No ${resource.resource} here.`}
    />
  );
}
