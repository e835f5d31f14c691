// monaco-editor 0.57 ships this module (its own languages use it) without
// type declarations: it creates a web worker from the pre-0.50 options
// (label, moduleId, createData) that monaco-yaml still passes.
declare module 'monaco-editor/internal/common/workers' {
  export function createWebWorker(options: {
    moduleId?: string;
    label?: string;
    createData?: unknown;
    host?: Record<string, unknown>;
    keepIdleModels?: boolean;
    createWorker?: () => Worker;
  }): unknown;
}
