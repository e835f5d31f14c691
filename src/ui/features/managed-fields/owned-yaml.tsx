// The object's YAML with each line marked by the managers owning the field
// that starts on it (a colour bar per owner), conflicting fields outlined.

import { useMemo } from 'react';
import type { KubeObject } from '../../lib/api/types';
import { pathKey, type ConcretePath } from '../../lib/managed-fields/field-path';
import { ownersOf, type Ownership } from '../../lib/managed-fields/ownership';
import { pathsByLine, toYaml } from '../../lib/yaml/yaml-text';
import { ownerColor } from './owner-colors';

interface Props {
  readonly object: KubeObject;
  readonly ownership: Ownership;
  readonly focused: number | null;
  /** Concrete paths of conflicting fields (pathKey). */
  readonly conflicts: ReadonlySet<string>;
}

interface Line {
  readonly text: string;
  readonly owners: readonly number[];
  readonly conflict: boolean;
}

export function OwnedYaml({ object, ownership, focused, conflicts }: Props) {
  const lines = useMemo<Line[]>(() => {
    const { managedFields: _m, ...metadata } = object.metadata ?? {};
    const text = toYaml({ ...object, metadata });
    const byLine = pathsByLine(text);
    return text
      .replace(/\n$/, '')
      .split('\n')
      .map((line, i) => {
        const paths: ReadonlyArray<ConcretePath> = byLine.get(i + 1) ?? [];
        const owners = new Set<number>();
        let conflict = false;
        for (const path of paths) {
          for (const owner of ownersOf(ownership, path)) owners.add(owner);
          if (conflicts.has(pathKey(path))) conflict = true;
        }
        return { text: line, owners: [...owners].sort((a, b) => a - b), conflict };
      });
  }, [object, ownership, conflicts]);
  const name = (i: number) => ownership.managers[i]?.manager ?? '?';
  return (
    <ol className="mf-lines" aria-label="Fields by manager">
      {lines.map((line, i) => {
        const dim = focused !== null && !line.owners.includes(focused);
        const label = line.owners.length ? `owned by ${line.owners.map(name).join(', ')}` : 'not owned';
        return (
          <li key={i} className={`mf-line${dim ? ' mf-line--dim' : ''}${line.conflict ? ' mf-line--conflict' : ''}`} title={label}>
            <span className="mf-line__owners" aria-hidden="true">
              {line.owners.map((o) => (
                <span key={o} className="mf-bar" style={{ background: ownerColor(o) }} />
              ))}
            </span>
            <code className="mf-line__text">{line.text}</code>
            <span className="visually-hidden">
              {' '}
              — {label}
              {line.conflict ? ', in conflict' : ''}
            </span>
            {line.owners.length > 0 && (
              <span className="mf-line__names" aria-hidden="true">
                {line.owners.map(name).join(', ')}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
