// Monaco's diff editor: the live objects on the left, what the server says
// they would become (a dry run of the chosen write) on the right.

import { useEffect, useRef } from 'react';
import { useAppStore } from '../../lib/store';
import { useMonaco } from './use-monaco';

export function DiffView({ original, modified }: { original: string; modified: string }) {
  const { module, error } = useMonaco();
  const host = useRef<HTMLDivElement>(null);
  const theme = useAppStore((s) => s.theme);
  useEffect(() => {
    if (!module || !host.current) return;
    const { monaco } = module;
    const left = monaco.editor.createModel(original, 'yaml');
    const right = monaco.editor.createModel(modified, 'yaml');
    const diff = monaco.editor.createDiffEditor(host.current, {
      automaticLayout: true,
      readOnly: true,
      originalEditable: false,
      renderSideBySide: host.current.clientWidth > 700,
      minimap: { enabled: false },
      // Long objects: show the changes with a little context, not every default.
      hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 5, revealLineCount: 20 },
      fontSize: 13,
      scrollBeyondLastLine: false,
      theme: theme === 'dark' ? 'vs-dark' : 'vs',
      ariaLabel: 'Diff of live and new objects',
    });
    diff.setModel({ original: left, modified: right });
    return () => {
      diff.dispose();
      left.dispose();
      right.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [module, original, modified]);
  if (error) return <div className="alert alert--error">The diff editor could not load: {error}</div>;
  return <div className="manifest-editor" ref={host} role="region" aria-label="Diff" />;
}
