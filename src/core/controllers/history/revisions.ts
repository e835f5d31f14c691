// ControllerRevisions as kube's pkg/controller/history keeps them for a
// StatefulSet: each revision carries its owner's controller reference, the
// pod template's labels plus controller.kubernetes.io/hash, a revision
// number, and data; its name is `<owner>-<hash>`. Creation retries under a
// new name while another revision holds the name with different data (the
// collision count goes up); revisions are ordered by number, then age, then
// name; two revisions are equal when their data bytes are.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { isAlreadyExists } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import { newControllerRef } from '../workloads';
import { controllerRevisionName, hashControllerRevision } from './revision-hash';
import { rawRevisionData } from './template-patch';

export const CONTROLLER_REVISIONS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'controllerrevisions' };
/** history.ControllerRevisionHashLabel. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

export const revisionNumber = (cr: KubeObject): number => (typeof cr.revision === 'number' ? cr.revision : 0);

/** history.NewControllerRevision: named by the hash of the data and the collision count. */
export function newControllerRevision(
  parent: KubeObject,
  parentApiVersion: string,
  parentKind: string,
  templateLabels: Record<string, string> | undefined,
  data: unknown,
  revision: number,
  collisionCount: number | undefined,
): KubeObject {
  const hash = hashControllerRevision(rawRevisionData(data), collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(parent.metadata?.name ?? '', hash),
      namespace: parent.metadata?.namespace,
      labels: { ...(templateLabels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ownerReferences: [newControllerRef(parent, parentApiVersion, parentKind)],
    },
    data,
    revision,
  };
}

const created = (cr: KubeObject): number => Date.parse(cr.metadata?.creationTimestamp ?? '') || 0;

/** history.SortControllerRevisions (stable): by revision, then creation time, then name. */
export function sortRevisions(revisions: readonly KubeObject[]): KubeObject[] {
  return [...revisions].sort((a, b) => {
    const d = revisionNumber(a) - revisionNumber(b);
    if (d !== 0) return d;
    const t = created(a) - created(b);
    if (t !== 0) return t;
    const an = a.metadata?.name ?? '';
    const bn = b.metadata?.name ?? '';
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
}

/** history.EqualRevision: hash labels (when both are numbers) must agree, and the data bytes must be equal. */
export function equalRevision(a: KubeObject | undefined, b: KubeObject | undefined): boolean {
  if (!a || !b) return a === b;
  const ha = a.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
  const hb = b.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
  if (ha !== undefined && hb !== undefined && /^-?\d+$/.test(ha) && /^-?\d+$/.test(hb) && Number(ha) !== Number(hb)) return false;
  return rawRevisionData(a.data) === rawRevisionData(b.data);
}

export function findEqualRevisions(revisions: readonly KubeObject[], needle: KubeObject): KubeObject[] {
  return revisions.filter((r) => equalRevision(r, needle));
}

/** One more than the last (sorted) revision's number; 1 for none. */
export function nextRevision(sorted: readonly KubeObject[]): number {
  const last = sorted[sorted.length - 1];
  return last ? revisionNumber(last) + 1 : 1;
}

/** Writes revisions through the API, as history's realHistory does. */
export class RevisionHistory {
  constructor(private readonly client: ApiClient) {}

  /**
   * Creates the revision; while its name is taken by a revision with other
   * data, bumps the collision count and tries the next name. Returns the
   * revision and the collision count used.
   */
  async create(parent: KubeObject, revision: KubeObject, collisionCount: number): Promise<{ revision: KubeObject; collisionCount: number }> {
    const namespace = parent.metadata?.namespace ?? '';
    let count = collisionCount;
    // Bounded: a run of collisions this long means something else is wrong; the caller retries later.
    for (let attempt = 0; attempt < 100; attempt++) {
      const hash = hashControllerRevision(rawRevisionData(revision.data), count);
      const name = controllerRevisionName(parent.metadata?.name ?? '', hash);
      const clone: KubeObject = { ...revision, metadata: { ...revision.metadata, name, namespace } };
      try {
        return { revision: await this.client.create(CONTROLLER_REVISIONS, namespace, clone), collisionCount: count };
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const existing = await this.client.get(CONTROLLER_REVISIONS, namespace, name);
        if (rawRevisionData(existing.data) === rawRevisionData(clone.data)) return { revision: existing, collisionCount: count };
        count++;
      }
    }
    throw new Error(`too many ControllerRevision name collisions for ${namespace}/${parent.metadata?.name}`);
  }

  /** Gives an existing revision a new number (a rollback to an earlier template). */
  async setRevision(revision: KubeObject, newRevision: number): Promise<KubeObject> {
    if (revisionNumber(revision) === newRevision) return revision;
    const namespace = revision.metadata?.namespace ?? '';
    let current = revision;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.client.update(CONTROLLER_REVISIONS, namespace, { ...current, revision: newRevision });
      } catch (err) {
        if (attempt >= 4 || !(err instanceof Error) || !('code' in err) || (err as { code: number }).code !== 409) throw err;
        current = await this.client.get(CONTROLLER_REVISIONS, namespace, revision.metadata?.name ?? '');
        if (revisionNumber(current) === newRevision) return current;
      }
    }
  }

  async delete(revision: KubeObject): Promise<void> {
    await this.client.delete(CONTROLLER_REVISIONS, revision.metadata?.namespace ?? '', revision.metadata?.name ?? '');
  }
}
