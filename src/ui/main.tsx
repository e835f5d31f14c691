// Entry of the app: registers the KubeTab service worker (the API server),
// hands its readiness (control of the page, then /readyz) to the API client
// (every request waits for it), and renders the shell at once.

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerKubeTab } from '../platform/browser/register';
import { App } from './app/app';
import './app/styles.css';
import { startServer } from './lib/api/server-ready';

startServer(registerKubeTab({ base: import.meta.env.BASE_URL }), import.meta.env.BASE_URL);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
