// What the StatefulSet controller does to pods and claims, through the API,
// with the events kube's StatefulPodControl records on the set:
// SuccessfulCreate "create Pod web-0 in StatefulSet web successful",
// SuccessfulCreate "create Claim www-web-0 Pod web-0 in StatefulSet web
// success", SuccessfulDelete, SuccessfulUpdate, and their Failed… warnings
// with the API's error. Claims are created before their pod, and their owner
// references follow the retention policy (claim-retention.ts).

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { errorMessage, isAlreadyExists, isConflict, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { EventRecorder } from '../runtime/event-recorder';
import { claimWithPolicyRefs, hasStaleOwnerRef, hasUnexpectedController, isClaimOwnerUpToDate, retentionPolicy } from './claim-retention';
import { APPS_V1, claimName, claimTemplates, identityMatches, ordinalOf, podClaims, STATEFUL_SET_KIND, storageMatches, withIdentity, withStorage } from './identity';

export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
export const CLAIMS: GroupVersionResource = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };

const title = (verb: string) => verb.charAt(0).toUpperCase() + verb.slice(1);

export interface StatefulPodControlDeps {
  readonly client: ApiClient;
  readonly recorder: EventRecorder;
  /** The claim as the controller's cache has it. */
  readonly getClaim: (namespace: string, name: string) => KubeObject | undefined;
  /** The StatefulSetAutoDeletePVC feature gate (beta, on in 1.32). */
  readonly autoDeletePVC: boolean;
}

/** Which of two versions of an object is newer (resourceVersions are decimal here; unknown ones lose). */
function newer(a: KubeObject, b: KubeObject): KubeObject {
  try {
    return BigInt(a.metadata?.resourceVersion ?? '0') >= BigInt(b.metadata?.resourceVersion ?? '0') ? a : b;
  } catch {
    return a;
  }
}

export class StatefulPodControl {
  /** Claims this controller wrote, until the cache shows them (so one round does not act on its own stale view). */
  private readonly written = new Map<string, KubeObject>();

  constructor(private readonly d: StatefulPodControlDeps) {}

  private getClaim(namespace: string, name: string): KubeObject | undefined {
    const key = `${namespace}/${name}`;
    const cached = this.d.getClaim(namespace, name);
    const mine = this.written.get(key);
    if (!mine) return cached;
    if (!cached) return mine;
    const pick = newer(cached, mine);
    if (pick === cached) this.written.delete(key);
    return pick;
  }

  private remember(claim: KubeObject): void {
    this.written.set(`${claim.metadata?.namespace}/${claim.metadata?.name}`, claim);
  }

  /** Forgets what was written for claims of a namespace/name prefix (called when the cache catches up or the set goes). */
  forgetClaim(namespace: string, name: string): void {
    this.written.delete(`${namespace}/${name}`);
  }

  private setRef(set: KubeObject): KubeObject {
    return { ...set, apiVersion: APPS_V1, kind: STATEFUL_SET_KIND };
  }

  private async podEvent(verb: string, set: KubeObject, pod: KubeObject, err?: unknown): Promise<void> {
    const name = pod.metadata?.name ?? '';
    const setName = set.metadata?.name ?? '';
    if (err === undefined) {
      await this.d.recorder.record(this.setRef(set), { type: 'Normal', reason: `Successful${title(verb)}`, message: `${verb} Pod ${name} in StatefulSet ${setName} successful` });
    } else {
      await this.d.recorder.record(this.setRef(set), { type: 'Warning', reason: `Failed${title(verb)}`, message: `${verb} Pod ${name} in StatefulSet ${setName} failed error: ${errorMessage(err)}` });
    }
  }

  private async claimEvent(verb: string, set: KubeObject, pod: KubeObject, claim: KubeObject, err?: unknown): Promise<void> {
    const c = claim.metadata?.name ?? '';
    const p = pod.metadata?.name ?? '';
    const s = set.metadata?.name ?? '';
    if (err === undefined) {
      await this.d.recorder.record(this.setRef(set), { type: 'Normal', reason: `Successful${title(verb)}`, message: `${verb} Claim ${c} Pod ${p} in StatefulSet ${s} success` });
    } else {
      await this.d.recorder.record(this.setRef(set), { type: 'Warning', reason: `Failed${title(verb)}`, message: `${verb} Claim ${c} for Pod ${p} in StatefulSet ${s} failed error: ${errorMessage(err)}` });
    }
  }

  /** createPersistentVolumeClaims: every claim of the pod that does not exist yet. */
  async createClaims(set: KubeObject, pod: KubeObject): Promise<void> {
    const errors: string[] = [];
    for (const claim of podClaims(set, pod).values()) {
      const name = claim.metadata?.name ?? '';
      const namespace = claim.metadata?.namespace ?? '';
      const existing = this.getClaim(namespace, name);
      if (!existing) {
        try {
          this.remember(await this.d.client.create(CLAIMS, namespace, claim));
          await this.claimEvent('create', set, pod, claim);
        } catch (err) {
          // Created by an earlier round the cache has not shown yet: it exists, which is what is wanted.
          if (isAlreadyExists(err)) continue;
          errors.push(`failed to create PVC ${name}: ${errorMessage(err)}`);
          await this.claimEvent('create', set, pod, claim, err);
        }
      } else if (existing.metadata?.deletionTimestamp) {
        errors.push(`pvc ${name} is being deleted`);
      }
    }
    if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
  }

  async createStatefulPod(set: KubeObject, pod: KubeObject): Promise<void> {
    try {
      await this.createClaims(set, pod);
    } catch (err) {
      await this.podEvent('create', set, pod, err);
      throw err;
    }
    let created: KubeObject;
    try {
      created = await this.d.client.create(PODS, set.metadata?.namespace ?? '', pod);
    } catch (err) {
      // Already there (the cache is behind): nothing to report, the next round sees it.
      if (isAlreadyExists(err)) throw err;
      await this.podEvent('create', set, pod, err);
      throw err;
    }
    if (this.d.autoDeletePVC) {
      try {
        await this.updateClaimsForRetentionPolicy(set, created);
      } catch (err) {
        await this.podEvent('update', set, created, err);
        throw err;
      }
    }
    await this.podEvent('create', set, created);
  }

  /** createMissingPersistentVolumeClaims: for a pod still Pending, claims that went missing. */
  async createMissingClaims(set: KubeObject, pod: KubeObject): Promise<void> {
    await this.createClaims(set, pod);
    if (this.d.autoDeletePVC) {
      try {
        await this.updateClaimsForRetentionPolicy(set, pod);
      } catch (err) {
        await this.podEvent('update', set, pod, err);
        throw err;
      }
    }
  }

  /** UpdateStatefulPod: restores the pod's identity, storage and claim references, retrying on conflicts. */
  async updateStatefulPod(set: KubeObject, original: KubeObject): Promise<void> {
    let pod = original;
    let attempted = false;
    let failure: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      failure = undefined;
      let consistent = true;
      try {
        if (!identityMatches(set, pod)) {
          pod = withIdentity(set, pod);
          consistent = false;
        }
        if (!storageMatches(set, pod)) {
          pod = withStorage(set, pod);
          consistent = false;
          await this.createClaims(set, pod);
        }
        if (this.d.autoDeletePVC && !this.claimsMatchRetentionPolicy(set, pod)) {
          await this.updateClaimsForRetentionPolicy(set, pod);
          consistent = false;
        }
        if (consistent) return;
        attempted = true;
        await this.d.client.update(PODS, set.metadata?.namespace ?? '', pod);
        break;
      } catch (err) {
        failure = err;
        if (!isConflict(err)) break;
        try {
          pod = await this.d.client.get(PODS, set.metadata?.namespace ?? '', pod.metadata?.name ?? '');
        } catch {
          break;
        }
      }
    }
    if (attempted) await this.podEvent('update', set, pod, failure);
    if (failure !== undefined) throw failure;
  }

  async deleteStatefulPod(set: KubeObject, pod: KubeObject): Promise<void> {
    try {
      await this.d.client.delete(PODS, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
    } catch (err) {
      await this.podEvent('delete', set, pod, err);
      throw err;
    }
    await this.podEvent('delete', set, pod);
  }

  /** ClaimsMatchRetentionPolicy: every existing claim of the pod has the owner references the policy asks for. */
  claimsMatchRetentionPolicy(set: KubeObject, pod: KubeObject): boolean {
    const ordinal = ordinalOf(pod);
    for (const template of claimTemplates(set)) {
      const claim = this.getClaim(set.metadata?.namespace ?? '', claimName(set, template, ordinal));
      if (claim && !isClaimOwnerUpToDate(claim, set, pod)) return false;
    }
    return true;
  }

  /** UpdatePodClaimForRetentionPolicy: rewrites the owner references of the pod's claims that do not follow the policy. */
  async updateClaimsForRetentionPolicy(set: KubeObject, pod: KubeObject): Promise<void> {
    const ordinal = ordinalOf(pod);
    for (const template of claimTemplates(set)) {
      const name = claimName(set, template, ordinal);
      const claim = this.getClaim(set.metadata?.namespace ?? '', name);
      if (!claim) continue;
      if (hasUnexpectedController(claim, set, pod)) {
        await this.d.recorder.record(this.setRef(set), {
          type: 'Warning',
          reason: 'ConflictingController',
          message: `PersistentVolumeClaim ${name} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim`,
        });
      }
      if (isClaimOwnerUpToDate(claim, set, pod)) continue;
      try {
        this.remember(await this.d.client.update(CLAIMS, claim.metadata?.namespace ?? '', claimWithPolicyRefs(claim, set, pod)));
      } catch (err) {
        if (isNotFound(err)) continue;
        throw new Error(`could not update claim ${name} for delete policy ownerRefs: ${errorMessage(err)}`);
      }
    }
  }

  /** PodClaimIsStale: under whenScaled Delete, a claim still owned by an earlier pod of the same name blocks creation. */
  podClaimIsStale(set: KubeObject, pod: KubeObject): boolean {
    if (retentionPolicy(set).whenScaled === 'Retain') return false;
    for (const claim of podClaims(set, pod).values()) {
      const existing = this.getClaim(claim.metadata?.namespace ?? '', claim.metadata?.name ?? '');
      if (existing && hasStaleOwnerRef(existing, pod, 'v1', 'Pod')) return true;
    }
    return false;
  }
}
