// The answer: status, time, headers (Warning headers called out), body
// pretty-printed, and "Continue" when a list has more pages. A failure's
// Status is summed up above the raw body (its reason and message, wrapped),
// and the body wraps: a long message is read, not cut at the right edge.

import { parseWarnings } from '../../lib/api/warnings';
import type { ConsoleResponse } from './send';

interface Props {
  readonly response: ConsoleResponse;
  onContinue(token: string): void;
}

/** A kube Status of failure: its reason and message. */
function statusFailure(json: unknown): { reason: string; message: string } | null {
  const status = json as { kind?: unknown; status?: unknown; reason?: unknown; message?: unknown } | undefined;
  if (!status || status.kind !== 'Status' || status.status !== 'Failure') return null;
  return { reason: typeof status.reason === 'string' ? status.reason : '', message: typeof status.message === 'string' ? status.message : '' };
}

export function ResponsePanel({ response, onContinue }: Props) {
  const warnings = response.headers.filter(([n]) => n.toLowerCase() === 'warning').flatMap(([, v]) => parseWarnings(v));
  const continueToken = (response.json as { metadata?: { continue?: string } } | undefined)?.metadata?.continue;
  const remaining = (response.json as { metadata?: { remainingItemCount?: number } } | undefined)?.metadata?.remainingItemCount;
  const ok = response.status >= 200 && response.status < 300;
  const failure = statusFailure(response.json);
  return (
    <section className="stack" aria-label="Response">
      <div className="row row--center">
        <span className={`badge ${ok ? 'badge--ok' : 'badge--error'}`} data-testid="response-status">
          {response.status} {response.statusText}
        </span>
        <span className="muted">{response.durationMs} ms</span>
        {continueToken ? (
          <>
            <span className="muted">{remaining !== undefined ? `${remaining} more` : 'more items'}</span>
            <button type="button" onClick={() => onContinue(continueToken)}>
              Continue
            </button>
          </>
        ) : null}
      </div>
      {failure && (
        <div role="alert" aria-label="Error summary" className="alert alert--error response-summary">
          <strong>{failure.reason || 'Failure'}</strong>
          {failure.message && <span className="response-summary__message">{failure.message}</span>}
        </div>
      )}
      {warnings.length > 0 && (
        <div role="alert" className="alert alert--warn" aria-label="Warnings">
          <strong>Warning</strong>
          <ul className="warnings">
            {warnings.map((w, i) => (
              <li key={i} title={`${w.code} ${w.agent}`}>
                {w.text}
              </li>
            ))}
          </ul>
        </div>
      )}
      <details>
        <summary>Headers ({response.headers.length})</summary>
        <table className="headers-table">
          <tbody>
            {response.headers.map(([name, value], i) => (
              <tr key={i} className={name.toLowerCase() === 'warning' ? 'headers-table__warning' : undefined}>
                <th scope="row">{name}</th>
                <td className="mono">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <pre className="code console__body" aria-label="Response body" tabIndex={0}>
        {response.body}
      </pre>
    </section>
  );
}
