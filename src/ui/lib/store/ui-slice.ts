import type { StateCreator } from 'zustand';
import type { AppState } from './index';

export type Theme = 'light' | 'dark';

export interface UiSlice {
  theme: Theme;
  setTheme(theme: Theme): void;
  toggleTheme(): void;
  /** The resource last chosen in Managed fields (`groupVersion/resource`), kept across reloads. */
  managedFieldsResource: string;
  setManagedFieldsResource(key: string): void;
}

/** The colour scheme the system prefers, used until the person picks one. */
function preferredTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  theme: preferredTheme(),
  setTheme: (theme) => set({ theme }),
  toggleTheme: () => set((state) => ({ theme: state.theme === 'dark' ? 'light' : 'dark' })),
  managedFieldsResource: 'v1/configmaps',
  setManagedFieldsResource: (managedFieldsResource) => set({ managedFieldsResource }),
});
