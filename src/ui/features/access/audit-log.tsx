// The requests the server saw, newest first, from its audit log; choosing one
// shows how it was decided. New records are fetched every few seconds with
// `since` (the endpoint has no watch), and reading the log is not itself
// recorded.

import { useEffect, useMemo, useState } from 'react';
import { StatusAlert } from '../../components/status-alert';
import { effectiveUser, fetchAudit, type AuditRecord } from './audit';
import { DecisionStepsView } from './decision-steps';
import { stepsFromAudit } from './steps';

const KEEP = 500;
const POLL_MS = 2000;

function useAuditRecords(): { records: AuditRecord[]; error: unknown; refresh(): void } {
  const [records, setRecords] = useState<AuditRecord[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    let next: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let incomplete: number | undefined;
    const load = async () => {
      try {
        // From the oldest record still without a response code (it was in flight), else the newest seen.
        const since = next === undefined ? undefined : Math.min(next, incomplete ?? next) - 1;
        const page = await fetchAudit(since === undefined ? { limit: 200 } : { since, limit: 200 });
        if (!live) return;
        next = page.metadata.next;
        incomplete = page.items.find((r) => r.event.responseStatus?.code === undefined)?.seq;
        setError(null);
        if (page.items.length) {
          setRecords((previous) => {
            const fresh = new Map(page.items.map((r) => [r.seq, r]));
            const kept = previous.filter((r) => !fresh.has(r.seq));
            return [...kept, ...fresh.values()].sort((a, b) => b.seq - a.seq).slice(0, KEEP);
          });
        }
      } catch (e) {
        if (live) setError(e);
      }
      if (live) timer = setTimeout(load, POLL_MS);
    };
    setRecords([]);
    void load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [tick]);
  return { records, error, refresh: () => setTick((t) => t + 1) };
}

/**
 * The server's own clients (controllers, the API server's bootstrap) are served
 * as their identities without authentication: a user but no authentication
 * record. (A request of the open set-up has neither.)
 */
function isOwnClient(record: AuditRecord): boolean {
  return !record.authentication && Boolean(record.event.user?.username);
}

function time(ts: string): string {
  return ts.slice(11, 19);
}

export function AuditLog({ onCompose }: { onCompose(record: AuditRecord): void }) {
  const { records, error, refresh } = useAuditRecords();
  const [filter, setFilter] = useState('');
  const [ownClients, setOwnClients] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const shown = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return records.filter(
      (r) =>
        (ownClients || !isOwnClient(r)) &&
        (!f || `${r.event.verb} ${r.event.requestURI} ${effectiveUser(r).username ?? ''} ${r.event.responseStatus?.code ?? ''}`.toLowerCase().includes(f)),
    );
  }, [records, filter, ownClients]);
  const record = records.find((r) => r.seq === selected) ?? null;
  return (
    <div className="access-audit">
      <div className="stack access-audit__list">
        <div className="row row--center">
          <label className="grow">
            Filter
            <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="user, verb, path or code" />
          </label>
          <label className="check">
            <input type="checkbox" checked={ownClients} onChange={(e) => setOwnClients(e.target.checked)} /> Show the server's own clients
          </label>
          <button type="button" onClick={refresh}>
            Reload
          </button>
        </div>
        <StatusAlert error={error} />
        <div className="access-table-wrap">
          <table className="access-table" aria-label="Requests">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">User</th>
                <th scope="col">Verb</th>
                <th scope="col">Request</th>
                <th scope="col">Code</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => {
                const user = effectiveUser(r).username ?? '(none)';
                const code = r.event.responseStatus?.code ?? 0;
                return (
                  <tr key={r.seq} aria-selected={r.seq === selected} data-code={code}>
                    <td>{time(r.event.requestReceivedTimestamp)}</td>
                    <td className="access-table__user" title={user}>
                      {user}
                    </td>
                    <td>{r.event.verb}</td>
                    <td className="access-table__uri">
                      <button type="button" className="link" onClick={() => setSelected(r.seq)} aria-label={`${r.event.verb} ${r.event.requestURI} by ${user}: ${code}`}>
                        {r.event.requestURI}
                      </button>
                    </td>
                    <td>
                      <span className={`badge ${code >= 400 ? 'badge--error' : code >= 200 && code < 300 ? 'badge--ok' : ''}`}>{code || '…'}</span>
                    </td>
                  </tr>
                );
              })}
              {shown.length === 0 && (
                <tr>
                  <td colSpan={5} className="muted">
                    {records.length ? 'No request matches the filter.' : 'No requests recorded yet.'}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </div>
      <div className="access-audit__detail">
        {record ? (
          <>
            <DecisionStepsView steps={stepsFromAudit(record)} />
            <button type="button" onClick={() => onCompose(record)}>
              Check this request for someone else
            </button>
          </>
        ) : (
          <p className="muted">Choose a request to see how the server decided it.</p>
        )}
      </div>
    </div>
  );
}
