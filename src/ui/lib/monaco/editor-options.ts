// The options every Monaco editor of the app shares: it follows its box
// (automaticLayout), no minimap, the app's font size, two-space indents, the
// app's theme, widgets allowed outside the box (narrow panels).

import { useAppStore } from '../store';

export function baseEditorOptions() {
  return {
    automaticLayout: true,
    minimap: { enabled: false },
    fontSize: 13,
    tabSize: 2,
    scrollBeyondLastLine: false,
    theme: monacoTheme(useAppStore.getState().theme),
    fixedOverflowWidgets: true,
  };
}

/** Monaco's built-in theme for the app's theme. */
export function monacoTheme(theme: string): string {
  return theme === 'dark' ? 'vs-dark' : 'vs';
}
