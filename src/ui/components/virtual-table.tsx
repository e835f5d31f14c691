// A table whose rows are rendered only when in view (@tanstack/react-virtual),
// so that 10,000 rows scroll smoothly. Rows have one fixed height: updates
// from a watch never move what is on screen. ARIA table roles keep it a
// table for assistive technology (aria-rowcount tells the full size).

import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef, type ReactNode } from 'react';

export interface VirtualColumn<T> {
  readonly id: string;
  readonly header: ReactNode;
  /** CSS grid track, e.g. 'minmax(160px, 2fr)' or '90px'. */
  readonly width: string;
  render(row: T): ReactNode;
}

interface VirtualTableProps<T> {
  readonly label: string;
  readonly columns: readonly VirtualColumn<T>[];
  readonly rows: readonly T[];
  rowKey(row: T): string;
  readonly selectedKey?: string;
  readonly empty?: ReactNode;
  readonly rowHeight?: number;
}

export function VirtualTable<T>({ label, columns, rows, rowKey, selectedKey, empty, rowHeight = 30 }: VirtualTableProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    getItemKey: (index) => (rows[index] !== undefined ? rowKey(rows[index]) : index),
  });
  const template = columns.map((c) => c.width).join(' ');
  return (
    <div className="vtable" role="table" aria-label={label} aria-rowcount={rows.length + 1}>
      <div role="rowgroup">
        <div role="row" className="vtable__head" style={{ gridTemplateColumns: template }} aria-rowindex={1}>
          {columns.map((c) => (
            <div role="columnheader" className="vtable__cell" key={c.id}>
              {c.header}
            </div>
          ))}
        </div>
      </div>
      <div className="vtable__scroll" ref={scrollRef} role="rowgroup">
        {rows.length === 0 ? (
          <div className="vtable__empty" role="row">
            <div role="cell">{empty ?? 'Nothing here.'}</div>
          </div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index];
              if (row === undefined) return null;
              const key = rowKey(row);
              return (
                <Row
                  key={key}
                  row={row}
                  columns={columns}
                  template={template}
                  top={item.start}
                  height={rowHeight}
                  index={item.index}
                  selected={key === selectedKey}
                />
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

interface RowProps<T> {
  row: T;
  columns: readonly VirtualColumn<T>[];
  template: string;
  top: number;
  height: number;
  index: number;
  selected: boolean;
}

/** Memoised: a row re-renders only when its own data (or position) changes. */
const Row = memo(function Row<T>({ row, columns, template, top, height, index, selected }: RowProps<T>) {
  return (
    <div
      role="row"
      className="vtable__row"
      aria-rowindex={index + 2}
      aria-selected={selected || undefined}
      style={{ gridTemplateColumns: template, transform: `translateY(${top}px)`, height }}
    >
      {columns.map((c) => (
        <div role="cell" className="vtable__cell" key={c.id}>
          {c.render(row)}
        </div>
      ))}
    </div>
  );
}) as <T>(props: RowProps<T>) => ReactNode;
