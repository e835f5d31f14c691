// The app's one zustand store: UI state only (theme, identity, drafts,
// history, selections). Cluster data never lives here: it comes from the API
// through the list+watch hooks in lib/api. Each slice keeps its actions
// beside its state; later features add their slice here.

import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createConflictSlice, type ConflictSlice } from './conflict-slice';
import { createConsoleSlice, type ConsoleSlice } from './console-slice';
import { createEditorSlice, type EditorSlice } from './editor-slice';
import { createExplorerSlice, type ExplorerSlice } from './explorer-slice';
import { createIdentitySlice, type IdentitySlice } from './identity-slice';
import { createTutorialSlice, type TutorialSlice } from './tutorial-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

export type AppState = UiSlice & IdentitySlice & ConsoleSlice & ExplorerSlice & EditorSlice & ConflictSlice & TutorialSlice;

export const STORAGE_KEY = 'kubetab-ui';

export const useAppStore = create<AppState>()(
  persist(
    (...a) => ({
      ...createUiSlice(...a),
      ...createIdentitySlice(...a),
      ...createConsoleSlice(...a),
      ...createExplorerSlice(...a),
      ...createEditorSlice(...a),
      ...createConflictSlice(...a),
      ...createTutorialSlice(...a),
    }),
    {
      name: STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      // What survives a reload: preferences, identities, drafts and history.
      partialize: (state) => ({
        theme: state.theme,
        managedFieldsResource: state.managedFieldsResource,
        identities: state.identities,
        currentIdentityId: state.currentIdentityId,
        consoleDraft: state.consoleDraft,
        consoleHistory: state.consoleHistory,
        namespace: state.namespace,
        editorText: state.editorText,
        fieldManager: state.fieldManager,
        tutorialProgress: state.tutorialProgress,
        lastTutorial: state.lastTutorial,
      }),
    },
  ),
);

export { currentIdentity } from './identity-slice';
