// Namespaces, kept current by list+watch; '' is all namespaces.

import { useListWatch } from '../../lib/api/use-list-watch';

export function NamespacePicker({ value, onChange, disabled }: { value: string; onChange(ns: string): void; disabled?: boolean }) {
  const namespaces = useListWatch({ path: '/api/v1/namespaces', mode: 'table' });
  const names = namespaces.items.map((e) => e.name);
  const options = value && !names.includes(value) ? [value, ...names] : names;
  return (
    <label>
      Namespace
      <select value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <option value="">All namespaces</option>
        {options.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}
