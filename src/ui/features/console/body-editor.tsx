// The request's body in Monaco: YAML or JSON highlighting and syntax checks,
// the language following the Content-Type it goes out with (an apply patch is
// YAML, the other patch types and plain writes JSON; when none is chosen, the
// text decides both), which "Body format" shows and chooses.
// Monaco is loaded on first use; until then a box of the same height holds its
// place, and if it cannot load the body is a plain textarea. Tab moves focus on
// (the body sits inside a form), so the editor never traps the keyboard.

import { useEffect, useRef } from 'react';
import { useMonaco } from '../../lib/monaco/use-monaco';
import { useAppStore } from '../../lib/store';
import { baseEditorOptions, monacoTheme } from '../../lib/monaco/editor-options';
import { CONTENT_TYPE_PRESETS } from './query-fields';

type Monaco = NonNullable<ReturnType<typeof useMonaco>['module']>['monaco'];
type Editor = ReturnType<Monaco['editor']['create']>;

export type BodyLanguage = 'yaml' | 'json';

/** The editor's language for a Content-Type (or, without one, for the text). */
export function bodyLanguage(contentType: string, body: string): BodyLanguage {
  const type = contentType.toLowerCase();
  if (type.includes('yaml')) return 'yaml';
  if (type.includes('json')) return 'json';
  return /^\s*[[{]/.test(body) || body.trim() === '' ? 'json' : 'yaml';
}

interface Props {
  readonly value: string;
  /** The Content-Type the body goes out with (chosen, or the automatic one). */
  readonly contentType: string;
  /** The request's method: which formats make sense (patch types for PATCH). */
  readonly method: string;
  /** The Content-Type chosen in the headers ('' when automatic). */
  readonly chosenContentType: string;
  /** The automatic Content-Type for this body ('' to go back to it). */
  readonly automaticContentType: string;
  onChange(value: string): void;
  onChooseContentType(value: string): void;
}

/** The body formats offered for a method: a plain write's media types, or the patch types. */
function formatsFor(method: string): ReadonlyArray<readonly [string, string]> {
  const patch = method === 'PATCH';
  return CONTENT_TYPE_PRESETS.filter(([, type]) => (patch ? type.includes('patch') : !type.includes('patch')));
}

let modelCounter = 0;

export function BodyEditor({ value, contentType, method, chosenContentType, automaticContentType, onChange, onChooseContentType }: Props) {
  const { module, error } = useMonaco();
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const theme = useAppStore((s) => s.theme);
  const language = bodyLanguage(contentType, value);

  useEffect(() => {
    if (!module || !host.current) return;
    const { monaco, monacoYaml } = module;
    monacoYaml();
    const model = monaco.editor.createModel(value, language, monaco.Uri.parse(`kubetab://console/body-${++modelCounter}`));
    const editor = monaco.editor.create(host.current, {
      ...baseEditorOptions(),
      model,
      lineNumbersMinChars: 3,
      ariaLabel: `Body (${language === 'yaml' ? 'YAML' : 'JSON'}); Tab moves to the next field`,
      tabFocusMode: true,
    });
    editorRef.current = editor;
    const subscription = model.onDidChangeContent(() => onChangeRef.current(model.getValue()));
    return () => {
      subscription.dispose();
      editor.dispose();
      model.dispose();
      editorRef.current = null;
    };
    // The model is created once; later values and languages are applied below.
  }, [module]);

  // A body set from outside (history, a tutorial step): the editor follows.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getValue() !== value) model.setValue(value);
  }, [value]);

  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!module || !editor || !model) return;
    module.monaco.editor.setModelLanguage(model, language);
    editor.updateOptions({ ariaLabel: `Body (${language === 'yaml' ? 'YAML' : 'JSON'}); Tab moves to the next field` });
  }, [language, module]);

  useEffect(() => {
    module?.monaco.editor.setTheme(monacoTheme(theme));
  }, [theme, module]);

  const formats = formatsFor(method);
  // What is sent is always shown: the automatic type, or the one chosen (also when it is a custom one).
  const format = (
    <label className="body-editor__format">
      Body format
      <select value={chosenContentType || automaticContentType} onChange={(e) => onChooseContentType(e.target.value === automaticContentType && !chosenContentType ? '' : e.target.value)}>
        {!formats.some(([, type]) => type === automaticContentType) && <option value={automaticContentType}>{automaticContentType}</option>}
        {chosenContentType && chosenContentType !== automaticContentType && !formats.some(([, type]) => type === chosenContentType) && (
          <option value={chosenContentType}>{chosenContentType}</option>
        )}
        {formats.map(([label, type]) => (
          <option key={type} value={type}>
            {label} — {type}
            {!chosenContentType && type === automaticContentType ? ' (automatic)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
  if (error)
    return (
      <div className="stack">
        {format}
        <label>
          Body
          <textarea rows={10} value={value} spellCheck={false} onChange={(e) => onChange(e.target.value)} />
        </label>
      </div>
    );
  return (
    <div className="body-editor">
      <div className="body-editor__label row row--center">
        <span>Body</span>
        <span className="badge" data-testid="body-language">
          {language === 'yaml' ? 'YAML' : 'JSON'}
        </span>
        {format}
      </div>
      <div className="body-editor__host" ref={host}>
        {!module && <p className="muted body-editor__loading">Loading the editor…</p>}
      </div>
    </div>
  );
}
