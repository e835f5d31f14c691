// The buffer's text as it is now. The store receives the editor's text a
// moment after each change (debounced, it is persisted); the buttons must
// act on what is on screen, so while the editor is mounted its model is read.

import { useAppStore } from '../../lib/store';

let reader: (() => string) | null = null;

export function setBufferReader(read: (() => string) | null): void {
  reader = read;
}

/** The editor's current text (and the store brought up to date with it). */
export function readBuffer(): string {
  const state = useAppStore.getState();
  if (!reader) return state.editorText;
  const text = reader();
  if (text !== state.editorText) state.setEditorText(text);
  return text;
}
