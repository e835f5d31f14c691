// kube-apiserver's own start-up objects, created through the API once and
// idempotently (an object already there is left as it is): the `kubernetes`
// Service with its Endpoints and EndpointSlice (put back when deleted, as
// the apiserver's reconcilers do), the system PriorityClasses, the default
// APF configuration, and the apiserver identity Lease (renewed on a timer).
// Kinds the server does not serve are skipped with a log line.

import type { KubeObject } from '../../kinds/types';
import { errorMessage, isAlreadyExists, isConflict, isNotFound } from '../client/api-error';
import { discoverResources, type DiscoveredResource } from '../client/discovery';
import { parseApiVersion, type GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { isNamespaceTerminating } from '../runtime/namespaces';
import { WorkQueue } from '../runtime/work-queue';
import type { TimerHandle } from '../../util/clock-timers';
import { apiServerIdentity, identityLease, LEASE_DURATION_SECONDS, LEASE_RENEW_INTERVAL_MS } from './apiserver-lease';
import { kubernetesEndpoints, kubernetesEndpointSlice, kubernetesService, SYSTEM_PRIORITY_CLASSES, type ApiServerEndpoint } from './cluster-objects';
import { ENDPOINT_RECONCILER_INTERVAL_MS, MASTER_LEASE_TTL_SECONDS, type MasterLeases } from './master-leases';
import { FLOW_SCHEMAS, PRIORITY_LEVEL_CONFIGURATIONS } from './flowcontrol-defaults';

export const BOOTSTRAP_CONTROLLER = 'kube-apiserver-bootstrap';

export interface BootstrapOptions extends Partial<ApiServerEndpoint> {
  /** Host name behind the identity Lease's name (default 'kubetab'). */
  readonly hostname?: string;
  /**
   * What the identity Lease's name hashes (default the host name). kube hashes the host name alone;
   * several servers on one host give their host name and port, so that each has its own Lease.
   */
  readonly identity?: string;
  /** How often the identity Lease is renewed (default 10 s; 0 never renews). */
  readonly leaseRenewIntervalMs?: number;
  /** Shared records of the live servers' addresses (servers on one etcd); absent: the endpoints list this server alone. */
  readonly masterLeases?: MasterLeases;
}

export const DEFAULT_ENDPOINT: ApiServerEndpoint = { serviceClusterIP: '10.96.0.1', advertiseAddress: '172.18.0.2', securePort: 6443 };

/** The objects to create, in order (namespaced ones say their namespace in metadata). */
export function bootstrapObjects(endpoint: ApiServerEndpoint): KubeObject[] {
  return [
    kubernetesService(endpoint),
    kubernetesEndpoints(endpoint),
    kubernetesEndpointSlice(endpoint),
    ...SYSTEM_PRIORITY_CLASSES,
    ...PRIORITY_LEVEL_CONFIGURATIONS,
    ...FLOW_SCHEMAS,
  ];
}

function servedResource(resources: readonly DiscoveredResource[], obj: KubeObject): DiscoveredResource | undefined {
  const { group, version } = parseApiVersion(obj.apiVersion ?? '');
  return resources.find((r) => r.group === group && r.version === version && r.kind === obj.kind && !r.resource.includes('/'));
}

export function bootstrapController(ctx: ControllerContext, options: BootstrapOptions = {}): Controller {
  const endpoint: ApiServerEndpoint = { ...DEFAULT_ENDPOINT, ...options };
  const hostname = options.hostname ?? 'kubetab';
  const identity = options.identity ?? hostname;
  const renewEvery = options.leaseRenewIntervalMs ?? LEASE_RENEW_INTERVAL_MS;
  const masterLeases = options.masterLeases;
  // Simulated time: the Clock's timers.
  let gcTimer: TimerHandle | undefined;
  let reconcileTimer: TimerHandle | undefined;
  const objects = bootstrapObjects(endpoint);
  const watched: (() => void)[] = [];
  let renewTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  async function ensure(r: GroupVersionResource, obj: KubeObject): Promise<void> {
    const namespace = obj.metadata?.namespace ?? '';
    // Read first, as kube-apiserver's bootstrap controller does: a create of an existing
    // Service fails its IP allocation (422) before it could fail as AlreadyExists.
    try {
      await ctx.client.get(r, namespace, obj.metadata?.name ?? '');
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await ctx.client.create(r, namespace, obj);
    } catch (err) {
      if (isAlreadyExists(err) || isNamespaceTerminating(err)) return;
      throw err;
    }
  }

  // One discovery serves a whole round of creates; the lease renewal reads it again.
  let discovery: Promise<readonly DiscoveredResource[]> | undefined;
  const served = () =>
    (discovery ??= discoverResources(ctx.client).then(
      (d) => d.resources,
      (err) => {
        discovery = undefined;
        throw err;
      },
    ));

  /** Keys are "<index>" into `objects`, "lease", "lease-gc" or "endpoints". */
  const queue = new WorkQueue(BOOTSTRAP_CONTROLLER, ctx.activity, async (key) => {
    if (key === 'lease') discovery = undefined;
    const resources = await served();
    if (key === 'lease') return ensureLease(resources);
    if (key === 'lease-gc') return collectExpiredLeases(resources);
    if (key === 'endpoints') return reconcileEndpoints(resources, true);
    const obj = objects[Number(key)]!;
    const r = servedResource(resources, obj);
    if (!r) {
      ctx.log(`skipping ${obj.kind} ${obj.metadata?.name}: ${obj.apiVersion} ${obj.kind} is not served`);
      return;
    }
    await ensure(r, obj);
  }, ctx.log);

  let leaseName: string | undefined;
  let holder: string | undefined;
  async function ensureLease(resources: readonly DiscoveredResource[]): Promise<void> {
    const r = resources.find((x) => x.group === 'coordination.k8s.io' && x.version === 'v1' && x.resource === 'leases');
    if (!r) {
      ctx.log('skipping the kube-apiserver identity Lease: coordination.k8s.io/v1 leases are not served');
      return;
    }
    leaseName ??= await apiServerIdentity(identity);
    holder ??= `${leaseName}_${crypto.randomUUID()}`;
    const wanted = identityLease(leaseName, hostname, holder, ctx.clock.now());
    let current: KubeObject | undefined;
    try {
      current = await ctx.client.get(r, 'kube-system', leaseName);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    if (!current) return ensure(r, wanted);
    await ctx.client.update(r, 'kube-system', { ...current, spec: { ...(current['spec'] as object), ...(wanted['spec'] as object) } });
  }

  // kube-apiserver's apiserver lease garbage collector: identity Leases (of servers gone) whose
  // renewTime is more than their duration ago are deleted, checked once per lease duration.
  async function collectExpiredLeases(resources: readonly DiscoveredResource[]): Promise<void> {
    const r = resources.find((x) => x.group === 'coordination.k8s.io' && x.version === 'v1' && x.resource === 'leases');
    if (!r) return;
    const list = await ctx.client.list(r, 'kube-system', { labelSelector: 'apiserver.kubernetes.io/identity=kube-apiserver' });
    for (const lease of list.items) {
      const spec = (lease['spec'] ?? {}) as { renewTime?: string; leaseDurationSeconds?: number };
      if (!spec.renewTime || spec.leaseDurationSeconds === undefined) continue;
      if (Date.parse(spec.renewTime) + spec.leaseDurationSeconds * 1000 >= ctx.clock.now()) continue;
      try {
        await ctx.client.delete(r, 'kube-system', lease.metadata?.name ?? '', { preconditions: { resourceVersion: lease.metadata?.resourceVersion } });
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    }
  }

  // kube's lease endpoint reconciler: renew this server's record, then make the `kubernetes`
  // Endpoints and EndpointSlice list every live server's address (sorted), with this server's port.
  async function reconcileEndpoints(resources: readonly DiscoveredResource[], renew: boolean): Promise<void> {
    if (!masterLeases) return;
    if (renew) await masterLeases.update(endpoint.advertiseAddress, MASTER_LEASE_TTL_SECONDS);
    const live = new Set(await masterLeases.list());
    if (renew) live.add(endpoint.advertiseAddress);
    const addresses = [...live].sort();
    // The last server to go leaves the endpoints as they are (kube refuses to erase every address).
    if (addresses.length === 0) return;
    for (const wanted of [kubernetesEndpoints(endpoint, addresses), kubernetesEndpointSlice(endpoint, addresses)]) {
      const r = servedResource(resources, wanted);
      if (!r) continue;
      let current: KubeObject | undefined;
      try {
        current = await ctx.client.get(r, 'default', 'kubernetes');
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (!current) {
        await ensure(r, wanted);
        continue;
      }
      const { apiVersion: _a, kind: _k, metadata: _m, ...content } = wanted;
      const { apiVersion: _ca, kind: _ck, metadata: _cm, ...currentContent } = current;
      const same = Object.keys(content).every((k) => JSON.stringify(currentContent[k]) === JSON.stringify(content[k]));
      if (same) continue;
      await ctx.client.update(r, 'default', { ...current, ...content });
    }
  }

  function scheduleReconcile(): void {
    if (stopped || !masterLeases) return;
    reconcileTimer = ctx.timers.after(ENDPOINT_RECONCILER_INTERVAL_MS, () => {
      queue.add('endpoints');
      scheduleReconcile();
    });
  }

  function scheduleGc(): void {
    if (stopped || renewEvery <= 0) return;
    gcTimer = ctx.timers.after(LEASE_DURATION_SECONDS * 1000, () => {
      queue.add('lease-gc');
      scheduleGc();
    });
  }

  function scheduleRenewal(): void {
    if (stopped || renewEvery <= 0) return;
    renewTimer = setTimeout(() => {
      queue.add('lease');
      scheduleRenewal();
    }, renewEvery);
  }

  return {
    name: BOOTSTRAP_CONTROLLER,
    start() {
      objects.forEach((_, i) => queue.add(String(i)));
      queue.add('lease');
      scheduleRenewal();
      scheduleGc();
      if (masterLeases) {
        queue.add('endpoints');
        scheduleReconcile();
      }
      // The apiserver's reconcilers put the kubernetes Service and its endpoints back when they go.
      const reconciled: [string, number][] = [['services', 0], ['endpoints', 1], ['endpointslices', 2]];
      void served()
        .then((resources) => {
          if (stopped) return;
          for (const [resource, index] of reconciled) {
            const r = servedResource(resources, objects[index]!);
            if (!r || r.resource !== resource) continue;
            watched.push(
              ctx.informers.for(r, true).addHandler({
                onDelete: (obj) => {
                  if (obj.metadata?.namespace === 'default' && obj.metadata?.name === 'kubernetes') queue.add(String(index));
                },
              }),
            );
          }
        })
        .catch((err) => ctx.log(`discovery failed: ${errorMessage(err)}`));
    },
    async stop() {
      stopped = true;
      clearTimeout(renewTimer);
      ctx.timers.cancel(gcTimer);
      ctx.timers.cancel(reconcileTimer);
      // A server shutting down removes its address at once (kube's RemoveEndpoints), so clients stop being sent to it.
      if (masterLeases) {
        try {
          await masterLeases.remove(endpoint.advertiseAddress);
          await reconcileEndpoints(await served(), false);
        } catch (err) {
          ctx.log(`removing this server from the kubernetes endpoints: ${errorMessage(err)}`);
        }
      }
      for (const u of watched.splice(0)) u();
      await queue.stop();
    },
  };
}
