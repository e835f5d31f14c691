import type { StateCreator } from 'zustand';
import type { AppState } from './index';

/** A request as the console composes it. Query values are kept as typed; empty ones are not sent. */
export interface ConsoleRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Array<{ name: string; value: string }>;
  body: string;
  /** Identity to send as (an id of the identity slice); empty: the header's current identity. */
  identityId?: string;
}

export interface HistoryEntry {
  id: string;
  /** ISO time the request was sent. */
  sentAt: string;
  request: ConsoleRequest;
  /** HTTP status, or 0 when the request failed before a response. */
  status: number;
}

export const HISTORY_LIMIT = 100;

export const EMPTY_REQUEST: ConsoleRequest = {
  method: 'GET',
  path: '/api/v1/namespaces/default/configmaps',
  query: {},
  headers: [{ name: 'Accept', value: 'application/json' }],
  body: '',
};

export interface ConsoleSlice {
  consoleDraft: ConsoleRequest;
  consoleHistory: HistoryEntry[];
  setConsoleDraft(update: Partial<ConsoleRequest>): void;
  recordHistory(request: ConsoleRequest, status: number): void;
  clearHistory(): void;
}

let counter = 0;

export const createConsoleSlice: StateCreator<AppState, [], [], ConsoleSlice> = (set) => ({
  consoleDraft: EMPTY_REQUEST,
  consoleHistory: [],
  setConsoleDraft: (update) => set((state) => ({ consoleDraft: { ...state.consoleDraft, ...update } })),
  recordHistory: (request, status) =>
    set((state) => ({
      consoleHistory: [
        { id: `${Date.now().toString(36)}-${(counter++).toString(36)}`, sentAt: new Date().toISOString(), request, status },
        ...state.consoleHistory,
      ].slice(0, HISTORY_LIMIT),
    })),
  clearHistory: () => set({ consoleHistory: [] }),
});
