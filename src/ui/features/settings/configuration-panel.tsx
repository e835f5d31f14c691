// The cluster's configuration document: kube-apiserver's authorization chain,
// authentication configuration, static tokens, feature gates and
// runtime-config, edited as YAML, validated by the service worker (kube's
// validators and start-up checks) before it is saved, and applied by
// restarting the server core. One click sets up the open cluster (no access
// control) or the secure default again.

import { useEffect, useState } from 'react';
import { parse } from 'yaml';
import { openConfiguration, secureConfiguration, type ClusterConfiguration } from '../../../platform/browser/cluster-config';
import type { ConfigurationState, ValidationAnswer } from '../../../platform/browser/messages';
import { askWorker } from '../../../platform/browser/worker-client';
import { StatusAlert } from '../../components/status-alert';
import { applyAdministrator } from '../../lib/api/administrator';
import { refreshDiscovery } from '../../lib/api/discovery';
import { toYaml } from '../../lib/yaml/yaml-text';
import { followConfiguration } from './identities';

function parseDocument(text: string): { document?: unknown; error?: string } {
  try {
    return { document: parse(text) as unknown };
  } catch (e) {
    return { error: `YAML: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The secure set-up, keeping the users (and so the administrator) the document already has. */
function secureFrom(previous: ClusterConfiguration): ClusterConfiguration {
  const fresh = secureConfiguration();
  return { ...fresh, ...(previous.tokens?.length ? { tokens: previous.tokens } : {}), featureGates: { ...(previous.featureGates ?? {}) }, runtimeConfig: { ...(previous.runtimeConfig ?? {}) }, ...(previous.nodes ? { nodes: previous.nodes } : {}) };
}

function MapEditor({ title, entries, valueLabel, onSet, onRemove, help, options }: {
  title: string;
  entries: Array<[string, string]>;
  valueLabel: string;
  help: string;
  options?: string[];
  onSet(key: string, value: string): void;
  onRemove(key: string): void;
}) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState(options?.[0] ?? '');
  return (
    <div className="panel stack" aria-label={title} role="group">
      <h3>{title}</h3>
      <p className="muted">{help}</p>
      {entries.length > 0 && (
        <ul className="settings-pairs">
          {entries.map(([k, v]) => (
            <li key={k}>
              <code>
                {k}={v}
              </code>{' '}
              <button type="button" className="danger" onClick={() => onRemove(k)} aria-label={`Remove ${k}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <label>
          Name
          <input value={key} onChange={(e) => setKey(e.target.value)} />
        </label>
        <label>
          {valueLabel}
          {options ? (
            <select value={value} onChange={(e) => setValue(e.target.value)}>
              {options.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          ) : (
            <input value={value} onChange={(e) => setValue(e.target.value)} />
          )}
        </label>
        <button type="button" disabled={!key.trim()} onClick={() => onSet(key.trim(), value)}>
          Set {title === 'Feature gates' ? 'gate' : 'entry'}
        </button>
      </div>
    </div>
  );
}

export function ConfigurationPanel({ state, onState }: { state: ConfigurationState | null; onState(state: ConfigurationState): void }) {
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<(ValidationAnswer & { saved?: boolean }) | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    if (state) setText(toYaml(state.document));
  }, [state]);

  const run = async (what: string, action: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };
  const save = (document: unknown) =>
    run('save', async () => {
      const reply = await askWorker('kubetab:configuration:save', { document });
      setAnswer(reply);
      if (reply.saved) {
        applyAdministrator(reply.state);
        followConfiguration(reply.state.document);
        onState(reply.state);
        void refreshDiscovery();
      }
    });
  const fromText = (): unknown => {
    const parsed = parseDocument(text);
    if (parsed.error) {
      setAnswer({ valid: false, problems: [{ field: '', message: parsed.error }], warnings: [] });
      return undefined;
    }
    return parsed.document;
  };
  /** Edits one map of the document in the text (feature gates, runtime-config). */
  const editMap = (section: 'featureGates' | 'runtimeConfig', update: (map: Record<string, unknown>) => void) => {
    const document = fromText();
    if (!document || typeof document !== 'object') return;
    const doc = document as Record<string, unknown>;
    const map = { ...((doc[section] as Record<string, unknown> | undefined) ?? {}) };
    update(map);
    setText(toYaml({ ...doc, [section]: map }));
  };
  const current = (() => {
    const parsed = parseDocument(text).document as ClusterConfiguration | undefined;
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  })();

  return (
    <div className="stack">
      <div className="panel stack">
        <h3>Set-up</h3>
        <p className="muted">
          {state?.open ? 'Now: open (no access control, AlwaysAllow).' : 'Now: secured (the authorizers and users below).'} Either button saves and restarts the server at once; the objects stay.
        </p>
        <div className="row">
          <button type="button" disabled={Boolean(busy) || !state} onClick={() => state && void save(openConfiguration(state.document))}>
            Open set-up (AlwaysAllow)
          </button>
          <button type="button" disabled={Boolean(busy) || !state} onClick={() => state && void save(secureFrom(state.document))}>
            Secure set-up (Node,RBAC)
          </button>
        </div>
      </div>
      <div className="settings-config">
        <div className="stack">
          <label className="settings-config__editor">
            Cluster configuration (YAML)
            <textarea value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} rows={16} />
          </label>
          <div className="row">
            <button
              type="button"
              disabled={Boolean(busy)}
              onClick={() => {
                const document = fromText();
                if (document !== undefined) void run('validate', async () => setAnswer(await askWorker('kubetab:configuration:validate', { document })));
              }}
            >
              Validate
            </button>
            <button
              type="button"
              className="primary"
              disabled={Boolean(busy)}
              onClick={() => {
                const document = fromText();
                if (document !== undefined) void save(document);
              }}
            >
              {busy === 'save' ? 'Restarting…' : 'Save and restart'}
            </button>
            <button type="button" disabled={!state || Boolean(busy)} onClick={() => state && (setText(toYaml(state.document)), setAnswer(null))}>
              Revert to saved
            </button>
          </div>
          <StatusAlert error={error} />
          {state?.startError && <p className="alert alert--error">The server could not start with the saved configuration: {state.startError}</p>}
          {answer && (
            <div className={`alert ${answer.valid ? '' : 'alert--error'}`} role="status" aria-label="Validation">
              <strong>{answer.saved ? 'Saved; the server restarted with it.' : answer.valid ? 'Valid.' : 'Not saved: the configuration is not valid.'}</strong>
              {answer.problems.length > 0 && (
                <ul>
                  {answer.problems.map((p, i) => (
                    <li key={i}>{p.message}</li>
                  ))}
                </ul>
              )}
              {answer.warnings.map((w, i) => (
                <p key={i} className="muted">
                  Warning: {w}
                </p>
              ))}
            </div>
          )}
        </div>
        <div className="stack">
          <MapEditor
            title="Feature gates"
            valueLabel="Enabled"
            options={['true', 'false']}
            help="--feature-gates: kube-apiserver 1.32's gates; an unknown one is refused."
            entries={Object.entries(current?.featureGates ?? {}).map(([k, v]) => [k, String(v)])}
            onSet={(k, v) => editMap('featureGates', (m) => void (m[k] = v === 'true'))}
            onRemove={(k) => editMap('featureGates', (m) => void delete m[k])}
          />
          <MapEditor
            title="Runtime config"
            valueLabel="Value"
            help="--runtime-config: turn API versions or resources on or off, e.g. batch/v1=false, api/alpha=true."
            entries={Object.entries(current?.runtimeConfig ?? {}).map(([k, v]) => [k, String(v)])}
            onSet={(k, v) => editMap('runtimeConfig', (m) => void (m[k] = v))}
            onRemove={(k) => editMap('runtimeConfig', (m) => void delete m[k])}
          />
        </div>
      </div>
    </div>
  );
}
