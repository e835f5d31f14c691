// A DaemonSet's revision history (kube's daemon/update.go): every template
// the set has had is a ControllerRevision `<ds>-<hash>` labelled
// controller-revision-hash=<hash>, holding the patch that restores the
// template. The revision whose data equals the current template is the
// current one (renumbered to the newest when the template returns to it);
// duplicates are merged, their pods relabelled; revisions beyond
// revisionHistoryLimit that no pod uses are deleted, oldest first.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { isAlreadyExists } from '../client/api-error';
import { computeTemplateHash } from '../history/revision-hash';
import { CONTROLLER_REVISIONS, revisionNumber } from '../history/revisions';
import { goJson } from '../history/go-json';
import { goTemplate, rawRevisionData, templatePatch } from '../history/template-patch';
import { DAEMON_SET_REVISION_LABEL } from './daemon-pods';
import { rec } from './node-eligibility';
import { newControllerRef } from '../workloads';

export const DAEMON_SETS = { group: 'apps', version: 'v1', resource: 'daemonsets' } as const;
export const APPS_V1 = 'apps/v1';
export const DAEMON_SET_KIND = 'DaemonSet';

const collisionCountOf = (ds: KubeObject): number | undefined => {
  const c = rec(ds.status).collisionCount;
  return typeof c === 'number' ? c : undefined;
};

/** controller.ComputeHash of the set's template and collision count. */
export function templateHash(ds: KubeObject): string {
  return computeTemplateHash(goJson(goTemplate(rec(ds.spec).template)), collisionCountOf(ds));
}

/** Match: the revision's data is the patch of the set's current template. */
export function matchesTemplate(ds: KubeObject, revision: KubeObject): boolean {
  return templatePatch(rec(ds.spec).template).raw === rawRevisionData(revision.data);
}

export const maxRevision = (revisions: readonly KubeObject[]): number => revisions.reduce((m, r) => Math.max(m, revisionNumber(r)), 0);

/** The revision object snapshot() creates for the set's template. */
export function snapshotRevision(ds: KubeObject, revision: number): KubeObject {
  const template = rec(rec(ds.spec).template);
  const hash = templateHash(ds);
  const labels = { ...(rec(rec(template.metadata).labels) as Record<string, string>), [DAEMON_SET_REVISION_LABEL]: hash };
  const metadata: KubeObject['metadata'] = {
    name: `${ds.metadata?.name ?? ''}-${hash}`,
    namespace: ds.metadata?.namespace,
    labels,
    ownerReferences: [newControllerRef(ds, APPS_V1, DAEMON_SET_KIND)],
  };
  if (ds.metadata?.annotations) metadata.annotations = { ...ds.metadata.annotations };
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data: templatePatch(template).data, revision };
}

/**
 * snapshot: creates the current revision. When the name is taken by another
 * template's revision, the set's collisionCount goes up (so the next hash
 * differs) and the error is returned, to be retried.
 */
export async function snapshot(client: ApiClient, ds: KubeObject, revision: number): Promise<KubeObject> {
  const history = snapshotRevision(ds, revision);
  const namespace = ds.metadata?.namespace ?? '';
  try {
    return await client.create(CONTROLLER_REVISIONS, namespace, history);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const existing = await client.get(CONTROLLER_REVISIONS, namespace, history.metadata?.name ?? '');
    if (matchesTemplate(ds, existing)) return existing;
    const current = await client.get(DAEMON_SETS, namespace, ds.metadata?.name ?? '');
    const before = collisionCountOf(ds);
    const now = collisionCountOf(current);
    if (before !== now) throw new Error(`found a stale collision count (${before ?? 0}, expected ${now ?? 0}) of DaemonSet "${ds.metadata?.name}" while processing; will retry until it is updated`);
    await client.update(DAEMON_SETS, namespace, { ...current, status: { ...rec(current.status), collisionCount: (now ?? 0) + 1 } }, 'status');
    throw err;
  }
}
