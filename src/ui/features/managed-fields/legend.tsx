// One row per managedFields entry: colour, manager, operation, apiVersion,
// subresource, time, how many fields. Choosing one dims the fields of others.

import type { Manager } from '../../lib/managed-fields/ownership';
import { ownerColor } from './owner-colors';

interface Props {
  readonly managers: readonly Manager[];
  readonly focused: number | null;
  onFocus(index: number | null): void;
}

export function Legend({ managers, focused, onFocus }: Props) {
  return (
    <table className="mf-legend" aria-label="Managers">
      <thead>
        <tr>
          <th scope="col">Manager</th>
          <th scope="col">Operation</th>
          <th scope="col">apiVersion</th>
          <th scope="col">Subresource</th>
          <th scope="col">Time</th>
          <th scope="col">Fields</th>
        </tr>
      </thead>
      <tbody>
        {managers.map((m) => (
          <tr key={m.index} aria-selected={focused === m.index || undefined}>
            <td>
              <button type="button" className="mf-legend__manager" aria-pressed={focused === m.index} onClick={() => onFocus(focused === m.index ? null : m.index)}>
                <span className="mf-swatch" style={{ background: ownerColor(m.index) }} aria-hidden="true" />
                {m.manager || '(no name)'}
              </button>
            </td>
            <td>
              <span className={`badge ${m.operation === 'Apply' ? 'badge--ok' : ''}`}>{m.operation}</span>
            </td>
            <td className="mono">{m.apiVersion}</td>
            <td>{m.subresource}</td>
            <td className="mono">{m.time}</td>
            <td>{m.fields.length}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
