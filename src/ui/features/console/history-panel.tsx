// Requests sent before (kept in localStorage): load one back into the form or
// send it again as it was.

import type { ConsoleRequest, HistoryEntry } from '../../lib/store/console-slice';

interface Props {
  readonly history: readonly HistoryEntry[];
  onLoad(request: ConsoleRequest): void;
  onResend(request: ConsoleRequest): void;
  onClear(): void;
}

function summary(request: ConsoleRequest): string {
  const query = new URLSearchParams(Object.entries(request.query).filter(([, v]) => v !== '')).toString();
  return `${request.path}${query ? `?${query}` : ''}`;
}

export function HistoryPanel({ history, onLoad, onResend, onClear }: Props) {
  return (
    <section className="stack" aria-label="History">
      <div className="row row--center">
        <h2 className="grow">History</h2>
        <button type="button" onClick={onClear} disabled={!history.length}>
          Clear history
        </button>
      </div>
      {history.length === 0 ? (
        <p className="muted">Requests you send are listed here.</p>
      ) : (
        <ol className="history" aria-label="Sent requests">
          {history.map((entry) => (
            <li key={entry.id} className="history__item">
              <span className={`badge ${entry.status >= 200 && entry.status < 300 ? 'badge--ok' : 'badge--error'}`}>{entry.status || 'ERR'}</span>
              <span className="history__method">{entry.request.method}</span>
              <span className="history__path mono" title={summary(entry.request)}>
                {summary(entry.request)}
              </span>
              <span className="history__actions">
                <button type="button" onClick={() => onLoad(entry.request)} aria-label={`Load ${entry.request.method} ${summary(entry.request)}`}>
                  Load
                </button>
                <button type="button" onClick={() => onResend(entry.request)} aria-label={`Resend ${entry.request.method} ${summary(entry.request)}`}>
                  Resend
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
