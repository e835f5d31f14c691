// kube's EndpointSlice mirroring reconciler: the Endpoints object of a
// Service without selector, written by a user, copied into EndpointSlices
// managed by endpointslicemirroring-controller.k8s.io. Each set of ports of
// each address family becomes one slice (at most 1000 addresses of a subset
// are mirrored), carrying the Endpoints' labels and annotations (but the
// trigger time and kubectl's last-applied configuration) and owned by the
// Endpoints object. Ready addresses are ready endpoints, not-ready ones
// not; invalid IPs are skipped with an InvalidIPAddress event.

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { errorMessage } from '../client/api-error';
import type { EventRecorder } from '../runtime/event-recorder';
import { arr, hasStatusCause, NAMESPACE_TERMINATING_CAUSE, rec } from '../workloads';
import { ENDPOINT_SLICES } from '../endpointslice/reconciler';
import { endpointKey, endpointsEqualBeyondHash, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, portMapKey, slicePrefix, type AddressType, type SliceEndpoint, type SlicePort } from '../endpointslice/slice-endpoints';
import type { EndpointSliceTracker } from '../endpointslice/slice-tracker';
import { LAST_CHANGE_TRIGGER_TIME } from '../endpoints/trigger-time';

export const MIRRORING_CONTROLLER_NAME = 'endpointslicemirroring-controller.k8s.io';
export const DEFAULT_MAX_ENDPOINTS_PER_SUBSET = 1000;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$/;

/** addressToEndpoint: the endpoint and address family of an Endpoints address, or undefined for an invalid IP. */
export function addressToEndpoint(address: Record<string, unknown>, ready: boolean): { endpoint: SliceEndpoint; addressType: AddressType } | undefined {
  const ip = typeof address.ip === 'string' ? address.ip : '';
  let addressType: AddressType;
  if (IPV4.test(ip)) addressType = 'IPv4';
  else if (IPV6.test(ip)) addressType = 'IPv6';
  else return undefined;
  const endpoint: SliceEndpoint = { addresses: [addressType === 'IPv6' ? ip.toLowerCase() : ip], conditions: { ready } };
  if (address.targetRef) endpoint.targetRef = structuredClone(rec(address.targetRef)) as SliceEndpoint['targetRef'];
  if (typeof address.nodeName === 'string') endpoint.nodeName = address.nodeName;
  if (typeof address.hostname === 'string' && address.hostname) endpoint.hostname = address.hostname;
  return { endpoint, addressType };
}

/** epPortsToEpsPorts. */
function slicePorts(ports: unknown): SlicePort[] {
  return arr(ports).map((p) => {
    const x = rec(p);
    const out: SlicePort = { name: typeof x.name === 'string' ? x.name : '', port: typeof x.port === 'number' ? x.port : 0, protocol: typeof x.protocol === 'string' ? x.protocol : 'TCP' };
    if (typeof x.appProtocol === 'string') out.appProtocol = x.appProtocol;
    return out;
  });
}

function without(map: Record<string, string> | undefined, ...keys: string[]): Record<string, string> {
  const out = { ...(map ?? {}) };
  for (const k of keys) delete out[k];
  return out;
}

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** newEndpointSlice of the mirroring controller. */
export function mirroredSlice(endpoints: KubeObject, ports: SlicePort[], addressType: AddressType, name: string | undefined): KubeObject {
  const labels: Record<string, string> = { ...(endpoints.metadata?.labels ?? {}) };
  labels[LABEL_SERVICE_NAME] = endpoints.metadata?.name ?? '';
  labels[LABEL_MANAGED_BY] = MIRRORING_CONTROLLER_NAME;
  const annotations = without(endpoints.metadata?.annotations, LAST_CHANGE_TRIGGER_TIME, LAST_APPLIED);
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      ...(name ? { name } : { generateName: slicePrefix(endpoints.metadata?.name ?? '') }),
      namespace: endpoints.metadata?.namespace ?? '',
      labels,
      annotations,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Endpoints', name: endpoints.metadata?.name ?? '', uid: endpoints.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    addressType,
    endpoints: [],
    ports,
  };
}

interface Desired {
  ports: SlicePort[];
  addressType: AddressType;
  endpoints: Map<string, SliceEndpoint>;
}

export class MirroringReconciler {
  constructor(
    private readonly client: ApiClient,
    private readonly tracker: EndpointSliceTracker,
    private readonly recorder: EventRecorder,
    private readonly maxPerSubset = DEFAULT_MAX_ENDPOINTS_PER_SUBSET,
  ) {}

  async reconcile(endpoints: KubeObject, existing: readonly KubeObject[]): Promise<void> {
    const desired = new Map<string, Desired>();
    let invalid = 0;
    let skipped = 0;
    for (const s of arr(endpoints['subsets'])) {
      const subset = rec(s);
      const ports = slicePorts(subset.ports);
      const keys: Record<AddressType, string> = { IPv4: `IPv4${portMapKey(ports)}`, IPv6: `IPv6${portMapKey(ports)}` };
      for (const t of ['IPv4', 'IPv6'] as const) if (!desired.has(keys[t])) desired.set(keys[t], { ports, addressType: t, endpoints: new Map() });
      const all = [...arr(subset.addresses).map((a) => [a, true] as const), ...arr(subset.notReadyAddresses).map((a) => [a, false] as const)];
      let added = 0;
      for (const [a, ready] of all) {
        if (added >= this.maxPerSubset) break;
        const converted = addressToEndpoint(rec(a), ready);
        if (!converted) {
          invalid++;
          continue;
        }
        desired.get(keys[converted.addressType])!.endpoints.set(endpointKey(converted.endpoint), converted.endpoint);
        added++;
      }
      skipped += all.length - added;
    }
    const regarding = { ...endpoints, apiVersion: 'v1', kind: 'Endpoints' };
    if (invalid > 0) void this.recorder.record(regarding, { type: 'Warning', reason: 'InvalidIPAddress', message: `Skipped ${invalid} invalid IP addresses when mirroring to EndpointSlices` });
    if (skipped > invalid) {
      void this.recorder.record(regarding, {
        type: 'Warning',
        reason: 'TooManyAddressesToMirror',
        message: `A max of ${this.maxPerSubset} addresses can be mirrored to EndpointSlices per Endpoints subset. ${skipped} addresses were skipped`,
      });
    }

    const existingByKey = new Map<string, KubeObject[]>();
    for (const slice of existing) {
      const k = `${String(slice['addressType'])}${portMapKey(slice['ports'])}`;
      existingByKey.set(k, [...(existingByKey.get(k) ?? []), slice]);
    }
    let toCreate: KubeObject[] = [];
    const toUpdate: KubeObject[] = [];
    const toDelete: KubeObject[] = [];
    for (const [k, d] of desired) {
      const slices = existingByKey.get(k) ?? [];
      if (d.endpoints.size === 0) {
        toDelete.push(...slices);
        continue;
      }
      if (slices.length > 0) {
        toDelete.push(...slices.slice(1));
        if (this.matches(slices[0]!, d, endpoints)) continue;
      }
      const slice = mirroredSlice(endpoints, d.ports, d.addressType, slices[0]?.metadata?.name);
      slice['endpoints'] = [...d.endpoints.values()].slice(0, this.maxPerSubset);
      if (slice.metadata?.name) toUpdate.push(slice);
      else toCreate.push(slice);
    }
    for (const [k, slices] of existingByKey) if (!desired.has(k)) toDelete.push(...slices);

    // recycleSlices: creates become updates of slices that would be deleted.
    while (toCreate.length > 0 && toDelete.length > 0) {
      const doomed = toDelete.pop()!;
      const fresh = toCreate[toCreate.length - 1]!;
      toCreate = toCreate.slice(0, -1);
      const meta = { ...fresh.metadata, name: doomed.metadata?.name };
      delete meta.generateName;
      toUpdate.push({ ...fresh, metadata: meta });
    }
    await this.finalize(endpoints, toCreate, toUpdate, toDelete);
  }

  /** Whether the slice already mirrors these endpoints, labels and annotations. */
  private matches(slice: KubeObject, d: Desired, endpoints: KubeObject): boolean {
    const existing = arr(slice['endpoints']);
    let matched = 0;
    for (const ep of existing) {
      const got = d.endpoints.get(endpointKey(ep));
      if (!got || !endpointsEqualBeyondHash(got, ep)) return false;
      matched++;
    }
    if (matched !== d.endpoints.size) return false;
    const labels = without(slice.metadata?.labels, LABEL_SERVICE_NAME, LABEL_MANAGED_BY);
    const annotations = without(endpoints.metadata?.annotations, LAST_CHANGE_TRIGGER_TIME, LAST_APPLIED);
    return sameMap(endpoints.metadata?.labels ?? {}, labels) && sameMap(annotations, slice.metadata?.annotations ?? {});
  }

  private async finalize(endpoints: KubeObject, toCreate: KubeObject[], toUpdate: KubeObject[], toDelete: KubeObject[]): Promise<void> {
    const ns = endpoints.metadata?.namespace ?? '';
    const name = endpoints.metadata?.name ?? '';
    if (!endpoints.metadata?.deletionTimestamp) {
      for (const slice of toCreate) {
        try {
          this.tracker.update(await this.client.create(ENDPOINT_SLICES, ns, slice));
        } catch (err) {
          if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
          throw new Error(`failed to create EndpointSlice for Endpoints ${ns}/${name}: ${errorMessage(err)}`);
        }
      }
    }
    for (const slice of toUpdate) {
      try {
        this.tracker.update(await this.client.update(ENDPOINT_SLICES, ns, slice));
      } catch (err) {
        throw new Error(`failed to update ${slice.metadata?.name ?? ''} EndpointSlice for Endpoints ${ns}/${name}: ${errorMessage(err)}`);
      }
    }
    for (const slice of toDelete) {
      try {
        await this.client.delete(ENDPOINT_SLICES, ns, slice.metadata?.name ?? '');
      } catch (err) {
        throw new Error(`failed to delete ${slice.metadata?.name ?? ''} EndpointSlice for Endpoints ${ns}/${name}: ${errorMessage(err)}`);
      }
      this.tracker.expectDeletion(slice);
    }
  }

  /** deleteEndpoints: removes every mirrored slice of an Endpoints object. */
  async deleteAll(namespace: string, name: string, slices: readonly KubeObject[]): Promise<void> {
    const errors: string[] = [];
    for (const slice of slices) {
      try {
        await this.client.delete(ENDPOINT_SLICES, namespace, slice.metadata?.name ?? '');
      } catch (err) {
        errors.push(errorMessage(err));
      }
    }
    if (errors.length > 0) throw new Error(`Error(s) deleting ${errors.length}/${slices.length} EndpointSlices for ${namespace}/${name} Endpoints, including: ${errors[0]}`);
  }
}
