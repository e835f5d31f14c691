// A request composed by hand: who (user and groups, or taken from an
// identity), what (verb on a resource or a path). The server answers through
// a SubjectAccessReview; the steps explain its answer with the configured
// chain and the RBAC objects the API lists.

import { useEffect, useState } from 'react';
import { StatusAlert } from '../../components/status-alert';
import { useAppStore } from '../../lib/store';
import { DecisionStepsView } from './decision-steps';
import { attributesOf, RequestFields, type RequestDraft } from './request-fields';
import { authorizerChain, listRbacObjects, subjectAccessReview, whoAmI } from './server-reads';
import { stepsFromReview, type DecisionSteps } from './steps';

export interface Subject {
  user: string;
  groups: string;
}

export function splitGroups(text: string): string[] {
  return text
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
}

export function SubjectFields({ subject, onChange }: { subject: Subject; onChange(subject: Subject): void }) {
  const identities = useAppStore((s) => s.identities);
  const [from, setFrom] = useState('');
  const [error, setError] = useState<unknown>(null);
  const fill = async (id: string) => {
    setFrom(id);
    const identity = identities.find((i) => i.id === id);
    if (!identity) return;
    setError(null);
    try {
      const who = await whoAmI(identity);
      onChange({ user: who.username, groups: who.groups.join(', ') });
    } catch (e) {
      setError(e);
    }
  };
  return (
    <fieldset className="access-fields">
      <legend>Who</legend>
      <div className="row">
        <label>
          User
          <input value={subject.user} onChange={(e) => onChange({ ...subject, user: e.target.value })} size={24} />
        </label>
        <label className="grow">
          Groups (comma-separated)
          <input value={subject.groups} onChange={(e) => onChange({ ...subject, groups: e.target.value })} />
        </label>
        <label>
          Or as an identity is
          <select value={from} onChange={(e) => void fill(e.target.value)}>
            <option value="">choose…</option>
            {identities.map((i) => (
              <option key={i.id} value={i.id}>
                {i.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <StatusAlert error={error} />
    </fieldset>
  );
}

export function CheckRequest({ initial }: { initial: { subject: Subject; draft: RequestDraft } }) {
  const [subject, setSubject] = useState(initial.subject);
  const [draft, setDraft] = useState(initial.draft);
  const [steps, setSteps] = useState<DecisionSteps | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setSubject(initial.subject);
    setDraft(initial.draft);
    setSteps(null);
  }, [initial]);

  const check = async () => {
    setBusy(true);
    setError(null);
    try {
      const attrs = attributesOf(draft, subject.user.trim(), splitGroups(subject.groups));
      const [answer, chain, rbac] = await Promise.all([subjectAccessReview(attrs), authorizerChain(), listRbacObjects()]);
      setSteps(stepsFromReview(attrs, chain, rbac, answer));
    } catch (e) {
      setError(e);
      setSteps(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack">
      <form
        className="stack panel"
        aria-label="Compose a request"
        onSubmit={(e) => {
          e.preventDefault();
          void check();
        }}
      >
        <SubjectFields subject={subject} onChange={setSubject} />
        <RequestFields draft={draft} onChange={setDraft} idPrefix="check" />
        <div className="row">
          <button type="submit" className="primary" disabled={busy || !subject.user.trim()}>
            {busy ? 'Asking the server…' : 'Check'}
          </button>
          <span className="muted">Sends a SubjectAccessReview; the server's answer is the final step.</span>
        </div>
      </form>
      <StatusAlert error={error} />
      {steps && <DecisionStepsView steps={steps} />}
    </div>
  );
}
