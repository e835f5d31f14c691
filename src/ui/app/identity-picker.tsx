// The identity slot of the header: which identity requests are sent as. The
// identities come from the store's identity slice (Settings fills it).

import { useAppStore } from '../lib/store';

export function IdentityPicker() {
  const identities = useAppStore((s) => s.identities);
  const current = useAppStore((s) => s.currentIdentityId);
  const select = useAppStore((s) => s.selectIdentity);
  return (
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
  );
}
