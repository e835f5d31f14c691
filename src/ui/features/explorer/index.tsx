// Feature 2: the explorer. Resources from discovery, objects of the chosen
// resource kept current by list-then-watch (Table output, virtualised), and
// the selected object's YAML, events, owners and dependents.

import { useMemo, useState } from 'react';
import { useDiscovery, useDiscoveryFollowingCrds } from '../../lib/api/discovery';
import { collectionPath } from '../../lib/api/resource-paths';
import { useListWatch } from '../../lib/api/use-list-watch';
import { useRoute } from '../../lib/router';
import { useAppStore } from '../../lib/store';
import { NamespacePicker } from './namespace-picker';
import { ObjectDetail } from './object-detail';
import { ObjectTable } from './object-table';
import { ResourceList } from './resource-list';
import { resourceKey, select, selectionFrom } from './selection';
import './explorer.css';

export default function ExplorerView() {
  const route = useRoute();
  const selection = selectionFrom(route.params);
  const { resources, error, loading } = useDiscovery();
  // New custom resources show up in the list as soon as their CRD is served.
  const crds = useListWatch({ path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', mode: 'table' });
  useDiscoveryFollowingCrds(crds.events);
  const namespace = useAppStore((s) => s.namespace);
  const setNamespace = useAppStore((s) => s.setNamespace);
  const [labelSelector, setLabelSelector] = useState('');
  const resource = useMemo(
    () => resources.find((r) => r.groupVersion === selection.gv && r.resource === selection.resource) ?? null,
    [resources, selection.gv, selection.resource],
  );
  const snapshot = useListWatch(
    resource ? { path: collectionPath(resource, resource.namespaced ? namespace : ''), mode: 'table', labelSelector: labelSelector.trim() || undefined } : null,
  );

  return (
    <div className="view view--fill explorer">
      <div className="explorer__layout">
        <ResourceList resources={resources} selectedKey={resource ? resourceKey(resource) : ''} />
        <section className="explorer__main stack" aria-label="Objects">
          <div className="explorer__toolbar stack">
            <div className="row row--center">
              <h1 className="grow">{resource ? resource.kind : selection.resource}</h1>
              <p className="explorer__watch-state" role="status" aria-label="Watch state">
                <span className={`badge ${snapshot.phase === 'watching' ? 'badge--ok' : snapshot.phase === 'error' ? 'badge--error' : ''}`}>{snapshot.phase}</span>{' '}
                <span className="muted">
                  {snapshot.items.length} objects · rv {snapshot.resourceVersion || '–'}
                </span>
              </p>
            </div>
            <div className="row">
              <NamespacePicker value={namespace} onChange={setNamespace} disabled={resource ? !resource.namespaced : false} />
              <label className="grow">
                Label selector
                <input value={labelSelector} placeholder="app=web" onChange={(e) => setLabelSelector(e.target.value)} />
              </label>
            </div>
          </div>
          {error && <div className="alert alert--error">Discovery failed: {error}</div>}
          {snapshot.error && <div className="alert alert--error">{snapshot.error}</div>}
          {!resource && !loading && resources.length > 0 && <p className="muted">No resource {selection.gv}/{selection.resource} is served.</p>}
          <div className="explorer__table panel panel--flush">{resource && <ObjectTable resource={resource} snapshot={snapshot} allNamespaces={!namespace} selectedName={selection.name} selectedNamespace={selection.objectNamespace} />}</div>
        </section>
        {resource && selection.name && (
          <ObjectDetail
            key={`${resourceKey(resource)}/${selection.objectNamespace}/${selection.name}`}
            resource={resource}
            resources={resources}
            name={selection.name}
            namespace={resource.namespaced ? selection.objectNamespace : ''}
            onClose={() => select({ gv: selection.gv, resource: selection.resource })}
          />
        )}
      </div>
    </div>
  );
}
