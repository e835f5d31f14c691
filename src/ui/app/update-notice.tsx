// Tells the person when a newer version of KubeTab's service worker has taken
// over this open page (a new deployment, or an update of the worker). The
// page's own code is still the old build: chunks it has not loaded yet may no
// longer exist on the host, so it offers a reload. The cluster is not at
// stake (it lives in IndexedDB, and the new worker has it). A fixed box: the
// layout does not move when it appears.

import { useEffect, useState } from 'react';

/** Whether a worker controlled this page when it loaded (else the first change is the first visit's claim). */
const controlledAtLoad = typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);

export function UpdateNotice() {
  const [updated, setUpdated] = useState(false);
  useEffect(() => {
    const container = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
    if (!container) return;
    let changes = controlledAtLoad ? 1 : 0;
    const onChange = () => {
      changes += 1;
      if (changes >= 2) setUpdated(true);
    };
    container.addEventListener('controllerchange', onChange);
    return () => container.removeEventListener('controllerchange', onChange);
  }, []);
  if (!updated) return null;
  return (
    <div className="update-notice" role="status" aria-label="Update">
      <span>A new version of KubeTab took over this page. Your cluster is kept; reload to use the new version.</span>
      <button type="button" className="primary" onClick={() => location.reload()}>
        Reload
      </button>
      <button type="button" onClick={() => setUpdated(false)}>
        Later
      </button>
    </div>
  );
}
