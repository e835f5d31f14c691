// Apply a manifest to this object as any field manager: the quickest way to
// see two managers share a field, conflict, or hand a field over.

import { useState } from 'react';
import { StatusAlert } from '../../components/status-alert';
import { conflictsFromStatus } from '../../lib/managed-fields/conflicts';
import { useAppStore } from '../../lib/store';
import { applyAs } from './apply';

interface Props {
  readonly objectPath: string;
  readonly manifest: string;
  onManifest(text: string): void;
  readonly manager: string;
  onManager(name: string): void;
}

export function ApplyPanel({ objectPath, manifest, onManifest, manager, onManager }: Props) {
  const [force, setForce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const setLastConflict = useAppStore((s) => s.setLastConflict);

  const apply = async () => {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      const outcome = await applyAs(objectPath, manifest, manager, force);
      if (outcome.ok) {
        setDone(`Applied as ${manager}.`);
        const last = useAppStore.getState().lastConflict;
        if (last?.objectPath === objectPath && last.source === 'managed-fields') setLastConflict(null);
        return;
      }
      const conflicts = conflictsFromStatus(outcome.error.statusBody);
      if (conflicts.length) {
        setLastConflict({ objectPath, manifest, fieldManager: manager, source: 'managed-fields', docIndex: 0, message: outcome.error.message, conflicts });
      } else setError(outcome.error);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel stack" aria-label="Apply as a field manager">
      <h2>Apply as a field manager</h2>
      <div className="row">
        <label>
          Manager
          <input value={manager} onChange={(e) => onManager(e.target.value)} spellCheck={false} />
        </label>
        <label className="check">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
          Force
        </label>
        <button type="button" className="primary" disabled={busy || !manager} onClick={() => void apply()}>
          Apply as {manager || '…'}
        </button>
      </div>
      <label>
        Manifest to apply
        <textarea rows={10} value={manifest} spellCheck={false} onChange={(e) => onManifest(e.target.value)} />
      </label>
      {done && (
        <p role="status" className="muted">
          {done}
        </p>
      )}
      <StatusAlert error={error} />
    </section>
  );
}
