// Controller references and kube's ControllerRefManager
// (pkg/controller/controller_ref_manager.go): a workload claims the objects
// its selector matches. An object it already controls stays claimed while
// the selector matches and is released (its ownerReference removed) when it
// no longer does — unless the owner is being deleted; an orphan that matches
// is adopted (an ownerReference with controller=true and
// blockOwnerDeletion=true added) — unless the owner or the orphan is being
// deleted. Before the first adoption the owner is read again from the
// server, uncached, so that an owner deleted (or recreated under another
// uid) meanwhile adopts nothing (RecheckDeletionTimestamp). Adoption and
// release are strategic merge patches that name the object's uid, so they
// never touch a namesake.

import type { KubeObject, OwnerReference } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { ApiError, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { LabelSelector } from '../../selectors';
import { labelsOf } from './objects';

const STRATEGIC = 'application/strategic-merge-patch+json';

/** metav1.GetControllerOf: the ownerReference with controller=true. */
export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
}

/** metav1.NewControllerRef: the reference a controller puts on what it creates or adopts. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** metav1.IsControlledBy. */
export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  const ref = controllerRefOf(obj);
  return !!ref && ref.uid === owner.metadata?.uid;
}

export interface ControllerRefManagerOptions {
  readonly client: ApiClient;
  /** The owner as the controller's cache has it. */
  readonly owner: KubeObject;
  readonly ownerApiVersion: string;
  readonly ownerKind: string;
  /** The owner's selector (matched against the objects' labels). */
  readonly selector: LabelSelector;
  /** Where the claimed objects live (pods, replicasets, …). */
  readonly ownedResource: GroupVersionResource;
  /** Reads the owner again from the server, uncached (for the adoption re-check). */
  readonly getFreshOwner: () => Promise<KubeObject>;
  /** Further conditions an object must meet to be claimed (kube's ClaimPods filters). */
  readonly filter?: (obj: KubeObject) => boolean;
}

/** Thrown (and retried by the caller's queue) when the owner may no longer adopt. */
export class CannotAdoptError extends Error {}

export class ControllerRefManager {
  private canAdoptChecked: Promise<void> | undefined;

  constructor(private readonly o: ControllerRefManagerOptions) {}

  private get ownerUid(): string {
    return this.o.owner.metadata?.uid ?? '';
  }

  private matches(obj: KubeObject): boolean {
    return this.o.selector.matches(labelsOf(obj)) && (this.o.filter?.(obj) ?? true);
  }

  /** RecheckDeletionTimestamp, once per manager (kube's sync.Once). */
  private canAdopt(): Promise<void> {
    this.canAdoptChecked ??= (async () => {
      const { owner } = this.o;
      const fresh = await this.o.getFreshOwner();
      const ns = owner.metadata?.namespace ?? '';
      const name = owner.metadata?.name ?? '';
      if (fresh.metadata?.uid !== this.ownerUid) {
        throw new CannotAdoptError(`original ${this.o.ownerKind} ${ns}/${name} is gone: got uid ${fresh.metadata?.uid ?? ''}, wanted ${this.ownerUid}`);
      }
      if (fresh.metadata?.deletionTimestamp) throw new CannotAdoptError(`${ns}/${name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
    })();
    return this.canAdoptChecked;
  }

  private async adopt(obj: KubeObject): Promise<KubeObject> {
    await this.canAdopt();
    const ref = newControllerRef(this.o.owner, this.o.ownerApiVersion, this.o.ownerKind);
    const patch = { metadata: { ownerReferences: [ref], uid: obj.metadata?.uid } };
    return this.o.client.patch(this.o.ownedResource, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '', patch, STRATEGIC);
  }

  private async release(obj: KubeObject): Promise<void> {
    const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: this.ownerUid }], uid: obj.metadata?.uid } };
    try {
      await this.o.client.patch(this.o.ownedResource, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '', patch, STRATEGIC);
    } catch (err) {
      // Gone, or no longer ours / another object under the name (the uid no longer matches): nothing to release.
      if (isNotFound(err) || (err instanceof ApiError && err.code === 422)) return;
      throw err;
    }
  }

  /**
   * ClaimObject for each object: returns the objects the owner controls after
   * adoption and release. Errors are collected; the first is thrown after
   * every object has been looked at (kube aggregates them).
   */
  async claim(objects: readonly KubeObject[]): Promise<KubeObject[]> {
    const claimed: KubeObject[] = [];
    const errors: unknown[] = [];
    const ownerDeleting = !!this.o.owner.metadata?.deletionTimestamp;
    const ownerNamespace = this.o.owner.metadata?.namespace ?? '';
    for (const obj of objects) {
      const ref = controllerRefOf(obj);
      if (ref) {
        if (ref.uid !== this.ownerUid) continue;
        if (this.matches(obj)) {
          claimed.push(obj);
          continue;
        }
        if (ownerDeleting) continue;
        try {
          await this.release(obj);
        } catch (err) {
          errors.push(err);
        }
        continue;
      }
      if (ownerDeleting || !this.matches(obj)) continue;
      if (obj.metadata?.deletionTimestamp) continue;
      if (ownerNamespace && ownerNamespace !== (obj.metadata?.namespace ?? '')) continue;
      try {
        claimed.push(await this.adopt(obj));
      } catch (err) {
        if (!isNotFound(err)) errors.push(err);
      }
    }
    if (errors.length > 0) throw errors[0];
    return claimed;
  }
}
