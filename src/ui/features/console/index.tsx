// Feature 1: the request console. Compose any API request, send it as the
// current identity, read the answer (or watch events live), page with
// continue, copy it as curl/kubectl, and find it again in the history.

import { useCallback, useRef, useState } from 'react';
import { useAppStore } from '../../lib/store';
import type { ConsoleRequest } from '../../lib/store/console-slice';
import { CopyAsPanel } from './copy-as-panel';
import { HistoryPanel } from './history-panel';
import { listedNames, type ListedNames } from './path-suggestions';
import { RequestEditor } from './request-editor';
import { ResponsePanel } from './response-panel';
import { isWatch, readWhole, sendRequest, streamWatch, type ConsoleResponse, type ConsoleWatchEvent } from './send';
import { WatchEvents } from './watch-events';
import './console.css';

type Outcome =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'response'; response: ConsoleResponse }
  | { kind: 'watch'; status: number; running: boolean }
  | { kind: 'failed'; message: string };

const MAX_EVENTS = 10_000;

export default function ConsoleView() {
  const draft = useAppStore((s) => s.consoleDraft);
  const setDraft = useAppStore((s) => s.setConsoleDraft);
  const history = useAppStore((s) => s.consoleHistory);
  const recordHistory = useAppStore((s) => s.recordHistory);
  const clearHistory = useAppStore((s) => s.clearHistory);
  const namespace = useAppStore((s) => s.namespace);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [events, setEvents] = useState<ConsoleWatchEvent[]>([]);
  const [listed, setListed] = useState<ListedNames>();
  const abortRef = useRef<AbortController | null>(null);

  const send = useCallback(
    async (request: ConsoleRequest) => {
      abortRef.current?.abort();
      const controller = new AbortController();
      abortRef.current = controller;
      setOutcome({ kind: 'sending' });
      setEvents([]);
      try {
        const { response, started } = await sendRequest(request, controller.signal);
        recordHistory(request, response.status);
        if (isWatch(request) && response.ok) {
          setOutcome({ kind: 'watch', status: response.status, running: true });
          try {
            await streamWatch(response, (batch) => setEvents((previous) => [...previous, ...batch].slice(-MAX_EVENTS)));
          } catch (error) {
            if (!controller.signal.aborted) throw error;
          }
          setOutcome((o) => (o.kind === 'watch' ? { ...o, running: false } : o));
        } else {
          const whole = await readWhole(response, started);
          setOutcome({ kind: 'response', response: whole });
          // A list the user received teaches the path's completion its names (typing sends nothing).
          const names = response.ok ? listedNames(request.path, whole.json) : undefined;
          if (names) setListed(names);
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        recordHistory(request, 0);
        setOutcome({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    },
    [recordHistory],
  );

  const stop = () => {
    abortRef.current?.abort();
    setOutcome((o) => (o.kind === 'watch' ? { ...o, running: false } : o));
  };

  const onContinue = (token: string) => {
    const next = { ...draft, query: { ...draft.query, continue: token } };
    setDraft({ query: next.query });
    void send(next);
  };

  return (
    <div className="view view--fill console">
      <div className="view__header">
        <h1>Request console</h1>
        <span className="muted">Requests go to the API server in this tab, as kubectl would send them.</span>
      </div>
      <div className="console__layout">
        <form
          className="panel stack console__request"
          aria-label="Request"
          onSubmit={(e) => {
            e.preventDefault();
            void send(draft);
          }}
        >
          <RequestEditor request={draft} namespace={namespace} listed={listed} onChange={setDraft} />
          <div className="row">
            <button type="submit" className="primary" disabled={outcome.kind === 'sending'}>
              Send
            </button>
          </div>
          <CopyAsPanel request={draft} />
        </form>
        <div className="panel stack console__response">
          {outcome.kind === 'idle' && <p className="muted">Send a request to see the answer here.</p>}
          {outcome.kind === 'sending' && <p className="muted" role="status">Sending…</p>}
          {outcome.kind === 'failed' && (
            <div role="alert" className="alert alert--error console__failed">
              The request failed: {outcome.message}
            </div>
          )}
          {outcome.kind === 'response' && <ResponsePanel response={outcome.response} onContinue={onContinue} />}
          {outcome.kind === 'watch' && <WatchEvents events={events} running={outcome.running} status={outcome.status} onStop={stop} />}
        </div>
        <div className="panel console__history">
          <HistoryPanel
            history={history}
            onLoad={(request) => setDraft(request)}
            onResend={(request) => {
              setDraft(request);
              void send(request);
            }}
            onClear={clearHistory}
          />
        </div>
      </div>
    </div>
  );
}
