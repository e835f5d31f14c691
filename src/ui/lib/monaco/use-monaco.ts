// Loads Monaco (lib/monaco/monaco.ts, with monaco-yaml) on first use, for any
// view with an editor: one dynamic import shared by all of them, so the app's
// first load carries none of it (decision 0122).

import { useEffect, useState } from 'react';

export type MonacoModule = typeof import('./monaco');

let loading: Promise<MonacoModule> | null = null;

/** Starts loading Monaco (idempotent). */
export function loadMonaco(): Promise<MonacoModule> {
  loading ??= import('./monaco');
  return loading;
}

/** Monaco once loaded (null until then), or the reason it could not load. */
export function useMonaco(): { module: MonacoModule | null; error: string | null } {
  const [module, setModule] = useState<MonacoModule | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadMonaco().then(
      (m) => live && setModule(m),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, []);
  return { module, error };
}
