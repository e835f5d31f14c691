// A watch as a live list: each event's type and resourceVersion (and the
// object it concerns), newest last; stoppable. Virtualised, so a fast watch
// does not slow the page.

import { useMemo, useState } from 'react';
import { VirtualTable, type VirtualColumn } from '../../components/virtual-table';
import type { ConsoleWatchEvent } from './send';

interface Props {
  readonly events: readonly ConsoleWatchEvent[];
  readonly running: boolean;
  readonly status: number;
  onStop(): void;
}

const eventKey = (e: ConsoleWatchEvent) => String(e.seq);

export function WatchEvents({ events, running, status, onStop }: Props) {
  const [selected, setSelected] = useState<number | null>(null);
  const columns = useMemo<VirtualColumn<ConsoleWatchEvent>[]>(
    () => [
      { id: 'seq', header: '#', width: '56px', render: (e) => e.seq },
      {
        id: 'type',
        header: 'Type',
        width: '110px',
        render: (e) => (
          <button type="button" className={`event-type event-type--${e.type.toLowerCase()}`} onClick={() => setSelected(e.seq)}>
            {e.type}
          </button>
        ),
      },
      { id: 'rv', header: 'resourceVersion', width: 'minmax(120px, 1fr)', render: (e) => <span className="mono">{e.resourceVersion}</span> },
      { id: 'object', header: 'Object', width: 'minmax(160px, 2fr)', render: (e) => (e.namespace ? `${e.kind} ${e.namespace}/${e.name}` : `${e.kind} ${e.name}`) },
    ],
    [],
  );
  const current = selected !== null ? events.find((e) => e.seq === selected) : undefined;
  return (
    <section className="stack watch-events" aria-label="Watch events">
      <div className="row row--center">
        <span className={`badge ${running ? 'badge--ok' : ''}`} role="status">
          {running ? 'Watching' : 'Watch ended'} · {events.length} events · HTTP {status}
        </span>
        <button type="button" onClick={onStop} disabled={!running}>
          Stop watch
        </button>
      </div>
      <div className="watch-events__table">
        <VirtualTable label="Watch events" columns={columns} rows={events} rowKey={eventKey} selectedKey={selected !== null ? String(selected) : undefined} empty="Waiting for events…" />
      </div>
      {current && (
        <pre className="code console__body" aria-label={`Event ${current.seq}`}>
          {JSON.stringify(current.object, null, 2)}
        </pre>
      )}
    </section>
  );
}
