// Events about the object: core/v1 events whose involvedObject.uid is the
// object's uid, in every namespace, kept current by list+watch.

import { useMemo } from 'react';
import { useListWatch } from '../../lib/api/use-list-watch';

interface EventObject {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  metadata?: { creationTimestamp?: string };
  source?: { component?: string };
  reportingComponent?: string;
}

export function ObjectEvents({ uid }: { uid: string }) {
  const events = useListWatch({ path: '/api/v1/events', mode: 'object', fieldSelector: `involvedObject.uid=${uid}` });
  const rows = useMemo(
    () =>
      events.items
        .map((e) => e.object as EventObject)
        .sort((a, b) => (time(a) < time(b) ? -1 : 1)),
    [events],
  );
  if (events.phase === 'listing') return <p className="muted">Listing events…</p>;
  if (!rows.length) return <p className="muted">No events about this object.</p>;
  return (
    <table className="explorer__events">
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Reason</th>
          <th scope="col">From</th>
          <th scope="col">Count</th>
          <th scope="col">Message</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((e, i) => (
          <tr key={i}>
            <td>{e.type}</td>
            <td>{e.reason}</td>
            <td>{e.source?.component || e.reportingComponent}</td>
            <td>{e.count ?? 1}</td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function time(e: EventObject): string {
  return e.lastTimestamp || e.eventTime || e.metadata?.creationTimestamp || '';
}
