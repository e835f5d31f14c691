import type { StateCreator } from 'zustand';
import type { AppState } from './index';

/** Where a person is in one tutorial: the steps checked done, and the step open. */
export interface TutorialProgress {
  done: string[];
  current: number;
}

export interface TutorialSlice {
  /** By tutorial id; kept across reloads. */
  tutorialProgress: Record<string, TutorialProgress>;
  /** The tutorial last worked on ('' for none), to come back to from another view. */
  lastTutorial: string;
  markTutorialStepDone(tutorialId: string, stepId: string): void;
  openTutorialStep(tutorialId: string, index: number): void;
  resetTutorial(tutorialId: string): void;
}

const EMPTY: TutorialProgress = { done: [], current: 0 };

export const createTutorialSlice: StateCreator<AppState, [], [], TutorialSlice> = (set) => ({
  tutorialProgress: {},
  lastTutorial: '',
  markTutorialStepDone: (tutorialId, stepId) =>
    set((state) => {
      const progress = state.tutorialProgress[tutorialId] ?? EMPTY;
      if (progress.done.includes(stepId)) return state;
      return { tutorialProgress: { ...state.tutorialProgress, [tutorialId]: { ...progress, done: [...progress.done, stepId] } } };
    }),
  openTutorialStep: (tutorialId, index) =>
    set((state) => ({
      lastTutorial: tutorialId,
      tutorialProgress: { ...state.tutorialProgress, [tutorialId]: { ...(state.tutorialProgress[tutorialId] ?? EMPTY), current: index } },
    })),
  resetTutorial: (tutorialId) =>
    set((state) => {
      const rest = { ...state.tutorialProgress };
      delete rest[tutorialId];
      return { tutorialProgress: rest };
    }),
});
