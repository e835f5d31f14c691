// The request as curl and kubectl command lines, shown and copyable. The API
// server of this page lives inside the browser tab, which no command line
// reaches: the commands are for KubeTab's Node server (`npm run serve`), whose
// address and kubeconfig the user gives here for curl (kubectl has its own);
// the tab's tokens are left out (the kubeconfig's administrator sends,
// impersonating another identity).

import { useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { forNodeServer, toKubectl, toServeCurl, type NodeServerSender } from '../../lib/commands/copy-as';
import type { Identity } from '../../lib/api/identity';
import { currentIdentity, useAppStore } from '../../lib/store';
import type { ConsoleRequest } from '../../lib/store/console-slice';
import { basePath, commandRequest, requestIdentity } from './send';

const DEFAULT_SERVER = 'https://127.0.0.1:8080';
const DEFAULT_KUBECONFIG = './kubeconfig';

function senderOf(identity: Identity | null | undefined): NodeServerSender {
  if (!identity || identity.kind === 'admin') return { kind: 'admin' };
  if (identity.kind === 'anonymous') return { kind: 'anonymous' };
  return { kind: 'impersonated', user: identity.label };
}

export function CopyAsPanel({ request }: { request: ConsoleRequest }) {
  const [shown, setShown] = useState<'curl' | 'kubectl' | null>(null);
  const [server, setServer] = useState(DEFAULT_SERVER);
  const [kubeconfig, setKubeconfig] = useState(DEFAULT_KUBECONFIG);
  // Subscribed, so that the command follows the header's identity picker.
  const current = useAppStore(currentIdentity);
  const sender = senderOf(requestIdentity(request) ?? current);
  const wire = shown ? commandRequest(request) : null;
  const command =
    shown === 'curl' && wire
      ? toServeCurl(wire, { server, kubeconfig, base: basePath() }, sender)
      : shown === 'kubectl' && wire
        ? toKubectl(forNodeServer(wire, sender), basePath())
        : '';
  return (
    <div className="stack">
      <div className="row">
        <button type="button" aria-pressed={shown === 'curl'} onClick={() => setShown(shown === 'curl' ? null : 'curl')}>
          As curl
        </button>
        <button type="button" aria-pressed={shown === 'kubectl'} onClick={() => setShown(shown === 'kubectl' ? null : 'kubectl')}>
          As kubectl
        </button>
        {shown && <CopyButton text={command} label={`Copy ${shown} command`} />}
      </div>
      {shown && (
        <>
          <p className="muted copy-as__note">For KubeTab&apos;s Node server (<code>npm run serve</code>): this page&apos;s API server runs inside the tab, which command lines cannot reach.</p>
          {shown === 'curl' && (
            <div className="row">
              <label className="grow">
                Node server
                <input className="mono" value={server} spellCheck={false} onChange={(e) => setServer(e.target.value)} />
              </label>
              <label className="grow">
                kubeconfig
                <input className="mono" value={kubeconfig} spellCheck={false} onChange={(e) => setKubeconfig(e.target.value)} />
              </label>
            </div>
          )}
          <pre className="code copy-as__command" aria-label={`${shown} command`}>
            {command}
          </pre>
        </>
      )}
    </div>
  );
}
