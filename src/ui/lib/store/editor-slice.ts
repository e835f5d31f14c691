import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export const SAMPLE_MANIFEST = `apiVersion: v1
kind: ConfigMap
metadata:
  name: example
  namespace: default
data:
  greeting: hello
`;

export interface EditorSlice {
  /** The manifest editor's buffer (several YAML documents). */
  editorText: string;
  /**
   * Bumped when something other than the editor replaces the buffer (a
   * conflict resolution, "open in editor"), so that the editor reloads it.
   */
  editorTextRevision: number;
  fieldManager: string;
  setEditorText(text: string): void;
  /** Replaces the buffer from outside the editor. */
  replaceEditorText(text: string): void;
  setFieldManager(fieldManager: string): void;
}

export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = (set) => ({
  editorText: SAMPLE_MANIFEST,
  editorTextRevision: 0,
  fieldManager: 'kubetab',
  setEditorText: (editorText) => set({ editorText }),
  replaceEditorText: (editorText) => set((state) => ({ editorText, editorTextRevision: state.editorTextRevision + 1 })),
  setFieldManager: (fieldManager) => set({ fieldManager }),
});
