import type { StateCreator } from 'zustand';
import type { ApplyConflict } from '../managed-fields/conflicts';
import type { AppState } from './index';

export interface ConflictSlice {
  /** The last server-side apply that the server refused with 409 FieldManagerConflict. */
  lastConflict: ApplyConflict | null;
  setLastConflict(conflict: ApplyConflict | null): void;
}

export const createConflictSlice: StateCreator<AppState, [], [], ConflictSlice> = (set) => ({
  lastConflict: null,
  setLastConflict: (lastConflict) => set({ lastConflict }),
});
