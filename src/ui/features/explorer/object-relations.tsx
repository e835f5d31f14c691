// Owners (the object's ownerReferences) and dependents (objects whose
// ownerReferences name this object's uid). Dependents are found by listing
// the metadata of every listable resource where they can live: the owner's
// namespace, or every namespace for a cluster-scoped owner. A listing, not a
// watch: "Look again" lists again.

import { useEffect, useState } from 'react';
import { apiJson } from '../../lib/api/client';
import { resourceForKind, collectionPath } from '../../lib/api/resource-paths';
import type { DiscoveredResource } from '../../lib/api/discovery';
import type { KubeList, KubeObject, OwnerReference } from '../../lib/api/types';
import { selectionHref } from './selection';

const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json';

interface Dependent {
  readonly resource: DiscoveredResource;
  readonly name: string;
  readonly namespace: string;
  readonly controller: boolean;
  readonly blockOwnerDeletion: boolean;
}

async function findDependents(resources: readonly DiscoveredResource[], owner: KubeObject, namespaced: boolean): Promise<Dependent[]> {
  const uid = owner.metadata?.uid;
  const namespace = owner.metadata?.namespace ?? '';
  const candidates = resources.filter((r) => r.preferred && r.verbs.includes('list') && r.resource !== 'events' && (!namespaced || r.namespaced));
  const found: Dependent[] = [];
  await Promise.all(
    candidates.map(async (r) => {
      try {
        const list = await apiJson<KubeList>(collectionPath(r, namespaced ? namespace : ''), { headers: { accept: METADATA_LIST } });
        for (const item of list.items) {
          const ref = item.metadata?.ownerReferences?.find((o) => o.uid === uid);
          if (ref) found.push({ resource: r, name: item.metadata?.name ?? '', namespace: item.metadata?.namespace ?? '', controller: !!ref.controller, blockOwnerDeletion: !!ref.blockOwnerDeletion });
        }
      } catch {
        // a resource we may not list: skip it
      }
    }),
  );
  return found.sort((a, b) => `${a.resource.kind}/${a.name}`.localeCompare(`${b.resource.kind}/${b.name}`));
}

export function ObjectRelations({ object, resource, resources }: { object: KubeObject; resource: DiscoveredResource; resources: readonly DiscoveredResource[] }) {
  const owners: OwnerReference[] = object.metadata?.ownerReferences ?? [];
  const [dependents, setDependents] = useState<Dependent[] | null>(null);
  const [round, setRound] = useState(0);
  const uid = object.metadata?.uid;
  useEffect(() => {
    let live = true;
    setDependents(null);
    void findDependents(resources, object, resource.namespaced).then((d) => live && setDependents(d));
    return () => {
      live = false;
    };
    // Look again when the object (uid) changes or when asked, not on every update.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uid, round, resources]);
  const namespace = object.metadata?.namespace ?? '';
  return (
    <div className="stack">
      <section aria-label="Owners">
        <h3>Owners</h3>
        {owners.length === 0 ? (
          <p className="muted">No owners: nothing will garbage-collect this object.</p>
        ) : (
          <ul>
            {owners.map((o) => {
              const r = resourceForKind(resources, o.apiVersion, o.kind);
              return (
                <li key={o.uid}>
                  {o.kind}{' '}
                  {r ? <a href={selectionHref({ gv: r.groupVersion, resource: r.resource, name: o.name, objectNamespace: r.namespaced ? namespace : '' })}>{o.name}</a> : o.name}
                  {o.controller ? <span className="badge">controller</span> : null}
                  {o.blockOwnerDeletion ? <span className="badge">blockOwnerDeletion</span> : null}
                  <span className="muted mono"> uid {o.uid}</span>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-label="Dependents">
        <div className="row row--center">
          <h3 className="grow">Dependents</h3>
          <button type="button" onClick={() => setRound((n) => n + 1)}>
            Look again
          </button>
        </div>
        {dependents === null ? (
          <p className="muted">Looking for dependents…</p>
        ) : dependents.length === 0 ? (
          <p className="muted">No object names this one as its owner.</p>
        ) : (
          <ul>
            {dependents.map((d) => (
              <li key={`${d.resource.groupVersion}/${d.resource.resource}/${d.namespace}/${d.name}`}>
                {d.resource.kind}{' '}
                <a href={selectionHref({ gv: d.resource.groupVersion, resource: d.resource.resource, name: d.name, objectNamespace: d.namespace })}>
                  {d.namespace && !resource.namespaced ? `${d.namespace}/` : ''}
                  {d.name}
                </a>
                {d.controller ? <span className="badge">controller</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
