// Choose an object: a resource from discovery, a namespace, a name (listed
// live). The choice goes into the URL (#/managed-fields?path=…); the resource
// chosen is also remembered across reloads (the store), and shown as chosen
// while discovery is still loading rather than as the list's first entry.

import { useMemo, useState } from 'react';
import { useDiscovery } from '../../lib/api/discovery';
import { collectionPath, objectPath, parseApiPath } from '../../lib/api/resource-paths';
import { useListWatch } from '../../lib/api/use-list-watch';
import { navigate } from '../../lib/router';
import { useAppStore } from '../../lib/store';

export function ObjectPicker({ path }: { path: string }) {
  const { resources } = useDiscovery();
  const storeNamespace = useAppStore((s) => s.namespace);
  const parsed = parseApiPath(path);
  const remembered = useAppStore((s) => s.managedFieldsResource);
  const remember = useAppStore((s) => s.setManagedFieldsResource);
  const [key, choose] = useState(parsed ? `${parsed.groupVersion}/${parsed.resource}` : remembered);
  const setKey = (next: string) => {
    choose(next);
    remember(next);
  };
  const [namespace, setNamespace] = useState(parsed?.namespace || storeNamespace || 'default');
  const listable = useMemo(() => resources.filter((r) => r.preferred && r.verbs.includes('list') && r.verbs.includes('patch')).sort((a, b) => a.kind.localeCompare(b.kind)), [resources]);
  const resource = listable.find((r) => `${r.groupVersion}/${r.resource}` === key) ?? null;
  const objects = useListWatch(resource ? { path: collectionPath(resource, resource.namespaced ? namespace : ''), mode: 'table' } : null);
  const names = objects.items.map((e) => e.name);
  return (
    <form className="row" aria-label="Choose an object" onSubmit={(e) => e.preventDefault()}>
      <label>
        Resource
        <select value={key} onChange={(e) => setKey(e.target.value)}>
          {!resource && <option value={key}>{key}</option>}
          {listable.map((r) => (
            <option key={`${r.groupVersion}/${r.resource}`} value={`${r.groupVersion}/${r.resource}`}>
              {r.kind} ({r.groupVersion})
            </option>
          ))}
        </select>
      </label>
      {resource?.namespaced !== false && (
        <label>
          Namespace
          <input value={namespace} onChange={(e) => setNamespace(e.target.value)} spellCheck={false} />
        </label>
      )}
      <label>
        Object
        <select
          value={parsed && resource && parsed.resource === resource.resource ? parsed.name : ''}
          onChange={(e) => resource && e.target.value && navigate('managed-fields', { path: objectPath(resource, namespace, e.target.value) })}
        >
          <option value="">{names.length ? 'Choose…' : 'No objects'}</option>
          {names.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </label>
    </form>
  );
}
