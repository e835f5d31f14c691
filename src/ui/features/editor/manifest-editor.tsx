// The Monaco editor holding the buffer: YAML with validation and completion
// from the server's schemas, markers from the server's answers. The store
// keeps the text (persisted); a replacement from outside (revision bump)
// reloads the model.

import { useEffect, useRef, useState } from 'react';
import { useDiscovery } from '../../lib/api/discovery';
import { useAppStore } from '../../lib/store';
import type { BufferMarker } from './markers';
import { setBufferReader } from './buffer';
import { MANIFEST_MODEL_URI, schemaForBuffer } from './schema-sync';
import { useMonaco } from './use-monaco';
import { baseEditorOptions, monacoTheme } from '../../lib/monaco/editor-options';

type Monaco = NonNullable<ReturnType<typeof useMonaco>['module']>['monaco'];
type Editor = ReturnType<Monaco['editor']['create']>;

interface Props {
  readonly markers: readonly BufferMarker[];
  /** Called with the editor's current text (after each change, debounced). */
  onText?(text: string): void;
}

export function ManifestEditor({ markers }: Props) {
  const { module, error } = useMonaco();
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const theme = useAppStore((s) => s.theme);
  const revision = useAppStore((s) => s.editorTextRevision);
  const setEditorText = useAppStore((s) => s.setEditorText);
  const { resources } = useDiscovery();
  const [problems, setProblems] = useState<Array<{ line: number; column: number; message: string; severity: string }>>([]);
  const resourcesRef = useRef(resources);
  resourcesRef.current = resources;

  // Create the editor once Monaco is there.
  useEffect(() => {
    if (!module || !host.current) return;
    const { monaco, monacoYaml } = module;
    monacoYaml();
    const uri = monaco.Uri.parse(MANIFEST_MODEL_URI);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(useAppStore.getState().editorText, 'yaml', uri);
    model.setValue(useAppStore.getState().editorText);
    const editor = monaco.editor.create(host.current, {
      ...baseEditorOptions(),
      model,
      // Tab indents in a manifest; Monaco's Ctrl+M (Ctrl+Shift+M on a Mac) makes it move focus instead.
      ariaLabel: 'Manifest editor (Tab indents; Ctrl+M makes Tab move focus)',
      quickSuggestions: { other: true, comments: false, strings: true },
    });
    editorRef.current = editor;
    setBufferReader(() => model.getValue());
    let timer: ReturnType<typeof setTimeout> | undefined;
    let schemaTimer: ReturnType<typeof setTimeout> | undefined;
    const updateSchema = () => {
      void schemaForBuffer(model.getValue(), resourcesRef.current).then((schema) => {
        if (schema) void monacoYaml().update({ schemas: [{ fileMatch: ['**/manifest.yaml'], uri: 'kubetab://schemas/manifest.json', schema: schema as never }] });
      });
    };
    updateSchema();
    const subscription = model.onDidChangeContent(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setEditorText(model.getValue()), 200);
      clearTimeout(schemaTimer);
      schemaTimer = setTimeout(updateSchema, 600);
    });
    return () => {
      clearTimeout(timer);
      clearTimeout(schemaTimer);
      // Keep the latest text even when leaving within the debounce.
      setEditorText(model.getValue());
      subscription.dispose();
      setBufferReader(null);
      editor.dispose();
      editorRef.current = null;
    };
  }, [module, setEditorText]);

  // Outside replacements of the buffer.
  useEffect(() => {
    const editor = editorRef.current;
    const text = useAppStore.getState().editorText;
    if (editor && editor.getModel()?.getValue() !== text) editor.getModel()?.setValue(text);
  }, [revision]);

  // Schema refresh when discovery changes (new CRDs).
  useEffect(() => {
    const editor = editorRef.current;
    if (!module || !editor) return;
    void schemaForBuffer(editor.getModel()?.getValue() ?? '', resources).then((schema) => {
      if (schema) void module.monacoYaml().update({ schemas: [{ fileMatch: ['**/manifest.yaml'], uri: 'kubetab://schemas/manifest.json', schema: schema as never }] });
    });
  }, [resources, module]);

  useEffect(() => {
    module?.monaco.editor.setTheme(monacoTheme(theme));
  }, [theme, module]);

  // Server markers.
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!module || !model) return;
    const { monaco } = module;
    const placed = markers.map((m) => {
        const start = model.getPositionAt(m.start);
        let end = model.getPositionAt(Math.max(m.end, m.start + 1));
        if (end.lineNumber === start.lineNumber && end.column <= start.column + 1) end = new monaco.Position(start.lineNumber, model.getLineMaxColumn(start.lineNumber));
        return {
          startLineNumber: start.lineNumber,
          startColumn: start.column,
          endLineNumber: end.lineNumber,
          endColumn: end.column,
          message: m.message,
          severity: m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
          source: 'API server',
        };
      });
    monaco.editor.setModelMarkers(model, 'kubetab-server', placed);
    setProblems(placed.map((m, i) => ({ line: m.startLineNumber, column: m.startColumn, message: m.message, severity: markers[i]!.severity })));
  }, [markers, module]);

  const reveal = (line: number, column: number) => {
    const editor = editorRef.current;
    if (!editor) return;
    editor.revealLineInCenter(line);
    editor.setPosition({ lineNumber: line, column });
    editor.focus();
  };

  if (error) return <div className="alert alert--error">The editor could not load: {error}</div>;
  return (
    <>
      <div className="manifest-editor" ref={host}>
        {!module && <p className="muted manifest-editor__loading">Loading the editor…</p>}
      </div>
      <p className="muted editor__keys">
        <kbd>Tab</kbd> indents · <kbd>Ctrl</kbd>+<kbd>M</kbd> makes <kbd>Tab</kbd> move focus out of the editor
      </p>
      {problems.length > 0 && (
        <ul className="editor__problems" aria-label="Problems">
          {problems.map((p, i) => (
            <li key={i}>
              <button type="button" className={`editor__problem editor__problem--${p.severity}`} onClick={() => reveal(p.line, p.column)}>
                Line {p.line}: {p.message}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
