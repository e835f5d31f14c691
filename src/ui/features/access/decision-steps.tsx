// The decision, step by step: authentication, impersonation, each authorizer
// in order (RBAC with every binding that names the user, its role and each
// rule with why it matched or not), and the final answer with its HTTP status.

import type { TraceBinding, TraceRule } from './audit';
import type { AuthorizerStep, DecisionSteps, StepDecision } from './steps';

function DecisionBadge({ decision }: { decision: StepDecision | 'Unauthorized' }) {
  const tone = decision === 'Allow' ? 'ok' : decision === 'Deny' || decision === 'Unauthorized' ? 'error' : decision === 'Unknown' ? 'warn' : '';
  const text = decision === 'Unknown' ? 'Server decides' : decision;
  return <span className={`badge ${tone ? `badge--${tone}` : ''}`}>{text}</span>;
}

function ruleText(rule: TraceRule['rule']): string {
  if (rule.nonResourceURLs?.length) return `${rule.verbs.join(',')} on ${rule.nonResourceURLs.join(',')}`;
  const groups = (rule.apiGroups ?? []).map((g) => (g === '' ? '""' : g)).join(',');
  const names = rule.resourceNames?.length ? ` named ${rule.resourceNames.join(',')}` : '';
  return `${rule.verbs.join(',')} on ${(rule.resources ?? []).join(',')} in ${groups}${names}`;
}

function Binding({ binding }: { binding: TraceBinding }) {
  const role = binding.role;
  const allows = role?.rules.some((r) => r.matched) ?? false;
  const where = binding.namespace ? `${binding.namespace}/` : '';
  return (
    <li className="access-binding">
      <details open={allows}>
        <summary>
          <span className={`badge ${allows ? 'badge--ok' : ''}`}>{allows ? 'grants' : 'does not grant'}</span> {binding.kind} <strong>{where + binding.name}</strong> → {binding.roleRef.kind}{' '}
          <strong>{binding.roleRef.name}</strong>
        </summary>
        <p className="muted">{binding.why}</p>
        {role && !role.found && <p className="alert alert--warn">{role.error ?? `${role.kind} ${role.name} not found`}</p>}
        {role && role.found && (
          <table className="access-rules">
            <caption className="visually-hidden">Rules of {role.kind} {role.name}</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Rule</th>
                <th scope="col">Match</th>
              </tr>
            </thead>
            <tbody>
              {role.rules.length === 0 && (
                <tr>
                  <td colSpan={3} className="muted">
                    The role has no rules.
                  </td>
                </tr>
              )}
              {role.rules.map((r) => (
                <tr key={r.index} data-matched={r.matched}>
                  <td>{r.index}</td>
                  <td>
                    <code>{ruleText(r.rule)}</code>
                  </td>
                  <td>
                    {r.matched ? '✓ ' : '✗ '}
                    {r.why}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </li>
  );
}

function Authorizer({ step, index }: { step: AuthorizerStep; index: number }) {
  return (
    <li className="access-step">
      <h3>
        {index}. Authorizer {step.type}
        {step.name && step.name !== step.type.toLowerCase() ? <span className="muted"> ({step.name})</span> : null} <DecisionBadge decision={step.decision} />
        {step.source === 'explained' && <span className="muted access-step__source"> explained from the listed objects</span>}
      </h3>
      {step.reason && <p>{step.reason}</p>}
      {step.error && <p className="alert alert--error">{step.error}</p>}
      {step.notes.map((n, i) => (
        <p key={i} className="muted">
          {n}
        </p>
      ))}
      {step.bindings && (
        <>
          <p className="muted">
            {step.bindings.length === 0 ? 'No binding names the user or its groups.' : `${step.bindings.length} binding${step.bindings.length === 1 ? '' : 's'} name the user or its groups:`}
            {step.skippedBindings ? ` (${step.skippedBindings} other bindings name someone else)` : ''}
          </p>
          <ul className="access-bindings">
            {step.bindings.map((b) => (
              <Binding key={`${b.kind}/${b.namespace ?? ''}/${b.name}`} binding={b} />
            ))}
          </ul>
        </>
      )}
    </li>
  );
}

export function DecisionStepsView({ steps }: { steps: DecisionSteps }) {
  const { authentication, impersonation, authorizers, final } = steps;
  let n = 1;
  return (
    <section className="access-steps" aria-label="Decision steps">
      <h2 className="access-steps__title">{steps.title}</h2>
      <ol className="access-steps__list">
        <li className="access-step">
          <h3>
            {n++}. Authentication{' '}
            <span className={`badge ${authentication.outcome === 'ok' ? 'badge--ok' : authentication.outcome === 'refused' ? 'badge--error' : ''}`}>
              {authentication.outcome === 'ok' ? 'Authenticated' : authentication.outcome === 'refused' ? 'Refused' : 'Not checked'}
            </span>
          </h3>
          <p>{authentication.summary}</p>
          {authentication.attempts.length > 0 && (
            <ul className="access-attempts">
              {authentication.attempts.map((a, i) => (
                <li key={i}>
                  <code>{a.authenticator}</code>: {a.status}
                  {a.error ? ` — ${a.error}` : ''}
                </li>
              ))}
            </ul>
          )}
          {authentication.user?.username && (
            <p className="muted">
              User <strong>{authentication.user.username}</strong>
              {authentication.user.groups?.length ? ` in ${authentication.user.groups.join(', ')}` : ''}
            </p>
          )}
        </li>
        <li className="access-step">
          <h3>
            {n++}. Impersonation {impersonation ? null : <span className="badge">None</span>}
          </h3>
          {impersonation ? (
            <>
              <p>{impersonation.summary}</p>
              <ul className="access-attempts">
                {impersonation.checks.map((c, i) => (
                  <li key={i}>
                    <code>{c.what}</code> <DecisionBadge decision={c.decision} /> {c.reason}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="muted">The request asked to act as nobody else.</p>
          )}
        </li>
        {authorizers.length === 0 && authentication.outcome !== 'refused' && (
          <li className="access-step">
            <h3>{n}. Authorization</h3>
            <p className="muted">No authorizer was asked.</p>
          </li>
        )}
        {authorizers.map((step) => (
          <Authorizer key={`${n}-${step.type}-${step.name ?? ''}`} step={step} index={n++} />
        ))}
      </ol>
      <div className={`access-final alert ${final.status >= 400 ? 'alert--error' : ''}`} role="status" aria-label="Final answer">
        <strong>
          {final.status ? `${final.status} ${final.statusText}` : 'No response recorded'}
        </strong>{' '}
        <DecisionBadge decision={final.decision} />
        {final.message && <p className="access-final__message">{final.message}</p>}
        {final.evaluationError && <p>Evaluation error: {final.evaluationError}</p>}
        {final.mismatch && <p className="alert alert--warn">{final.mismatch}</p>}
      </div>
    </section>
  );
}
