// The server's answer for each document: what happened, the Status and its
// causes, warnings; for an apply conflict, the fields and their owners.

import { conflictsFromStatus } from '../../lib/managed-fields/conflicts';
import { routeHref } from '../../lib/router';
import type { DocumentResult } from './operations';

interface Props {
  readonly results: readonly DocumentResult[];
  onForce(result: DocumentResult): void;
  onResolve(result: DocumentResult): void;
}

export function ResultsList({ results, onForce, onResolve }: Props) {
  if (!results.length) return null;
  return (
    <section className="editor__results" aria-label="Results">
      <ul>
        {results.map((r) => {
          const ok = r.status >= 200 && r.status < 300;
          const conflicts = conflictsFromStatus(r.error);
          return (
            <li key={r.docIndex} className="editor__result">
              <div className="row row--center">
                <span className={`badge ${ok ? 'badge--ok' : 'badge--error'}`}>{r.status || '—'}</span>
                <strong>{r.title}</strong>
                <span>{r.summary}</span>
                {ok && r.location?.objectPath && !r.summary.includes('dry run') && (
                  <a href={routeHref('managed-fields', { path: r.location.objectPath })}>Managed fields</a>
                )}
              </div>
              {r.errorText && <p className="editor__error">{r.errorText}</p>}
              {r.error && !conflicts.length && (
                <div className="editor__error">
                  <p>{r.error.message}</p>
                  {r.error.details?.causes?.length ? (
                    <ul>
                      {r.error.details.causes.map((c, i) => (
                        <li key={i}>
                          {c.field && <code>{c.field}</code>} {c.message}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              )}
              {conflicts.length > 0 && (
                <div className="editor__conflict" role="group" aria-label="Apply conflicts">
                  <p>{r.error?.message?.split('\n')[0]}</p>
                  <ul>
                    {conflicts.map((c) => (
                      <li key={c.field}>
                        <code>{c.field}</code> owned by <strong>{c.manager}</strong>
                        {c.apiVersion ? ` (${c.apiVersion})` : ''}
                      </li>
                    ))}
                  </ul>
                  <div className="row">
                    <button type="button" onClick={() => onForce(r)}>
                      Force apply
                    </button>
                    <button type="button" onClick={() => onResolve(r)}>
                      Resolve in managed fields
                    </button>
                  </div>
                </div>
              )}
              {r.warnings.map((w, i) => (
                <p key={i} className="alert alert--warn">
                  Warning: {w}
                </p>
              ))}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
