// Feature 4: managed fields. For any object: its YAML with every field
// marked by the manager(s) owning it, a legend (operation, apiVersion,
// time), the raw managedFields; an apply-as-manager box; and after a
// conflicting apply, the conflicts with the three ways out.

import { useEffect, useMemo, useState } from 'react';
import { Tabs } from '../../components/tabs';
import type { KubeObject } from '../../lib/api/types';
import { useListWatch } from '../../lib/api/use-list-watch';
import { pathKey, resolvePath } from '../../lib/managed-fields/field-path';
import { ownershipOf } from '../../lib/managed-fields/ownership';
import { useRoute } from '../../lib/router';
import { useAppStore } from '../../lib/store';
import { toYaml } from '../../lib/yaml/yaml-text';
import { ApplyPanel } from './apply-panel';
import { ConflictPanel } from './conflict-panel';
import { Legend } from './legend';
import { ObjectPicker } from './object-picker';
import { OwnedYaml } from './owned-yaml';
import './managed-fields.css';

function identityManifest(object: KubeObject): string {
  const metadata: Record<string, string> = { name: object.metadata?.name ?? '' };
  if (object.metadata?.namespace) metadata.namespace = object.metadata.namespace;
  return toYaml({ apiVersion: object.apiVersion, kind: object.kind, metadata });
}

export default function ManagedFieldsView() {
  const { params } = useRoute();
  const path = params.path ?? '';
  const at = path.lastIndexOf('/');
  const collection = at > 0 ? path.slice(0, at) : '';
  const name = at > 0 ? decodeURIComponent(path.slice(at + 1)) : '';
  const watched = useListWatch(collection && name ? { path: collection, mode: 'object', fieldSelector: `metadata.name=${name}` } : null);
  const object = watched.items[0]?.object ?? null;
  const ownership = useMemo(() => (object ? ownershipOf(object) : null), [object]);
  const lastConflict = useAppStore((s) => s.lastConflict);
  const conflict = lastConflict && lastConflict.objectPath === path ? lastConflict : null;
  const defaultManager = useAppStore((s) => s.fieldManager);
  const [focused, setFocused] = useState<number | null>(null);
  const [tab, setTab] = useState('fields');
  const [manifest, setManifest] = useState('');
  const [manifestFor, setManifestFor] = useState('');
  const [manager, setManager] = useState(defaultManager);

  // A fresh manifest (the object's identity) for each object chosen.
  useEffect(() => {
    if (object && manifestFor !== path) {
      setManifest(identityManifest(object));
      setManifestFor(path);
    }
  }, [object, path, manifestFor]);

  const conflictKeys = useMemo(() => {
    const keys = new Set<string>();
    if (!conflict || !object) return keys;
    for (const c of conflict.conflicts) {
      const p = resolvePath(object, c.elements);
      if (p) keys.add(pathKey(p));
    }
    return keys;
  }, [conflict, object]);

  return (
    <div className="view managed-fields">
      <div className="view__header">
        <h1>Managed fields</h1>
        <span className="muted">Which field manager owns which field, as server-side apply records it.</span>
      </div>
      <ObjectPicker key={path} path={path} />
      {!path && <p className="muted">Choose an object to see who manages its fields.</p>}
      {path && !object && (
        <p className="muted" role="status">
          {watched.phase === 'listing' ? 'Loading…' : watched.error ?? `${path} does not exist.`}
        </p>
      )}
      {conflict && <ConflictPanel conflict={conflict} live={object} onManifest={setManifest} />}
      {object && ownership && (
        <div className="mf-layout">
          <section className="panel stack" aria-label="Ownership">
            <h2 className="mono mf-title">{path}</h2>
            <Legend managers={ownership.managers} focused={focused} onFocus={setFocused} />
            <Tabs
              label="Managed fields"
              selected={tab}
              onSelect={setTab}
              tabs={[
                { id: 'fields', label: 'Fields by manager' },
                { id: 'raw', label: 'Raw managedFields' },
              ]}
            >
              {tab === 'fields' ? (
                <OwnedYaml object={object} ownership={ownership} focused={focused} conflicts={conflictKeys} />
              ) : (
                <pre className="code" aria-label="managedFields">
                  {toYaml(object.metadata?.managedFields ?? [])}
                </pre>
              )}
            </Tabs>
          </section>
          <ApplyPanel objectPath={path} manifest={manifest} onManifest={setManifest} manager={manager} onManager={setManager} />
        </div>
      )}
    </div>
  );
}
