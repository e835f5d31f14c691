// Fields no manager ever owns (stripmeta.go): the type and object identity
// and the server-maintained metadata. Only exact members are removed, so a
// manager still owns labels and annotations under metadata.

import { fieldElement } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import type { ManagedFieldSets } from '../merge/updater';

const f = fieldElement;
const STRIP = FieldSet.of(
  [f('apiVersion')],
  [f('kind')],
  [f('metadata')],
  [f('metadata'), f('name')],
  [f('metadata'), f('namespace')],
  [f('metadata'), f('creationTimestamp')],
  [f('metadata'), f('selfLink')],
  [f('metadata'), f('uid')],
  [f('metadata'), f('clusterName')],
  [f('metadata'), f('generation')],
  [f('metadata'), f('managedFields')],
  [f('metadata'), f('resourceVersion')],
);

/** Strips the manager's set in place; a manager left with nothing is dropped. */
export function stripMeta(managers: ManagedFieldSets, manager: string): void {
  const vs = managers.get(manager);
  if (!vs) return;
  const set = vs.set.difference(STRIP);
  if (set.isEmpty()) managers.delete(manager);
  else managers.set(manager, { ...vs, set });
}
