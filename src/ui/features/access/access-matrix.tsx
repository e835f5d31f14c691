// What a subject may do: resources × verbs in a namespace (or at the cluster
// scope), from the server's SelfSubjectRulesReview for that subject (sent by
// the administrator impersonating it, as `kubectl auth can-i --list --as`).
// A cell is "yes", "some names" (only rules with resourceNames) or empty.

import { useState } from 'react';
import { StatusAlert } from '../../components/status-alert';
import { useDiscovery } from '../../lib/api/discovery';
import { splitGroups, SubjectFields, type Subject } from './check-request';
import { explainRule } from './rbac-explain';
import { rulesReview, type RulesReview } from './server-reads';

const MATRIX_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

type Cell = 'yes' | 'some' | 'no';

function cellFor(review: RulesReview, verb: string, group: string, resource: string, namespace: string): Cell {
  let some = false;
  for (const r of review.resourceRules) {
    const rule = { verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [] };
    const attrs = { user: '', groups: [], verb, resource: { group, resource, subresource: '', namespace, name: '' } };
    if (!explainRule(rule, attrs).matched) continue;
    if (!r.resourceNames?.length) return 'yes';
    some = true;
  }
  return some ? 'some' : 'no';
}

export function AccessMatrix({ initial }: { initial: Subject }) {
  const discovery = useDiscovery();
  const [subject, setSubject] = useState<Subject>(initial);
  const [namespace, setNamespace] = useState('default');
  const [review, setReview] = useState<{ rules: RulesReview; namespace: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const load = async () => {
    setBusy(true);
    setError(null);
    try {
      setReview({ rules: await rulesReview(subject.user.trim(), splitGroups(subject.groups), namespace.trim()), namespace: namespace.trim() });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const resources = (discovery.resources ?? []).filter((r) => r.preferred && (review ? (review.namespace ? r.namespaced : !r.namespaced) : true));
  return (
    <div className="stack">
      <form
        className="stack panel"
        aria-label="Access matrix for a subject"
        onSubmit={(e) => {
          e.preventDefault();
          void load();
        }}
      >
        <SubjectFields subject={subject} onChange={setSubject} />
        <div className="row">
          <label>
            Namespace
            <input value={namespace} onChange={(e) => setNamespace(e.target.value)} placeholder="(cluster scope)" />
          </label>
          <button type="submit" className="primary" disabled={busy || !subject.user.trim()}>
            Show access
          </button>
        </div>
      </form>
      <StatusAlert error={error} />
      {review && (
        <div className="panel stack">
          {review.rules.incomplete && <p className="alert alert--warn">The server says this list is incomplete{review.rules.evaluationError ? `: ${review.rules.evaluationError}` : ''} (an authorizer cannot list its rules, e.g. Node or a webhook).</p>}
          <div className="access-table-wrap">
            <table className="access-matrix" aria-label={`Access of ${subject.user} ${review.namespace ? `in ${review.namespace}` : 'at the cluster scope'}`}>
              <thead>
                <tr>
                  <th scope="col">Resource</th>
                  {MATRIX_VERBS.map((v) => (
                    <th key={v} scope="col">
                      {v}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {resources.map((r) => (
                  <tr key={`${r.group}/${r.resource}`}>
                    <th scope="row">
                      {r.resource}
                      {r.group ? <span className="muted">.{r.group}</span> : null}
                    </th>
                    {MATRIX_VERBS.map((v) => {
                      const cell = cellFor(review.rules, v, r.group, r.resource, review.namespace);
                      return (
                        <td key={v} data-cell={cell} aria-label={`${v} ${r.resource}: ${cell === 'yes' ? 'allowed' : cell === 'some' ? 'some names' : 'not allowed'}`}>
                          {cell === 'yes' ? '✓' : cell === 'some' ? '◐' : '✗'}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {review.rules.nonResourceRules.length > 0 && (
            <p className="muted">
              Paths: {review.rules.nonResourceRules.map((r) => `${r.verbs.join(',')} ${(r.nonResourceURLs ?? []).join(',')}`).join('; ')}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
