// The header's status of the API server (the service worker): starting,
// ready with its version (from /version), or failed. The text keeps its
// width so that nothing moves when the state changes.

import { useEffect, useState } from 'react';
import { apiJson } from '../lib/api/client';
import { whenServerReady } from '../lib/api/server-ready';

type ServerState = { state: 'starting' } | { state: 'ready'; version: string; platform: string } | { state: 'failed'; message: string };

interface VersionInfo {
  gitVersion?: string;
  platform?: string;
}

export function ServerStatus() {
  const [status, setStatus] = useState<ServerState>({ state: 'starting' });
  useEffect(() => {
    let live = true;
    whenServerReady()
      .then(() => apiJson<VersionInfo>('/version'))
      .then((info) => live && setStatus({ state: 'ready', version: info.gitVersion ?? '?', platform: info.platform ?? '' }))
      .catch((error: unknown) => live && setStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) }));
    return () => {
      live = false;
    };
  }, []);
  return (
    <p className="server-status" data-testid="server-status" data-state={status.state} role="status" title={status.state === 'failed' ? status.message : undefined}>
      <span className="server-status__dot" aria-hidden="true" />
      {status.state === 'starting' && 'Starting the API server…'}
      {status.state === 'ready' && (
        <>
          Kubernetes <strong>{status.version}</strong>
          <span className="server-status__where"> · in this tab</span>
        </>
      )}
      {status.state === 'failed' && `API server failed: ${status.message}`}
    </p>
  );
}
