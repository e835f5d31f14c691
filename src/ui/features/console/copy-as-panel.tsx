// The request as curl and kubectl command lines, shown and copyable.

import { useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { toCurl, toKubectl } from '../../lib/commands/copy-as';
import type { ConsoleRequest } from '../../lib/store/console-slice';
import { basePath, commandRequest } from './send';

export function CopyAsPanel({ request }: { request: ConsoleRequest }) {
  const [shown, setShown] = useState<'curl' | 'kubectl' | null>(null);
  const command = shown === 'curl' ? toCurl(commandRequest(request)) : shown === 'kubectl' ? toKubectl(commandRequest(request), basePath()) : '';
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
        <pre className="code" aria-label={`${shown} command`}>
          {command}
        </pre>
      )}
    </div>
  );
}
