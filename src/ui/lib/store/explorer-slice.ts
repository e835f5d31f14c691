import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export interface ExplorerSlice {
  /** Namespace the explorer (and the editor's defaults) work in; '' means all namespaces. */
  namespace: string;
  setNamespace(namespace: string): void;
}

export const createExplorerSlice: StateCreator<AppState, [], [], ExplorerSlice> = (set) => ({
  namespace: 'default',
  setNamespace: (namespace) => set({ namespace }),
});
