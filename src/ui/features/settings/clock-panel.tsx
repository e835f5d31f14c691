// The server's clock, moved forward: service-account and OIDC tokens expire,
// continue tokens and watches from before the history window (5 minutes) get
// 410 Gone. The clock never goes back.

import { useCallback, useEffect, useState } from 'react';
import type { ClockState } from '../../../platform/browser/messages';
import { askWorker } from '../../../platform/browser/worker-client';
import { StatusAlert } from '../../components/status-alert';

const STEPS: Array<[string, number]> = [
  ['1 minute', 60_000],
  ['6 minutes', 6 * 60_000],
  ['1 hour', 3_600_000],
  ['1 day', 86_400_000],
];

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} days ${hours % 24} h`;
}

export function ClockPanel() {
  const [clock, setClock] = useState<ClockState | null>(null);
  const [minutes, setMinutes] = useState('10');
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => {
    askWorker('kubetab:clock:get', {}).then(setClock, setError);
  }, []);
  useEffect(() => {
    load();
    const timer = setInterval(load, 1000);
    return () => clearInterval(timer);
  }, [load]);
  const advance = (ms: number) => {
    setError(null);
    askWorker('kubetab:clock:advance', { ms }).then(setClock, setError);
  };
  return (
    <div className="stack">
      <div className="panel stack">
        <h3>Server time</h3>
        <p className="settings-clock" role="status" aria-label="Server time">
          {clock ? new Date(clock.now).toISOString().replace(/\.\d{3}Z$/, 'Z') : '…'}
          {clock && <span className="muted"> · {clock.offsetMs ? `${duration(clock.offsetMs)} ahead of this computer` : 'the same as this computer'}</span>}
        </p>
        <p className="muted">
          Moving it forward expires tokens from TokenRequest and the test issuer, bootstrap tokens, and the watch history older than five minutes: a watch or a continue token from
          before it then gets 410 Gone.
        </p>
        <div className="row">
          {STEPS.map(([label, ms]) => (
            <button key={label} type="button" onClick={() => advance(ms)}>
              +{label}
            </button>
          ))}
          <label>
            Minutes
            <input type="number" min={0} value={minutes} onChange={(e) => setMinutes(e.target.value)} size={6} />
          </label>
          <button type="button" onClick={() => advance(Number(minutes) * 60_000)}>
            Move forward
          </button>
        </div>
      </div>
      <StatusAlert error={error} />
    </div>
  );
}
