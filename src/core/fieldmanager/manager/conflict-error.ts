// The 409 of a conflicting apply, worded as kube-apiserver words it:
//
//   Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas
//   Apply failed with 2 conflicts: conflicts with "a" using v1:
//   - .spec.x
//   - .spec.y
//
// Appliers are named alone; updaters with the API version they used (and
// "with subresource" when they wrote through one). One cause per path.

import { StatusError, type StatusCause } from '../../errors/status';
import { pathString, type Path } from '../fieldpath/element';
import type { Conflict } from '../merge/conflict';
import { goQuote } from '../../util/go/quote';
import { compareGoStrings } from '../../util/go/strings';
import { parseManagerIdentifier } from './identifier';

/** printManager: `"name"`, `"name" using apps/v1`, `"name" with subresource "status" using v1`. */
export function printManager(id: string): string {
  let info;
  try {
    info = parseManagerIdentifier(id);
  } catch {
    return goQuote(id);
  }
  let out = goQuote(info.manager);
  if (info.subresource) out += ` with subresource ${goQuote(info.subresource)}`;
  if (info.operation === 'Update') out += ` using ${info.apiVersion}`;
  return out;
}

export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathString(c.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const list = byManager.get(c.manager);
    if (list) list.push(c.path);
    else byManager.set(c.manager, [c.path]);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(compareGoStrings)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const path of byManager.get(manager)!) lines.push(`- ${pathString(path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** NewConflictError: 409 Conflict, one FieldManagerConflict cause per conflicting path. */
export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  return new StatusError(409, 'Conflict', conflictMessage(conflicts), { causes });
}
