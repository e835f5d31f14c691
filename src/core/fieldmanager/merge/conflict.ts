// Conflicts as data (smd merge.Conflict): which manager owns which path that
// an apply wants to change. Turned into kube-apiserver's 409 only at the edge.

import type { Path } from '../fieldpath/element';
import type { FieldSet } from '../fieldpath/set';
import { compareGoStrings } from '../../util/go/strings';

export interface Conflict {
  /** The manager identifier (JSON of manager, operation, apiVersion, subresource). */
  readonly manager: string;
  readonly path: Path;
}

export class ConflictsError extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(`conflicts: ${conflicts.length}`);
    this.name = 'ConflictsError';
  }
}

/** ConflictsFromManagers: every owned path of every manager, managers in identifier order. */
export function conflictsFromManagers(sets: ReadonlyMap<string, FieldSet>): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort(compareGoStrings)) {
    sets.get(manager)!.iterate((path) => out.push({ manager, path }));
  }
  return out;
}
