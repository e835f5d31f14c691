// Exec in a container, the browser's `kubectl exec`: a command in, its
// stdout and stderr out as they come, and how it ended — exit code 0, kubectl's
// "command terminated with exit code N", or the error that kept it from
// running. In the tab the service worker cannot take kubectl's WebSocket, so
// the page hands the worker a message port that stands for it (decision
// 0352); the request is sent as the identity the app sends as, and the API
// authorizes it (`get pods/exec`, as kube-apiserver 1.32 does for a
// WebSocket exec).

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ExecRefusedError, execInPod } from '../../../platform/browser/exec-client';
import { requestHeaders } from '../../lib/api/client';
import { whenServerReady } from '../../lib/api/server-ready';
import { splitCommandLine } from './command-line';

interface Run {
  readonly id: number;
  readonly container: string;
  readonly command: string;
  readonly output: { stream: 'stdout' | 'stderr'; text: string }[];
  /** How it ended; undefined while it runs. */
  readonly end?: { exitCode?: number; text: string };
}

let nextRunId = 1;

export function ExecPanel({ namespace, pod, containers }: { namespace: string; pod: string; containers: readonly string[] }) {
  const [container, setContainer] = useState(containers[0] ?? '');
  const [line, setLine] = useState('');
  const [viaShell, setViaShell] = useState(true);
  const [runs, setRuns] = useState<Run[]>([]);
  const [running, setRunning] = useState<AbortController | null>(null);
  const [problem, setProblem] = useState('');
  const output = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!containers.includes(container)) setContainer(containers[0] ?? '');
  }, [containers, container]);
  // A session still running when the panel goes away is ended (its process killed), as kubectl's Ctrl-C.
  useEffect(() => () => running?.abort(), [running]);
  useEffect(() => {
    const el = output.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [runs]);

  const update = (id: number, change: (run: Run) => Run) => setRuns((all) => all.map((r) => (r.id === id ? change(r) : r)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    let command: string[];
    try {
      command = viaShell ? ['sh', '-c', line] : splitCommandLine(line);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
      return;
    }
    if (!command.length || !line.trim()) {
      setProblem('you must specify at least one command for the container');
      return;
    }
    const id = nextRunId++;
    const abort = new AbortController();
    setRunning(abort);
    setRuns((all) => [...all.slice(-19), { id, container, command: viaShell ? line : command.join(' '), output: [] }]);
    try {
      await whenServerReady();
      const result = await execInPod({
        namespace,
        pod,
        container,
        command,
        headers: requestHeaders(),
        signal: abort.signal,
        onOutput: (stream, text) => update(id, (r) => ({ ...r, output: [...r.output, { stream, text }] })),
      });
      const text =
        result.exitCode === 0 ? 'exit code 0' : result.exitCode !== undefined ? `command terminated with exit code ${result.exitCode}` : `error: ${result.message ?? 'the command did not run'}`;
      update(id, (r) => ({ ...r, end: { ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}), text } }));
    } catch (e) {
      const text = e instanceof ExecRefusedError ? `Error from server${e.reason ? ` (${e.reason})` : ''}: ${e.message}` : `error: ${e instanceof Error ? e.message : String(e)}`;
      update(id, (r) => ({ ...r, end: { text } }));
    } finally {
      setRunning(null);
    }
  };

  return (
    <div className="stack">
      <form className="row" onSubmit={(e) => void submit(e)} aria-label="Exec">
        <label>
          Container
          <select value={container} onChange={(e) => setContainer(e.target.value)} disabled={running !== null}>
            {containers.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label className="pods-command">
          Command
          <input value={line} onChange={(e) => setLine(e.target.value)} placeholder={viaShell ? 'echo $HOSTNAME; cat /etc/hostname' : 'cat /etc/hostname'} spellCheck={false} autoComplete="off" disabled={running !== null} />
        </label>
        <label className="check" title="Run the line with sh -c, so that ;, &&, $VAR and quotes work">
          <input type="checkbox" checked={viaShell} onChange={(e) => setViaShell(e.target.checked)} /> sh -c
        </label>
        <button type="submit" className="primary" disabled={running !== null || !container}>
          Run
        </button>
        <button type="button" disabled={running === null} onClick={() => running?.abort()}>
          Stop
        </button>
        <button type="button" disabled={running !== null || runs.length === 0} onClick={() => setRuns([])}>
          Clear
        </button>
      </form>
      <p className="muted">
        Runs as <code>kubectl exec {pod} -c {container || '…'} -- {viaShell ? `sh -c '…'` : '…'}</code> would, as the identity the app sends requests as.
      </p>
      {problem && (
        <div role="alert" className="alert alert--error">
          {problem}
        </div>
      )}
      <div ref={output} className="pods-output pods-exec" aria-label="Exec output" role="log" tabIndex={0}>
        {runs.map((run) => (
          <div key={run.id} className="pods-exec__run" data-exit-code={run.end?.exitCode}>
            <div className="pods-exec__prompt">
              <span className="muted">{run.container} $</span> {run.command}
            </div>
            {run.output.map((chunk, i) => (
              <span key={i} className={chunk.stream === 'stderr' ? 'pods-exec__stderr' : undefined}>
                {chunk.text}
              </span>
            ))}
            {run.end ? (
              <div className={`pods-exec__end${run.end.exitCode === 0 ? '' : ' pods-exec__end--failed'}`} data-testid="exec-end">
                {run.end.text}
              </div>
            ) : (
              <div className="muted">running…</div>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
