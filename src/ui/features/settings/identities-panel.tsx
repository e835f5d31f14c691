// Identities: who the app sends requests as. The administrator comes from the
// configuration; static token users, service accounts (TokenRequest), an OIDC
// user (the test issuer) and anonymous are added here. "Who am I" asks the
// server (SelfSubjectReview) what it makes of an identity's credentials.

import { useState } from 'react';
import type { ConfigurationState } from '../../../platform/browser/messages';
import { StatusAlert } from '../../components/status-alert';
import { apiJson } from '../../lib/api/client';
import type { Identity } from '../../lib/api/identity';
import { useAppStore } from '../../lib/store';
import { ANONYMOUS_IDENTITY, oidcIdentity, serviceAccountIdentity, staticTokenIdentity } from './identities';

const KIND_TEXT: Record<Identity['kind'], string> = {
  admin: 'administrator (static token, system:masters)',
  token: 'static token user',
  'service-account': 'service account (TokenRequest)',
  oidc: 'OIDC user (test issuer)',
  anonymous: 'anonymous (no credentials)',
};

function WhoAmI({ identity }: { identity: Identity }) {
  const [answer, setAnswer] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const ask = async () => {
    setError(null);
    setAnswer(null);
    try {
      const review = await apiJson<{ status?: { userInfo?: { username?: string; groups?: string[] } } }>('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        method: 'POST',
        identity,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
      });
      const info = review.status?.userInfo;
      setAnswer(info?.username ? `${info.username}${info.groups?.length ? ` in ${info.groups.join(', ')}` : ''}` : 'no user (authentication is not configured)');
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void ask()} aria-label={`Who am I as ${identity.label}`}>
        Who am I?
      </button>
      {answer && (
        <span className="settings-whoami" role="status">
          {answer}
        </span>
      )}
      <StatusAlert error={error} />
    </>
  );
}

function AddServiceAccount() {
  const upsert = useAppStore((s) => s.upsertIdentity);
  const [namespace, setNamespace] = useState('default');
  const [name, setName] = useState('default');
  const [seconds, setSeconds] = useState('3600');
  const [create, setCreate] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="stack panel"
      aria-label="Add a service account"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        serviceAccountIdentity(namespace.trim(), name.trim(), Number(seconds), create)
          .then(upsert, setError)
          .finally(() => setBusy(false));
      }}
    >
      <h3>Service account</h3>
      <p className="muted">A token from the TokenRequest API, as <code>kubectl create token</code> gets one. It expires with the server's clock.</p>
      <div className="row">
        <label>
          Namespace
          <input value={namespace} onChange={(e) => setNamespace(e.target.value)} />
        </label>
        <label>
          Service account
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Expires in (s)
          <input type="number" min={600} value={seconds} onChange={(e) => setSeconds(e.target.value)} size={7} />
        </label>
        <label className="check">
          <input type="checkbox" checked={create} onChange={(e) => setCreate(e.target.checked)} /> create it if missing
        </label>
        <button type="submit" disabled={busy}>
          Get a token
        </button>
      </div>
      <StatusAlert error={error} />
    </form>
  );
}

function AddOidcUser() {
  const upsert = useAppStore((s) => s.upsertIdentity);
  const [subject, setSubject] = useState('ada');
  const [groups, setGroups] = useState('engineering');
  const [seconds, setSeconds] = useState('3600');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="stack panel"
      aria-label="Add an OIDC user"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        const list = groups.split(',').map((g) => g.trim()).filter(Boolean);
        oidcIdentity(subject.trim(), list, Number(seconds))
          .then(upsert, setError)
          .finally(() => setBusy(false));
      }}
    >
      <h3>OIDC user</h3>
      <p className="muted">
        An ID token from the built-in test issuer (<code>/kubetab/v1/oidc</code>). The configuration's JWT authenticator maps <code>sub</code> and <code>groups</code> with an <code>oidc:</code> prefix.
      </p>
      <div className="row">
        <label>
          Subject (sub)
          <input value={subject} onChange={(e) => setSubject(e.target.value)} />
        </label>
        <label>
          Groups
          <input value={groups} onChange={(e) => setGroups(e.target.value)} />
        </label>
        <label>
          Expires in (s)
          <input type="number" min={1} value={seconds} onChange={(e) => setSeconds(e.target.value)} size={7} />
        </label>
        <button type="submit" disabled={busy}>
          Get an ID token
        </button>
      </div>
      <StatusAlert error={error} />
    </form>
  );
}

export function IdentitiesPanel({ configuration }: { configuration: ConfigurationState | null }) {
  const identities = useAppStore((s) => s.identities);
  const current = useAppStore((s) => s.currentIdentityId);
  const select = useAppStore((s) => s.selectIdentity);
  const remove = useAppStore((s) => s.removeIdentity);
  const upsert = useAppStore((s) => s.upsertIdentity);
  const staticUsers = (configuration?.document.tokens ?? []).filter((t) => t.user !== configuration?.administrator?.user);
  const missing = staticUsers.filter((t) => !identities.some((i) => i.id === `token:${t.user}`));
  return (
    <div className="stack">
      {configuration?.open && (
        <p className="alert alert--warn">
          The cluster is open (no access control): every request is allowed, and requests without credentials are served with no user. Credentials that are sent are still checked.
        </p>
      )}
      <div className="settings-table-wrap">
      <table className="settings-table" aria-label="Identities">
        <thead>
          <tr>
            <th scope="col">Identity</th>
            <th scope="col">Kind</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {identities.map((identity) => (
            <tr key={identity.id} aria-current={identity.id === current ? 'true' : undefined}>
              <td>
                <span className="settings-identity">
                  <strong>{identity.label}</strong>
                  {identity.id === current && <span className="badge badge--ok">current</span>}
                </span>
              </td>
              <td className="muted">{KIND_TEXT[identity.kind]}</td>
              <td className="muted">{identity.expiresAt ?? '—'}</td>
              <td>
                <div className="row row--center">
                  <button type="button" onClick={() => select(identity.id)} disabled={identity.id === current} aria-label={`Switch to ${identity.label}`} title="Requests from now on are sent as this identity">
                    Use
                  </button>
                  <WhoAmI identity={identity} />
                  {identity.kind !== 'admin' && (
                    <button type="button" className="danger" onClick={() => remove(identity.id)} aria-label={`Remove ${identity.label}`}>
                      Remove
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <div className="panel stack">
        <h3>Static token users and anonymous</h3>
        <p className="muted">The users of the configuration's token file, and requests with no credentials at all.</p>
        <div className="row">
          {missing.map((t) => (
            <button key={t.user} type="button" onClick={() => upsert(staticTokenIdentity(t.user, t.token))}>
              Add {t.user}
            </button>
          ))}
          {!identities.some((i) => i.id === ANONYMOUS_IDENTITY.id) && (
            <button type="button" onClick={() => upsert(ANONYMOUS_IDENTITY)}>
              Add anonymous
            </button>
          )}
          {missing.length === 0 && identities.some((i) => i.id === ANONYMOUS_IDENTITY.id) && <span className="muted">All added.</span>}
        </div>
      </div>
      <AddServiceAccount />
      <AddOidcUser />
    </div>
  );
}
