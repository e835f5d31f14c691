// Entry of the app: registers the KubeTab service worker (the API server),
// hands its readiness (control of the page, the server's start-up, the
// administrator's credentials) to the API client
// (every request waits for it), and renders the shell at once.

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerKubeTab } from '../platform/browser/register';
import { App } from './app/app';
import './app/styles.css';
import { syncAdministrator } from './lib/api/administrator';
import { startServer } from './lib/api/server-ready';

// Before the first API call: the administrator's token from the cluster's configuration.
startServer(registerKubeTab({ base: import.meta.env.BASE_URL }), async () => {
  await syncAdministrator();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
