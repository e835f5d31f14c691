// After an apply that conflicted: each conflicting field, its owner, the
// value the applier wanted and the live value; and the three ways out, each
// one click: force (take the fields over), drop the fields from the manifest
// (leave them to their owner), adopt the live values (share ownership).

import { useState } from 'react';
import { parse } from 'yaml';
import { StatusAlert } from '../../components/status-alert';
import type { KubeObject } from '../../lib/api/types';
import type { ApplyConflict } from '../../lib/managed-fields/conflicts';
import { resolvePath } from '../../lib/managed-fields/field-path';
import { adoptLiveValues, dropFields } from '../../lib/managed-fields/manifest-edits';
import { useAppStore } from '../../lib/store';
import { parseBuffer } from '../../lib/yaml/yaml-text';
import { applyAs } from './apply';

interface Props {
  readonly conflict: ApplyConflict;
  readonly live: KubeObject | null;
  /** The managed-fields view's own manifest changed (source 'managed-fields'). */
  onManifest(text: string): void;
}

function valueAt(root: unknown, elements: ApplyConflict['conflicts'][number]['elements']): string {
  const path = resolvePath(root, elements);
  if (!path) return '—';
  let value: unknown = root;
  for (const step of path) value = (value as Record<string | number, unknown> | undefined)?.[step];
  return value === undefined ? '—' : JSON.stringify(value);
}

/** Puts a resolved document back into the editor's buffer, if the buffer still holds the original. */
function replaceInEditor(conflict: ApplyConflict, manifest: string): boolean {
  const { editorText, replaceEditorText } = useAppStore.getState();
  const doc = parseBuffer(editorText)[conflict.docIndex];
  if (!doc || editorText.slice(doc.bodyStart, doc.end) !== conflict.manifest) return false;
  replaceEditorText(editorText.slice(0, doc.bodyStart) + manifest + editorText.slice(doc.end));
  return true;
}

export function ConflictPanel({ conflict, live, onManifest }: Props) {
  const setLastConflict = useAppStore((s) => s.setLastConflict);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState('');
  let applied: unknown = null;
  try {
    applied = parse(conflict.manifest);
  } catch {
    applied = null;
  }
  const fields = conflict.conflicts.map((c) => c.elements);

  const resolve = async (how: 'force' | 'drop' | 'adopt') => {
    setBusy(true);
    setError(null);
    setNote('');
    try {
      const manifest = how === 'drop' ? dropFields(conflict.manifest, fields) : how === 'adopt' && live ? adoptLiveValues(conflict.manifest, live, fields) : conflict.manifest;
      const outcome = await applyAs(conflict.objectPath, manifest, conflict.fieldManager, how === 'force');
      if (!outcome.ok) {
        setError(outcome.error);
        return;
      }
      if (how !== 'force') {
        if (conflict.source === 'managed-fields') onManifest(manifest);
        else if (!replaceInEditor(conflict, manifest)) setNote('The editor buffer changed since the apply; it was left as it is.');
      }
      setLastConflict(null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel stack mf-conflict" aria-label="Apply conflict">
      <h2>
        Apply as <span className="mono">{conflict.fieldManager}</span> conflicted
      </h2>
      <p className="muted">{conflict.message.split('\n')[0]}</p>
      <table className="mf-conflict__table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Owner</th>
            <th scope="col">Applied value</th>
            <th scope="col">Live value</th>
          </tr>
        </thead>
        <tbody>
          {conflict.conflicts.map((c) => (
            <tr key={c.field}>
              <td className="mono">{c.field}</td>
              <td>
                {c.manager}
                {c.apiVersion ? <span className="muted"> ({c.apiVersion})</span> : null}
              </td>
              <td className="mono">{valueAt(applied, c.elements)}</td>
              <td className="mono">{live ? valueAt(live, c.elements) : '…'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <button type="button" disabled={busy} onClick={() => void resolve('force')} title="Apply again with force=true: the fields become yours alone">
          Force: take the fields over
        </button>
        <button type="button" disabled={busy} onClick={() => void resolve('drop')} title="Remove the fields from the manifest and apply: the owner keeps them">
          Drop the fields from the manifest
        </button>
        <button type="button" disabled={busy || !live} onClick={() => void resolve('adopt')} title="Set the fields to the live values and apply: ownership is shared">
          Adopt the live values
        </button>
        <button type="button" disabled={busy} onClick={() => setLastConflict(null)}>
          Dismiss
        </button>
      </div>
      {note && <p className="alert alert--warn">{note}</p>}
      <StatusAlert error={error} />
    </section>
  );
}
