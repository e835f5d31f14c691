// kube's EndpointSlice reconciler: turns the pods of a Service into
// EndpointSlices with as few writes as it can. Endpoints are grouped by the
// set of ports they offer; per group the existing slices keep the endpoints
// still wanted (updated where they changed), slices that were changed are
// filled up first (fullest first), then remaining endpoints go into the
// unchanged slice they fit best or into new slices of at most 100. A slice
// left empty is deleted — but a Service with no endpoints at all keeps one
// empty placeholder slice. Creates that coincide with deletes become
// updates of the slices that would have been deleted. Slices are written
// with the last-change-trigger-time annotation.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { errorMessage, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { Informer } from '../client/informer';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE, rec, arr } from '../workloads';
import { shouldPodBeInEndpoints } from '../endpoints/service-membership';
import { formatRFC3339Nano, LAST_CHANGE_TRIGGER_TIME } from '../endpoints/trigger-time';
import type { EndpointSliceTracker } from './slice-tracker';
import {
  addressTypesOf,
  endpointKey,
  endpointPorts,
  endpointsEqualBeyondHash,
  newEndpointSlice,
  ownedBy,
  podToEndpoint,
  portMapKey,
  sliceLabels,
  type AddressType,
  type SliceEndpoint,
  type SlicePort,
} from './slice-endpoints';

export const ENDPOINT_SLICES: GroupVersionResource = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;

export interface ReconcilerOptions {
  readonly client: ApiClient;
  readonly nodes: Informer;
  readonly tracker: EndpointSliceTracker;
  readonly controllerName: string;
  readonly maxEndpointsPerSlice?: number;
}

/** An insertion-ordered set of endpoints keyed by their identity (kube's EndpointSet). */
class EndpointSet {
  private readonly map = new Map<string, SliceEndpoint>();
  insert(ep: SliceEndpoint): void {
    this.map.set(endpointKey(ep), ep);
  }
  get(ep: unknown): SliceEndpoint | undefined {
    return this.map.get(endpointKey(ep));
  }
  delete(ep: unknown): void {
    this.map.delete(endpointKey(ep));
  }
  get size(): number {
    return this.map.size;
  }
  pop(): SliceEndpoint {
    const [key, ep] = this.map.entries().next().value as [string, SliceEndpoint];
    this.map.delete(key);
    return ep;
  }
}

function endpointsOf(slice: KubeObject): unknown[] {
  return arr(slice['endpoints']);
}

/** Empty endpoints and ports are written as null: kube's storage round-trip turns them into nil lists, which have no omitempty. */
function nullWhenEmpty(slice: KubeObject): void {
  for (const f of ['endpoints', 'ports']) if (Array.isArray(slice[f]) && (slice[f] as unknown[]).length === 0) slice[f] = null;
}

function withTriggerTime(slice: KubeObject, triggerTime: number | undefined): void {
  nullWhenEmpty(slice);
  const annotations = { ...(slice.metadata?.annotations ?? {}) };
  if (triggerTime !== undefined) annotations[LAST_CHANGE_TRIGGER_TIME] = formatRFC3339Nano(triggerTime);
  else delete annotations[LAST_CHANGE_TRIGGER_TIME];
  slice.metadata = { ...slice.metadata, annotations };
}

/** The placeholder's comparison: same namespace, labels and owners. */
function isPlaceholderLike(existing: KubeObject, placeholder: KubeObject): boolean {
  if ((existing.metadata?.namespace ?? '') !== (placeholder.metadata?.namespace ?? '')) return false;
  const a = existing.metadata?.labels ?? {};
  const b = placeholder.metadata?.labels ?? {};
  if (Object.keys(a).length !== Object.keys(b).length || Object.keys(a).some((k) => a[k] !== b[k])) return false;
  const owners = (o: KubeObject) => JSON.stringify((o.metadata?.ownerReferences ?? []).map((r) => [r.apiVersion, r.kind, r.name, r.uid, !!r.controller, !!r.blockOwnerDeletion]));
  return (
    owners(existing) === owners(placeholder) &&
    existing['addressType'] === placeholder['addressType'] &&
    endpointsOf(existing).length === 0 &&
    arr(existing['ports']).length === 0
  );
}

export class EndpointSliceReconciler {
  private readonly max: number;

  constructor(private readonly o: ReconcilerOptions) {
    this.max = o.maxEndpointsPerSlice ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE;
  }

  /** Brings the Service's slices in line with its pods; throws the errors met (joined as kube's aggregate). */
  async reconcile(svc: KubeObject, pods: readonly KubeObject[], existing: readonly KubeObject[], triggerTime: number | undefined): Promise<void> {
    const errors: string[] = [];
    const types = addressTypesOf(svc);
    const toDelete: KubeObject[] = [];
    const byType = new Map<string, KubeObject[]>();
    for (const slice of existing) {
      const t = String(slice['addressType'] ?? '');
      if (!types.has(t as AddressType)) {
        toDelete.push(slice);
        continue;
      }
      byType.set(t, [...(byType.get(t) ?? []), slice]);
    }
    for (const t of types) {
      try {
        await this.reconcileByAddressType(svc, pods, byType.get(t) ?? [], triggerTime, t, errors);
      } catch (err) {
        errors.push(errorMessage(err));
      }
    }
    for (const slice of toDelete) {
      try {
        await this.deleteSlice(svc, slice);
      } catch (err) {
        errors.push(`error deleting ${slice.metadata?.name ?? ''} EndpointSlice for Service ${svc.metadata?.namespace}/${svc.metadata?.name}: ${errorMessage(err)}`);
      }
    }
    if (errors.length === 1) throw new Error(errors[0]);
    if (errors.length > 1) throw new Error(`[${errors.join(', ')}]`);
  }

  private async deleteSlice(svc: KubeObject, slice: KubeObject): Promise<void> {
    try {
      await this.o.client.delete(ENDPOINT_SLICES, svc.metadata?.namespace ?? '', slice.metadata?.name ?? '');
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    this.o.tracker.expectDeletion(slice);
  }

  private async reconcileByAddressType(svc: KubeObject, pods: readonly KubeObject[], existing: KubeObject[], triggerTime: number | undefined, addressType: AddressType, errors: string[]): Promise<void> {
    const ns = svc.metadata?.namespace ?? '';
    const name = svc.metadata?.name ?? '';
    let toCreate: KubeObject[] = [];
    let toUpdate: KubeObject[] = [];
    let toDelete: KubeObject[] = [];

    const existingByPorts = new Map<string, KubeObject[]>();
    for (const slice of existing) {
      if (ownedBy(slice, svc)) {
        const k = portMapKey(slice['ports']);
        existingByPorts.set(k, [...(existingByPorts.get(k) ?? []), slice]);
      } else toDelete.push(slice);
    }

    const desiredPorts = new Map<string, SlicePort[]>();
    const desired = new Map<string, EndpointSet>();
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      const ports = endpointPorts(svc, pod);
      const k = portMapKey(ports);
      if (!desired.has(k)) desired.set(k, new EndpointSet());
      if (!desiredPorts.has(k)) desiredPorts.set(k, ports);
      const nodeName = String(rec(pod.spec).nodeName ?? '');
      const node = this.o.nodes.get('', nodeName);
      if (!node && rec(svc.spec).publishNotReadyAddresses !== true) {
        // A pod on a node that does not exist is left out (and the Service retried), unless not-ready addresses are published.
        errors.push(`skipping Pod ${pod.metadata?.name ?? ''} for Service ${ns}/${name}: Node ${nodeName} Not Found`);
        continue;
      }
      const ep = podToEndpoint(pod, node, svc, addressType);
      if (ep.addresses.length > 0) desired.get(k)!.insert(ep);
    }

    for (const [k, set] of desired) {
      const r = this.reconcileByPortMapping(svc, existingByPorts.get(k) ?? [], set, desiredPorts.get(k)!, addressType);
      toCreate.push(...r.create);
      toUpdate.push(...r.update);
      toDelete.push(...r.remove);
    }
    for (const [k, slices] of existingByPorts) if (!desired.has(k)) toDelete.push(...slices);

    // No endpoints at all: one empty placeholder slice stays.
    if (existing.length === toDelete.length && toCreate.length < 1) {
      const placeholder = newEndpointSlice(svc, [], addressType, this.o.controllerName);
      if (toDelete.length === 1 && isPlaceholderLike(toDelete[0]!, placeholder)) toDelete = [];
      else toCreate.push(placeholder);
    }

    // Recycle: a slice that would be deleted is updated into one that would be created.
    for (let i = 0; i < toDelete.length && toCreate.length > 0; ) {
      const doomed = toDelete[i]!;
      const fresh = toCreate[toCreate.length - 1]!;
      if (doomed['addressType'] === fresh['addressType'] && ownedBy(doomed, svc)) {
        const recycled: KubeObject = { ...fresh, metadata: { ...fresh.metadata, name: doomed.metadata?.name } };
        toCreate = toCreate.slice(0, -1);
        toUpdate = [...toUpdate, recycled];
        toDelete.splice(i, 1);
      } else i++;
    }

    // Hints are not kept: KubeTab does not do topology-aware routing.
    for (const s of [...toCreate, ...toUpdate]) for (const ep of endpointsOf(s)) delete (ep as Record<string, unknown>)['hints'];

    if (!svc.metadata?.deletionTimestamp) {
      for (const slice of toCreate) {
        withTriggerTime(slice, triggerTime);
        try {
          const created = await this.o.client.create(ENDPOINT_SLICES, ns, slice);
          this.o.tracker.update(created);
        } catch (err) {
          if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
          throw new Error(`failed to create EndpointSlice for Service ${ns}/${name}: ${errorMessage(err)}`);
        }
      }
    }
    for (const slice of toUpdate) {
      withTriggerTime(slice, triggerTime);
      try {
        const updated = await this.o.client.update(ENDPOINT_SLICES, ns, slice);
        this.o.tracker.update(updated);
      } catch (err) {
        throw new Error(`failed to update ${slice.metadata?.name ?? ''} EndpointSlice for Service ${ns}/${name}: ${errorMessage(err)}`);
      }
    }
    for (const slice of toDelete) {
      try {
        await this.deleteSlice(svc, slice);
      } catch (err) {
        throw new Error(`failed to delete ${slice.metadata?.name ?? ''} EndpointSlice for Service ${ns}/${name}: ${errorMessage(err)}`);
      }
    }
  }

  private reconcileByPortMapping(
    svc: KubeObject,
    existing: KubeObject[],
    desired: EndpointSet,
    ports: SlicePort[],
    addressType: AddressType,
  ): { create: KubeObject[]; update: KubeObject[]; remove: KubeObject[] } {
    const byName = new Map<string, KubeObject>();
    const unchanged = new Set<string>();
    const toUpdate = new Set<string>();
    const toDelete = new Set<string>();

    // 1. Keep what is still wanted in each existing slice, updating what changed.
    for (const slice of existing) {
      const sliceName = slice.metadata?.name ?? '';
      byName.set(sliceName, slice);
      const kept: SliceEndpoint[] = [];
      let updated = false;
      for (const ep of endpointsOf(slice)) {
        const got = desired.get(ep);
        if (!got) continue;
        kept.push(got);
        if (!endpointsEqualBeyondHash(got, ep)) updated = true;
        desired.delete(ep);
      }
      const { labels, changed } = sliceLabels(slice, svc, this.o.controllerName);
      if (updated || endpointsOf(slice).length !== kept.length) {
        if (kept.length === 0) toDelete.add(sliceName);
        else {
          byName.set(sliceName, { ...structuredClone(slice), endpoints: kept, metadata: { ...structuredClone(slice.metadata), labels } });
          toUpdate.add(sliceName);
        }
      } else if (changed) {
        byName.set(sliceName, { ...structuredClone(slice), metadata: { ...structuredClone(slice.metadata), labels } });
        toUpdate.add(sliceName);
      } else unchanged.add(sliceName);
    }

    // 2. Fill the slices being updated, fullest first.
    if (desired.size > 0 && toUpdate.size > 0) {
      const slices = [...toUpdate].map((n) => byName.get(n)!).sort((a, b) => endpointsOf(b).length - endpointsOf(a).length);
      for (const slice of slices) {
        const eps = endpointsOf(slice);
        while (desired.size > 0 && eps.length < this.max) eps.push(desired.pop());
        slice['endpoints'] = eps;
      }
    }

    // 3. The rest into the unchanged slice that fits them best, or new slices.
    const create: KubeObject[] = [];
    while (desired.size > 0) {
      let fill: KubeObject | undefined;
      if (desired.size < this.max && unchanged.size > 0) {
        let closest = this.max;
        for (const n of unchanged) {
          const s = byName.get(n)!;
          const diff = this.max - (desired.size + endpointsOf(s).length);
          if (diff >= 0 && diff < closest) {
            closest = diff;
            fill = s;
            if (diff === 0) break;
          }
        }
      }
      if (!fill) fill = newEndpointSlice(svc, ports, addressType, this.o.controllerName);
      else {
        fill = structuredClone(fill);
        byName.set(fill.metadata?.name ?? '', fill);
      }
      const eps = endpointsOf(fill) as SliceEndpoint[];
      while (desired.size > 0 && eps.length < this.max) eps.push(desired.pop());
      fill['endpoints'] = eps;
      if (fill.metadata?.name) {
        toUpdate.add(fill.metadata.name);
        unchanged.delete(fill.metadata.name);
      } else create.push(fill);
    }
    return { create, update: [...toUpdate].map((n) => byName.get(n)!), remove: [...toDelete].map((n) => byName.get(n)!) };
  }
}
