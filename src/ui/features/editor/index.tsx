// Feature 3: the manifest editor. Several YAML documents in one buffer,
// validated and completed from the server's schemas; Apply (server-side),
// Create or Replace each document, optionally as a dry run; a diff against
// the live objects first; the server's errors and conflicts at their fields.

import { useState } from 'react';
import { discovery, refreshDiscovery } from '../../lib/api/discovery';
import { conflictsFromStatus } from '../../lib/managed-fields/conflicts';
import { navigate } from '../../lib/router';
import { useAppStore } from '../../lib/store';
import { parseBuffer, toYaml } from '../../lib/yaml/yaml-text';
import { readBuffer } from './buffer';
import { DiffView } from './diff-view';
import { EXAMPLES } from './examples';
import { ManifestEditor } from './manifest-editor';
import { markersFor, type BufferMarker } from './markers';
import { readLive, writeDocument, type DocumentResult, type Operation, type WriteOptions } from './operations';
import { ResultsList } from './results-list';
import { resetSchema } from './schema-sync';
import './editor.css';

interface DiffState {
  readonly operation: Operation;
  readonly original: string;
  readonly modified: string;
}

function forDiff(object: unknown): string {
  if (!object) return '';
  const copy = structuredClone(object) as { metadata?: Record<string, unknown> };
  // As kubectl diff: managedFields are noise here.
  delete copy.metadata?.managedFields;
  return toYaml(copy);
}

export default function EditorView() {
  const fieldManager = useAppStore((s) => s.fieldManager);
  const setFieldManager = useAppStore((s) => s.setFieldManager);
  const namespace = useAppStore((s) => s.namespace);
  const replaceEditorText = useAppStore((s) => s.replaceEditorText);
  const setLastConflict = useAppStore((s) => s.setLastConflict);
  const [force, setForce] = useState(false);
  const [dryRun, setDryRun] = useState(false);
  const [fieldValidation, setFieldValidation] = useState('Strict');
  const [diffAs, setDiffAs] = useState<Operation>('apply');
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<DocumentResult[]>([]);
  const [markers, setMarkers] = useState<BufferMarker[]>([]);
  const [diff, setDiff] = useState<DiffState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const options = (operation: Operation, overrides: Partial<WriteOptions> = {}): WriteOptions => ({
    operation,
    fieldManager,
    force,
    dryRun,
    fieldValidation,
    defaultNamespace: namespace || 'default',
    ...overrides,
  });

  const run = async (operation: Operation, overrides: Partial<WriteOptions> = {}) => {
    setBusy(true);
    setProblem(null);
    try {
      const text = readBuffer();
      const docs = parseBuffer(text);
      if (!docs.length) throw new Error('The buffer has no documents.');
      const resources = await discovery();
      const out: DocumentResult[] = [];
      // In order, as kubectl does: a Namespace before what goes into it.
      for (const doc of docs) out.push(await writeDocument(resources, doc, text, options(operation, overrides)));
      setResults(out);
      setMarkers(markersFor(out, docs));
      const conflicted = out.find((r) => r.error?.code === 409 && conflictsFromStatus(r.error).length);
      if (conflicted?.location) {
        setLastConflict({
          objectPath: conflicted.location.objectPath,
          manifest: conflicted.manifest,
          fieldManager: options(operation, overrides).fieldManager,
          source: 'editor',
          docIndex: conflicted.docIndex,
          message: conflicted.error?.message ?? '',
          conflicts: conflictsFromStatus(conflicted.error),
        });
      }
      // A CRD written changes what is served.
      if (out.some((r) => r.object?.kind === 'CustomResourceDefinition')) {
        resetSchema();
        void refreshDiscovery();
      }
      return out;
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      return [];
    } finally {
      setBusy(false);
    }
  };

  const showDiff = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const text = readBuffer();
      const docs = parseBuffer(text);
      const resources = await discovery();
      const dry = [];
      for (const doc of docs) dry.push(await writeDocument(resources, doc, text, options(diffAs, { dryRun: true })));
      const live = await Promise.all(dry.map((r) => (r.location ? readLive(r.location).catch(() => null) : null)));
      setResults(dry);
      setMarkers(markersFor(dry, docs));
      const failed = dry.filter((r) => !r.object);
      if (failed.length === dry.length) {
        setProblem('The dry run failed for every document; see the results.');
        return;
      }
      setDiff({
        operation: diffAs,
        original: live.map((o) => forDiff(o)).join('---\n'),
        modified: dry.map((r) => forDiff(r.object)).join('---\n'),
      });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };


  return (
    <div className="view view--fill editor">
      <div className="editor__toolbar">
        <div className="row">
          <label>
            Field manager
            <input value={fieldManager} onChange={(e) => setFieldManager(e.target.value)} spellCheck={false} />
          </label>
          <label>
            Field validation
            <select value={fieldValidation} onChange={(e) => setFieldValidation(e.target.value)}>
              <option>Strict</option>
              <option>Warn</option>
              <option>Ignore</option>
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
            Force conflicts
          </label>
          <label className="check">
            <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} />
            Dry run
          </label>
          <label>
            Examples
            <select
              value=""
              onChange={(e) => {
                const example = EXAMPLES.find((x) => x.name === e.target.value);
                if (example) replaceEditorText(example.text);
                setResults([]);
                setMarkers([]);
              }}
            >
              <option value="">Load an example…</option>
              {EXAMPLES.map((x) => (
                <option key={x.name}>{x.name}</option>
              ))}
            </select>
          </label>
        </div>
        <div className="row">
          <button type="button" className="primary" disabled={busy} onClick={() => void run('apply')}>
            Apply
          </button>
          <button type="button" disabled={busy} onClick={() => void run('create')}>
            Create
          </button>
          <button type="button" disabled={busy} onClick={() => void run('replace')}>
            Replace
          </button>
          <span className="editor__sep" aria-hidden="true" />
          <label className="editor__diff-as">
            <span className="visually-hidden">Diff as</span>
            <select aria-label="Diff as" value={diffAs} onChange={(e) => setDiffAs(e.target.value as Operation)}>
              <option value="apply">as apply</option>
              <option value="create">as create</option>
              <option value="replace">as replace</option>
            </select>
          </label>
          <button type="button" disabled={busy} onClick={() => void (diff ? setDiff(null) : showDiff())} aria-pressed={!!diff}>
            {diff ? 'Back to the manifest' : 'Diff with live'}
          </button>
          <span className="muted editor__hint">Namespace for documents without one: {namespace || 'default'}</span>
        </div>
      </div>
      {problem && (
        <div role="alert" className="alert alert--error">
          {problem}
        </div>
      )}
      <div className="editor__main">
        {diff ? (
          <div className="stack editor__diff">
            <div className="row row--center">
              <span className="muted grow">Left: live objects. Right: the result of a server dry run of {diff.operation}.</span>
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() =>
                  void run(diff.operation).then((out) => {
                    if (out.length && out.every((r) => r.object)) setDiff(null);
                  })
                }
              >
                Write ({diff.operation})
              </button>
            </div>
            <DiffView original={diff.original} modified={diff.modified} />
          </div>
        ) : (
          <ManifestEditor markers={markers} />
        )}
      </div>
      <ResultsList
        results={results}
        onForce={() => void run('apply', { force: true })}
        onResolve={(r) => r.location && navigate('managed-fields', { path: r.location.objectPath })}
      />
    </div>
  );
}
