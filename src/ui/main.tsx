// Entry of the app: registers the KubeTab service worker (the API server) and
// waits until it controls the page before anything talks to the API. The real
// UI replaces <ServerStatus/> later.

import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { registerKubeTab } from '../platform/browser/register';

type Status = { state: 'starting' } | { state: 'ready'; version: string } | { state: 'failed'; message: string };

const base = import.meta.env.BASE_URL;
/** Resolves once the worker controls the page; API calls wait for it. */
const serverReady = registerKubeTab({ base });

function ServerStatus() {
  const [status, setStatus] = useState<Status>({ state: 'starting' });
  useEffect(() => {
    serverReady
      .then(() => fetch(`${base}version`))
      .then(async (response) => {
        const body = (await response.json()) as { gitVersion?: string };
        setStatus({ state: 'ready', version: body.gitVersion ?? `HTTP ${response.status}` });
      })
      .catch((error: unknown) => setStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) }));
  }, []);
  return (
    <main>
      <h1>KubeTab</h1>
      <p data-testid="server-status" data-state={status.state}>
        {status.state === 'starting' && 'Starting the API server…'}
        {status.state === 'ready' && `API server ready (${status.version}) at ${new URL(base, location.href).href}`}
        {status.state === 'failed' && `The API server could not start: ${status.message}`}
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ServerStatus />
  </StrictMode>,
);
