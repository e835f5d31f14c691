// At most 10 Update entries are kept (capmanagers.go). Beyond that, the
// oldest updaters are merged, per API version, into an "ancient-changes"
// entry: the first old entry of a version is only remembered, the next one
// of the same version turns it into the bucket. The bucket takes the time
// of the most recent entry merged into it.

import type { Managed } from './managed';
import { unixSeconds } from './managed';
import { buildManagerIdentifier } from './identifier';
import { compareGoStrings } from '../../util/go/strings';

export const MAX_UPDATE_MANAGERS = 10;
export const OLD_UPDATES_MANAGER = 'ancient-changes';

export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  const updaters: string[] = [];
  for (const [manager, vs] of managed.fields) if (!vs.applied) updaters.push(manager);
  if (updaters.length <= max) return;

  updaters.sort((a, b) => {
    const as = unixSeconds(managed.times.get(a));
    const bs = unixSeconds(managed.times.get(b));
    if (as !== bs) return as < bs ? -1 : 1;
    return compareGoStrings(a, b);
  });

  const versionToFirstManager = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const manager = updaters[i]!;
    const vs = managed.fields.get(manager)!;
    const time = managed.times.get(manager);
    const version = vs.apiVersion;
    const bucket = buildManagerIdentifier({ manager: OLD_UPDATES_MANAGER, operation: 'Update', apiVersion: version, subresource: '' });
    const first = versionToFirstManager.get(version);
    if (first !== undefined) {
      if (!managed.fields.has(bucket)) {
        const s = managed.fields.get(first)!;
        managed.fields.delete(first);
        managed.fields.set(bucket, s);
      }
      managed.fields.set(bucket, { set: vs.set.union(managed.fields.get(bucket)!.set), apiVersion: vs.apiVersion, applied: vs.applied });
      managed.fields.delete(manager);
      length--;
      managed.times.set(bucket, time);
    } else {
      versionToFirstManager.set(version, manager);
    }
  }
}
