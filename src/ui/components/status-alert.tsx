// A failed request as a person needs it: code, reason, message, and the
// field causes of a Status.

import { ApiError } from '../lib/api/client';

export function StatusAlert({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError && error.statusBody) {
    const s = error.statusBody;
    return (
      <div role="alert" className="alert alert--error">
        <strong>
          {s.code} {s.reason}
        </strong>{' '}
        {s.message}
        {s.details?.causes?.length ? (
          <ul>
            {s.details.causes.map((c, i) => (
              <li key={i}>
                {c.field ? <code>{c.field}</code> : null} {c.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  }
  return (
    <div role="alert" className="alert alert--error">
      {error instanceof Error ? error.message : String(error)}
    </div>
  );
}
