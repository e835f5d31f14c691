import { useEffect, useState } from 'react';

type MonacoModule = typeof import('../../lib/monaco/monaco');

let loading: Promise<MonacoModule> | null = null;

/** Loads Monaco (and monaco-yaml) on first use; null until loaded. */
export function useMonaco(): { module: MonacoModule | null; error: string | null } {
  const [module, setModule] = useState<MonacoModule | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loading ??= import('../../lib/monaco/monaco');
    loading.then(
      (m) => live && setModule(m),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, []);
  return { module, error };
}
