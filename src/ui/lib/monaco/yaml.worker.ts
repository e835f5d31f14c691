// monaco-yaml's language-server worker, imported through a module of our own:
// vite bundles it as a worker (`?worker`), and monaco-yaml's FAQ recommends
// this indirection under vite.
import 'monaco-yaml/yaml.worker.js';
