// The cluster as data: wipe it (a fresh cluster bootstraps again), export it
// to a file (every stored object with its resourceVersion, the
// configuration, the clock) and import such a file again.

import { useState } from 'react';
import type { ConfigurationState } from '../../../platform/browser/messages';
import { askWorker } from '../../../platform/browser/worker-client';
import { StatusAlert } from '../../components/status-alert';
import { applyAdministrator } from '../../lib/api/administrator';
import { refreshDiscovery } from '../../lib/api/discovery';
import { followConfiguration, forgetIssuedTokens } from './identities';

function afterReplace(state: ConfigurationState, onState: (state: ConfigurationState) => void): void {
  applyAdministrator(state);
  forgetIssuedTokens();
  followConfiguration(state.document);
  onState(state);
  void refreshDiscovery();
}

export function ClusterPanel({ onState }: { onState(state: ConfigurationState): void }) {
  const [confirming, setConfirming] = useState<'keep' | 'default' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      setMessage(await action());
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };
  const reset = (configuration: 'keep' | 'default') =>
    run(async () => {
      afterReplace(await askWorker('kubetab:cluster:reset', { configuration }), onState);
      return configuration === 'keep' ? 'The cluster was wiped and started fresh with the same configuration.' : 'The cluster was wiped and started fresh with the default configuration.';
    });
  const exportCluster = () =>
    run(async () => {
      // The worker answers the file itself (a Blob, by reference): the page downloads it as it is.
      const exported = await askWorker('kubetab:cluster:export', {});
      const url = URL.createObjectURL(exported.file);
      const a = document.createElement('a');
      a.href = url;
      a.download = `kubetab-cluster-${exported.exportedAt.replace(/[:]/g, '-')}.json`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return `Exported ${exported.keys} stored keys at revision ${exported.revision}.`;
    });
  const importCluster = (file: File) =>
    run(async () => {
      // The File goes to the worker by reference; the worker reads, parses and checks it
      // (a file that is not JSON, or not an archive, is refused there and changes nothing).
      const state = await askWorker('kubetab:cluster:import', { file }).catch((e: unknown) => {
        throw new Error(`${file.name}: ${e instanceof Error ? e.message : String(e)}`);
      });
      afterReplace(state, onState);
      return `Imported ${file.name}.`;
    });
  return (
    <div className="stack">
      <div className="panel stack">
        <h3>Reset</h3>
        <p className="muted">Wipes every stored object. The server bootstraps a fresh cluster (namespaces, default RBAC policy); resourceVersions continue above the old ones.</p>
        {confirming ? (
          <div className="row row--center alert alert--warn" role="alertdialog" aria-label="Confirm reset">
            <span>Wipe every object{confirming === 'default' ? ' and restore the default configuration' : ''}? This cannot be undone.</span>
            <button type="button" className="danger" disabled={busy} onClick={() => void reset(confirming)}>
              Wipe
            </button>
            <button type="button" onClick={() => setConfirming(null)}>
              Cancel
            </button>
          </div>
        ) : (
          <div className="row">
            <button type="button" className="danger" disabled={busy} onClick={() => setConfirming('keep')}>
              Reset the cluster
            </button>
            <button type="button" className="danger" disabled={busy} onClick={() => setConfirming('default')}>
              Reset with the default configuration
            </button>
          </div>
        )}
      </div>
      <div className="panel stack">
        <h3>Export and import</h3>
        <p className="muted">A file with every stored object (Secrets and keys included), the configuration and the clock. Importing replaces this cluster with the file's.</p>
        <div className="row">
          <button type="button" disabled={busy} onClick={() => void exportCluster()}>
            Export to a file
          </button>
          <label>
            Import a cluster file
            <input
              type="file"
              accept="application/json,.json"
              disabled={busy}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void importCluster(file);
                e.target.value = '';
              }}
            />
          </label>
        </div>
      </div>
      {message && (
        <p className="alert" role="status">
          {message}
        </p>
      )}
      <StatusAlert error={error} />
    </div>
  );
}
