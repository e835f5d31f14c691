// Controller references and kube's ControllerRefManager: which objects (pods,
// ControllerRevisions) a workload controller owns. An object whose
// controller reference names the workload is its own while the workload's
// selector (and the controller's extra filter) still matches it, and is
// released otherwise; an orphan the selector matches is adopted, once a fresh
// read of the workload shows it is not being deleted. Adoption and release
// are strategic merge patches of metadata.ownerReferences carrying the
// object's uid, as kube's do, so a recreated object of the same name is left
// alone. Shared by the StatefulSet and DaemonSet controllers.
// Kept beside workloads' ControllerRefManager because it differs: errors are
// aggregated into one "[a, b]" message, and one owner re-check can be shared
// by several claims of a sync (the DaemonSet's pods and revisions).

import type { KubeObject } from '../../kinds/types';
import type { LabelSelector } from '../../selectors';
import type { ApiClient } from '../client/api-client';
import { ApiError, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import { controllerRefOf, newControllerRef } from '../workloads';

const SMP = 'application/strategic-merge-patch+json';

export interface ClaimOptions {
  readonly client: ApiClient;
  /** The resource of the objects claimed. */
  readonly gvr: GroupVersionResource;
  readonly owner: KubeObject;
  readonly ownerApiVersion: string;
  readonly ownerKind: string;
  readonly selector: LabelSelector;
  /** A further condition an object must meet (the StatefulSet's: its name says it is a member). */
  readonly filter?: (obj: KubeObject) => boolean;
  /** Resolves when the owner may adopt (a fresh read shows it alive, same uid); rejects otherwise. */
  readonly canAdopt: () => Promise<void>;
}

/** controller.RecheckDeletionTimestamp, asked at most once per claim round. */
export function recheckOwner(read: () => Promise<KubeObject>, owner: KubeObject): () => Promise<void> {
  let verdict: Promise<void> | undefined;
  return () =>
    (verdict ??= (async () => {
      const fresh = await read();
      const kind = owner.kind ?? 'object';
      const name = `${owner.metadata?.namespace}/${owner.metadata?.name}`;
      if (fresh.metadata?.uid !== owner.metadata?.uid) {
        throw new Error(`original ${kind} ${name} is gone: got uid ${fresh.metadata?.uid}, wanted ${owner.metadata?.uid}`);
      }
      if (fresh.metadata?.deletionTimestamp) throw new Error(`${name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
    })());
}

/** The objects the owner controls after adopting orphans and releasing strays (ClaimPods / ClaimControllerRevisions). */
export async function claimObjects(objects: readonly KubeObject[], o: ClaimOptions): Promise<KubeObject[]> {
  const ownerUid = o.owner.metadata?.uid;
  const ownerDeleting = !!o.owner.metadata?.deletionTimestamp;
  const matches = (obj: KubeObject) => o.selector.matches(obj.metadata?.labels ?? {}) && (o.filter ? o.filter(obj) : true);
  const claimed: KubeObject[] = [];
  const errors: string[] = [];
  for (const obj of objects) {
    const ref = controllerRefOf(obj);
    try {
      if (ref) {
        if (ref.uid !== ownerUid) continue;
        if (matches(obj)) claimed.push(obj);
        else if (!ownerDeleting) await release(obj, o);
        continue;
      }
      if (ownerDeleting || !matches(obj) || obj.metadata?.deletionTimestamp) continue;
      if (obj.metadata?.namespace !== o.owner.metadata?.namespace) continue;
      await o.canAdopt();
      const adopted = await adopt(obj, o);
      if (adopted) claimed.push(adopted);
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  return claimed;
}

async function adopt(obj: KubeObject, o: ClaimOptions): Promise<KubeObject | undefined> {
  const patch = { metadata: { ownerReferences: [newControllerRef(o.owner, o.ownerApiVersion, o.ownerKind)], uid: obj.metadata?.uid } };
  try {
    return await o.client.patch(o.gvr, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '', patch, SMP);
  } catch (err) {
    // Gone meanwhile: nothing to adopt.
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function release(obj: KubeObject, o: ClaimOptions): Promise<void> {
  const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: o.owner.metadata?.uid }], uid: obj.metadata?.uid } };
  try {
    await o.client.patch(o.gvr, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '', patch, SMP);
  } catch (err) {
    // Gone, or no longer ours (the patch's uid no longer matches): nothing to release.
    if (isNotFound(err) || (err instanceof ApiError && err.code === 422)) return;
    throw err;
  }
}
