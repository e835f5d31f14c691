// The resources discovery lists, by API group, filterable. Only each group's
// preferred version is listed, as kubectl api-resources does.

import { useMemo, useState } from 'react';
import type { DiscoveredResource } from '../../lib/api/discovery';
import { resourceKey, selectionHref } from './selection';

interface Props {
  readonly resources: readonly DiscoveredResource[];
  readonly selectedKey: string;
}

export function ResourceList({ resources, selectedKey }: Props) {
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const byGroup = new Map<string, DiscoveredResource[]>();
    for (const r of resources) {
      if (!r.preferred || !r.verbs.includes('list')) continue;
      if (needle && ![r.resource, r.kind.toLowerCase(), r.group, ...r.shortNames].some((s) => s.includes(needle))) continue;
      const list = byGroup.get(r.group) ?? [];
      list.push(r);
      byGroup.set(r.group, list);
    }
    return [...byGroup.entries()].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
  }, [resources, filter]);
  return (
    <nav className="explorer__resources" aria-label="Resources">
      <label className="explorer__filter">
        <span className="visually-hidden">Filter resources</span>
        <input type="search" placeholder="Filter resources" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </label>
      <div className="explorer__resource-groups">
        {groups.map(([group, list]) => (
          <section key={group} aria-label={group || 'core'}>
            <h2 className="explorer__group">{group || 'core'}</h2>
            <ul>
              {list
                .sort((a, b) => a.kind.localeCompare(b.kind))
                .map((r) => (
                  <li key={resourceKey(r)}>
                    <a
                      href={selectionHref({ gv: r.groupVersion, resource: r.resource })}
                      aria-current={resourceKey(r) === selectedKey ? 'page' : undefined}
                      title={`${r.resource}.${r.groupVersion}${r.namespaced ? '' : ' (cluster-scoped)'}`}
                    >
                      {r.kind}
                    </a>
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  );
}
