// What the fault check needs to know of the resources a server serves now
// (built-ins, enabled groups, established custom resources).

import type { ResourceRegistry } from '../registry';
import type { ServedResourceInfo } from './fault-spec';

export function servedResourceInfo(registry: ResourceRegistry): ServedResourceInfo[] {
  const out: ServedResourceInfo[] = [];
  for (const group of registry.groups()) {
    for (const version of group.versions) {
      for (const served of registry.resourcesIn(group.name, version)) {
        out.push({
          group: served.group,
          plural: served.definition.plural,
          namespaced: served.definition.namespaced,
          subresources: (served.definition.subresources ?? []).map((s) => s.name),
        });
      }
    }
  }
  return out;
}
