// Who may do a verb on a resource: computed from the RBAC objects the API
// lists (every binding whose role has a rule granting it), like
// `kubectl who-can`. system:masters may always, whatever RBAC says.

import { useState } from 'react';
import { StatusAlert } from '../../components/status-alert';
import { whoCan, type WhoCanEntry } from './rbac-explain';
import { attributesOf, EMPTY_DRAFT, RequestFields, type RequestDraft } from './request-fields';
import { listRbacObjects } from './server-reads';

export function WhoCan() {
  const [draft, setDraft] = useState<RequestDraft>({ ...EMPTY_DRAFT, verb: 'delete' });
  const [entries, setEntries] = useState<WhoCanEntry[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const find = async () => {
    setBusy(true);
    setError(null);
    try {
      const { user: _u, groups: _g, ...attrs } = attributesOf(draft, '', []);
      setEntries(whoCan(attrs, await listRbacObjects()));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      <form
        className="stack panel"
        aria-label="Who can"
        onSubmit={(e) => {
          e.preventDefault();
          void find();
        }}
      >
        <RequestFields draft={draft} onChange={setDraft} idPrefix="who" />
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            Find who can
          </button>
        </div>
      </form>
      <StatusAlert error={error} />
      {entries && (
        <div className="panel">
          <table className="access-table" aria-label="Subjects allowed">
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">Through</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>
                  Group <strong>system:masters</strong>
                </td>
                <td colSpan={2} className="muted">
                  always allowed, before any authorizer is asked
                </td>
              </tr>
              {entries.map((e, i) => (
                <tr key={i}>
                  <td>
                    {e.subject.kind} <strong>{e.subject.namespace ? `${e.subject.namespace}/${e.subject.name}` : e.subject.name}</strong>
                  </td>
                  <td>
                    {e.via.kind} {e.via.namespace ? `${e.via.namespace}/` : ''}
                    {e.via.name}
                  </td>
                  <td>
                    {e.via.roleRef.kind} {e.via.roleRef.name} (rule {e.via.ruleIndex})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {entries.length === 0 && <p className="muted">Only system:masters: no RBAC binding grants this.</p>}
        </div>
      )}
    </div>
  );
}
