// Monaco for KubeTab: the editor core with its standard contributions (find,
// folding, hover, completion, markers, diff…), YAML tokens, and monaco-yaml
// for schema validation and completion; Monaco's own JSON language for the
// console's JSON bodies. Imported lazily (dynamic import), so the app's first
// load does not carry the editor. No other language ships.

import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
// Also pulls in the editor's standard contributions, as monaco's own languages do.
import { createWebWorker as createLegacyWebWorker } from 'monaco-editor/internal/common/workers';
import 'monaco-editor/languages/definitions/yaml/register';
import 'monaco-editor/languages/features/json/register';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import { configureMonacoYaml, type MonacoYaml } from 'monaco-yaml';
import YamlWorker from './yaml.worker?worker';

(self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === 'yaml') return new YamlWorker();
    if (label === 'json') return new JsonWorker();
    return new EditorWorker();
  },
};

/** One monaco-yaml instance for the app (it allows only one). */
let yaml: MonacoYaml | null = null;

export function monacoYaml(): MonacoYaml {
  // monaco-yaml creates its worker with createWebWorker's pre-0.50 options;
  // Monaco 0.57 takes those only through its internal adapter.
  const adapted = { ...monaco, editor: { ...monaco.editor, createWebWorker: createLegacyWebWorker } };
  yaml ??= configureMonacoYaml(adapted as unknown as typeof monaco, {
    enableSchemaRequest: false,
    hover: true,
    completion: true,
    validate: true,
    format: { enable: true },
    schemas: [],
  });
  return yaml;
}

export { monaco };
