// A StatefulSet's revision history: each distinct pod template is a
// ControllerRevision `<set>-<hash>` whose data is the strategic merge patch
// that restores the template; the newest revision is the update revision,
// status.currentRevision the one the set is rolling away from. A template
// equal to an older revision (a rollback) renumbers that revision instead of
// creating one. Revisions no pod, nor the current or update revision, uses
// are deleted beyond revisionHistoryLimit, oldest first.

import type { KubeObject } from '../../kinds/types';
import { equalRevision, findEqualRevisions, newControllerRevision, nextRevision, revisionNumber, type RevisionHistory } from '../history/revisions';
import { templateFromRevisionData, templatePatch } from '../history/template-patch';
import { APPS_V1, podRevision, rec, STATEFUL_SET_KIND } from './identity';

/** newRevision: the revision that records the set's template, with the set's annotations. */
export function newStatefulSetRevision(set: KubeObject, revision: number, collisionCount: number): KubeObject {
  const template = rec(rec(set.spec).template);
  const labels = rec(template.metadata).labels as Record<string, string> | undefined;
  const cr = newControllerRevision(set, APPS_V1, STATEFUL_SET_KIND, labels, templatePatch(template).data, revision, collisionCount);
  const annotations = set.metadata?.annotations;
  if (annotations && Object.keys(annotations).length > 0) cr.metadata = { ...cr.metadata, annotations: { ...annotations } };
  return cr;
}

/** ApplyRevision: the set as its revision describes it (its template replaced by the revision's). */
export function applyRevision(set: KubeObject, revision: KubeObject): KubeObject {
  const template = templateFromRevisionData(revision.data);
  if (!template) return set;
  return { ...set, spec: { ...rec(set.spec), template } };
}

const collisionCountOf = (set: KubeObject): number => {
  const c = rec(set.status).collisionCount;
  return typeof c === 'number' ? c : 0;
};

export interface SetRevisions {
  readonly current: KubeObject;
  readonly update: KubeObject;
  readonly collisionCount: number;
}

/** getStatefulSetRevisions, given the set's revisions sorted by number. */
export async function statefulSetRevisions(set: KubeObject, sorted: readonly KubeObject[], history: RevisionHistory): Promise<SetRevisions> {
  let collisionCount = collisionCountOf(set);
  let update = newStatefulSetRevision(set, nextRevision(sorted), collisionCount);
  const equal = findEqualRevisions(sorted, update);
  const latest = sorted[sorted.length - 1];
  const lastEqual = equal[equal.length - 1];
  if (lastEqual && equalRevision(latest, lastEqual)) {
    // The template has not changed since the newest revision.
    update = latest!;
  } else if (lastEqual) {
    // Back to an earlier template: that revision becomes the newest.
    update = await history.setRevision(lastEqual, revisionNumber(update));
  } else {
    const created = await history.create(set, update, collisionCount);
    update = created.revision;
    collisionCount = created.collisionCount;
  }
  const currentName = rec(set.status).currentRevision;
  const current = sorted.find((r) => r.metadata?.name === currentName) ?? update;
  return { current, update, collisionCount };
}

/** truncateHistory: the non-live revisions to delete so that revisionHistoryLimit remain (oldest first). */
export function revisionsToTruncate(set: KubeObject, pods: readonly KubeObject[], sorted: readonly KubeObject[], current?: KubeObject, update?: KubeObject): KubeObject[] {
  const live = new Set<string>();
  if (current) live.add(current.metadata?.name ?? '');
  if (update) live.add(update.metadata?.name ?? '');
  for (const pod of pods) live.add(podRevision(pod));
  const historic = sorted.filter((r) => !live.has(r.metadata?.name ?? ''));
  const limitRaw = rec(set.spec).revisionHistoryLimit;
  const limit = typeof limitRaw === 'number' ? limitRaw : 10;
  return historic.length <= limit ? [] : historic.slice(0, historic.length - limit);
}
