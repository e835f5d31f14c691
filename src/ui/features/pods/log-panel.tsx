// A container's log through the API (GET pods/<name>/log), as `kubectl logs`
// reads it: container, previous instance, timestamps, tail; with Follow the
// response stays open and new lines arrive as the container writes them,
// until it ends (or the server ends the response: then "Follow again").

import { useEffect, useRef, useState } from 'react';
import { StatusAlert } from '../../components/status-alert';
import { apiFetch, errorFrom } from '../../lib/api/client';

/** The panel keeps the last ~1 MiB of a long log. */
const MAX_TEXT = 1 << 20;

export function LogPanel({ namespace, pod, containers }: { namespace: string; pod: string; containers: readonly string[] }) {
  const [container, setContainer] = useState(containers[0] ?? '');
  const [follow, setFollow] = useState(true);
  const [timestamps, setTimestamps] = useState(false);
  const [previous, setPrevious] = useState(false);
  const [tail, setTail] = useState('');
  const [text, setText] = useState('');
  const [phase, setPhase] = useState<'reading' | 'following' | 'ended' | 'error'>('reading');
  const [error, setError] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  const output = useRef<HTMLPreElement>(null);

  useEffect(() => {
    if (!containers.includes(container)) setContainer(containers[0] ?? '');
  }, [containers, container]);

  useEffect(() => {
    if (!container) return;
    const abort = new AbortController();
    setText('');
    setError(null);
    setPhase(follow ? 'following' : 'reading');
    void (async () => {
      try {
        const query = { container, follow: follow || undefined, timestamps: timestamps || undefined, previous: previous || undefined, tailLines: tail.trim() || undefined };
        const response = await apiFetch(`/api/v1/namespaces/${namespace}/pods/${pod}/log`, { query, signal: abort.signal });
        if (!response.ok) throw await errorFrom(response);
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const chunk = decoder.decode(value, { stream: true });
          setText((t) => {
            const next = t + chunk;
            return next.length > MAX_TEXT ? next.slice(next.length - MAX_TEXT) : next;
          });
        }
        setPhase('ended');
      } catch (e) {
        if (abort.signal.aborted) return;
        setError(e);
        setPhase('error');
      }
    })();
    return () => abort.abort();
  }, [namespace, pod, container, follow, timestamps, previous, tail, generation]);

  // Keep the newest lines in view while following.
  useEffect(() => {
    const el = output.current;
    if (el && follow) el.scrollTop = el.scrollHeight;
  }, [text, follow]);

  return (
    <div className="stack">
      <div className="row">
        <label>
          Container
          <select value={container} onChange={(e) => setContainer(e.target.value)}>
            {containers.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
        </label>
        <label className="check">
          <input type="checkbox" checked={timestamps} onChange={(e) => setTimestamps(e.target.checked)} /> Timestamps
        </label>
        <label className="check">
          <input type="checkbox" checked={previous} onChange={(e) => setPrevious(e.target.checked)} /> Previous
        </label>
        <label>
          Tail lines
          <input type="number" min={0} value={tail} onChange={(e) => setTail(e.target.value)} style={{ width: '6em' }} />
        </label>
        <button type="button" onClick={() => setGeneration((g) => g + 1)}>
          {phase === 'ended' && follow ? 'Follow again' : 'Reload'}
        </button>
      </div>
      <pre ref={output} className="pods-output" aria-label="Container log" tabIndex={0} data-phase={phase}>
        {text}
      </pre>
      <p className="muted" role="status">
        {phase === 'following' ? 'Following: new lines appear as the container writes them.' : phase === 'ended' ? (follow ? 'The stream has ended (the container stopped, or the server closed the response).' : 'The whole log as of now.') : phase === 'reading' ? 'Reading…' : ''}
      </p>
      <StatusAlert error={error} />
    </div>
  );
}
