// One object: its YAML (live), its events, its owners and dependents, and
// the ways on to the other views (managed fields, the editor) or deletion.

import { useState } from 'react';
import { StatusAlert } from '../../components/status-alert';
import { Tabs } from '../../components/tabs';
import { apiFetch, errorFrom } from '../../lib/api/client';
import type { DiscoveredResource } from '../../lib/api/discovery';
import { collectionPath, objectPath } from '../../lib/api/resource-paths';
import type { KubeObject } from '../../lib/api/types';
import { useListWatch } from '../../lib/api/use-list-watch';
import { navigate, routeHref } from '../../lib/router';
import { useAppStore } from '../../lib/store';
import { toYaml } from '../../lib/yaml/yaml-text';
import { ObjectEvents } from './object-events';
import { ObjectRelations } from './object-relations';
import { ObjectYaml } from './object-yaml';

interface Props {
  readonly resource: DiscoveredResource;
  readonly resources: readonly DiscoveredResource[];
  readonly name: string;
  readonly namespace: string;
  onClose(): void;
}

/** A manifest to edit: what a person would have written (no server-set fields, no status). */
export function manifestOf(object: KubeObject): string {
  const { metadata = {}, status: _status, ...rest } = object as KubeObject & { status?: unknown };
  const { managedFields: _m, uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, ...keptMeta } = metadata;
  return toYaml({ ...rest, metadata: keptMeta });
}

export function ObjectDetail({ resource, resources, name, namespace, onClose }: Props) {
  const [tab, setTab] = useState('yaml');
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const replaceEditorText = useAppStore((s) => s.replaceEditorText);
  const watched = useListWatch({ path: collectionPath(resource, namespace), mode: 'object', fieldSelector: `metadata.name=${name}` });
  const object = watched.items[0]?.object ?? null;
  const path = objectPath(resource, namespace, name);

  const remove = async () => {
    setConfirming(false);
    setDeleteError(null);
    const response = await apiFetch(path, { method: 'DELETE', headers: { accept: 'application/json' } });
    if (!response.ok) setDeleteError(await errorFrom(response));
  };

  return (
    <section className="panel stack explorer__detail" aria-label={`${resource.kind} ${name}`}>
      <div className="row row--center">
        <h2 className="grow explorer__detail-title">
          {resource.kind} <span className="mono">{namespace ? `${namespace}/${name}` : name}</span>
        </h2>
        <button type="button" onClick={onClose} aria-label="Close details">
          ✕
        </button>
      </div>
      <div className="row">
        <a className="button-link" href={routeHref('managed-fields', { path })}>
          Managed fields
        </a>
        <button
          type="button"
          disabled={!object}
          onClick={() => {
            if (!object) return;
            replaceEditorText(manifestOf(object));
            navigate('editor');
          }}
        >
          Open in editor
        </button>
        {!confirming ? (
          <button type="button" className="danger" disabled={!object || !resource.verbs.includes('delete')} onClick={() => setConfirming(true)}>
            Delete
          </button>
        ) : (
          <>
            <button type="button" className="danger" onClick={() => void remove()}>
              Confirm delete
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        )}
      </div>
      <StatusAlert error={deleteError} />
      {object?.metadata?.deletionTimestamp && (
        <p className="alert alert--warn" role="status">
          Terminating since {object.metadata.deletionTimestamp}
          {object.metadata.finalizers?.length ? `; waiting for finalizers: ${object.metadata.finalizers.join(', ')}` : ''}
        </p>
      )}
      {!object ? (
        <p className="muted" role="status">
          {watched.phase === 'listing' ? 'Loading…' : watched.error ? watched.error : 'This object does not exist (any more).'}
        </p>
      ) : (
        <Tabs
          label="Object"
          selected={tab}
          onSelect={setTab}
          tabs={[
            { id: 'yaml', label: 'YAML' },
            { id: 'events', label: 'Events' },
            { id: 'relations', label: 'Owners and dependents' },
          ]}
        >
          {tab === 'yaml' && <ObjectYaml object={object} />}
          {tab === 'events' && <ObjectEvents uid={object.metadata?.uid ?? ''} />}
          {tab === 'relations' && <ObjectRelations object={object} resource={resource} resources={resources} />}
        </Tabs>
      )}
    </section>
  );
}
