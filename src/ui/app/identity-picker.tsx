// The identity slot of the header: which identity requests are sent as. The
// identities come from the store's identity slice (Settings fills it, through
// the Manage link).

import { routeHref } from '../lib/router';
import { useAppStore } from '../lib/store';

export function IdentityPicker() {
  const identities = useAppStore((s) => s.identities);
  const current = useAppStore((s) => s.currentIdentityId);
  const select = useAppStore((s) => s.selectIdentity);
  return (
    <>
      <label className="identity-picker">
        <span className="identity-picker__label">Identity</span>
        <select value={current} onChange={(e) => select(e.target.value)}>
          {identities.map((identity) => (
            <option key={identity.id} value={identity.id}>
              {identity.label}
            </option>
          ))}
        </select>
      </label>
      <a className="identity-picker__manage" href={routeHref('settings', { tab: 'identities' })} aria-label="Manage identities">
        Manage
      </a>
    </>
  );
}
