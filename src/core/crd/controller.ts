// The CRD controllers kube-apiserver runs for apiextensions, inside the core:
// naming (acceptedNames, NamesAccepted), establishing (Established), the
// finalizer (deleting every custom resource of a deleted CRD, then letting it
// go), and serving (each Established CRD becomes ResourceDefinitions in the
// registry; a removed CRD stops being served).
//
// It reacts to the store's watch on the CRD prefix — no polling — and, while
// a deleted CRD waits for custom resources that have finalizers, to the watch
// on that resource's prefix. Work is serialised: one reconcile pass at a time,
// another pass queued when anything changes meanwhile. Status writes go
// through the same update path as a client's /status write, so they get new
// resourceVersions and watch events like on a real server.

import { rfc3339 } from '../clock';
import { isStatusError } from '../errors/status';
import type { KubeObject, ResourceDefinition } from '../kinds/types';
import { deepEqual } from '../kinds/validation/deep-equal';
import type { ServerContext } from '../api/context';
import { managedFieldsHook } from '../api/field-management';
import type { ServedResource } from '../api/registry';
import { deleteObject, updateObject } from '../api/resource-store';
import { resourcePrefix } from '../api/storage-keys';
import type { WatchHandle } from '../storage/types';
import { conditionEquivalent, ESTABLISHED, findCondition, isConditionTrue, NAMES_ACCEPTED, setCondition, TERMINATING } from './conditions';
import { cleanupDone } from './crd-resource';
import { calculateNames, ESTABLISHED_TRUE } from './naming';
import { servedDefinitionsFor } from './served-resources';
import { APIEXTENSIONS_GROUP, CLEANUP_FINALIZER, CRD_RESOURCE, type CustomResourceDefinition } from './types';

/** Stored CRDs, like every built-in kind, are kept without kind and apiVersion. */
const CRD_TYPE_META = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };

/** The field manager kube-apiserver's own controllers write CRD status as. */
const MANAGER = 'kube-apiserver';
const CRD_PREFIX = resourcePrefix({ group: APIEXTENSIONS_GROUP, resource: CRD_RESOURCE });

export interface CustomResourceController {
  /** Resolves when every change seen so far has been reconciled. */
  idle(): Promise<void>;
  stop(): void;
}

function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

/** A ServedResource for a definition the registry may not serve (yet or any more), at its storage version. */
function servedAtStorage(definition: ResourceDefinition): ServedResource {
  const storage = definition.versions.find((v) => v.storage) ?? definition.versions[0]!;
  return {
    definition,
    version: storage,
    group: definition.group,
    apiVersion: `${definition.group}/${storage.name}`,
    storageVersion: storage.name,
    groupResource: { group: definition.group, resource: definition.plural },
  };
}

/**
 * Starts the controller. `builtins` are the built-in definitions (their names
 * count as taken within their group). Call after the store is ready.
 */
export function startCustomResourceController(ctx: ServerContext, builtins: readonly ResourceDefinition[]): CustomResourceController {
  let stopped = false;
  let running: Promise<void> | undefined;
  let dirty = false;
  let watch: WatchHandle | undefined;
  const instanceWatches = new Map<string, WatchHandle>();
  let servedKey = '';
  const log = (message: string) => console.warn(`[apiextensions] ${message}`);

  const crdServed = (): ServedResource | undefined => ctx.registry.lookup(APIEXTENSIONS_GROUP, 'v1', CRD_RESOURCE);

  async function listCrds(): Promise<{ crds: CustomResourceDefinition[]; revision: number }> {
    const range = await ctx.store.range({ prefix: CRD_PREFIX });
    return { crds: range.kvs.map((kv) => ctx.decodeCache.decode(kv, CRD_TYPE_META) as CustomResourceDefinition), revision: range.revision };
  }

  /** A /status write of one CRD: `mutate` edits a copy of the current object; false when the CRD is gone. */
  async function writeStatus(name: string, mutate: (crd: CustomResourceDefinition) => void): Promise<boolean> {
    const served = crdServed();
    if (!served) return false;
    try {
      await updateObject(
        ctx,
        served,
        '',
        name,
        {
          allowCreate: false,
          transform: async (current) => {
            if (!current) throw new Error('gone');
            const next = clone(current) as CustomResourceDefinition;
            mutate(next);
            return next as KubeObject;
          },
        },
        { dryRun: false, subresource: 'status', beforeValidate: managedFieldsHook(ctx, served, MANAGER, 'status') },
      );
      return true;
    } catch (err) {
      if (isStatusError(err) && (err.code === 404 || err.code === 409)) return false;
      if (err instanceof Error && err.message === 'gone') return false;
      throw err;
    }
  }

  const now = () => rfc3339(ctx.clock.now());

  /** Naming controller: accepted names and NamesAccepted; true when it wrote. */
  async function reconcileNames(crd: CustomResourceDefinition, all: CustomResourceDefinition[]): Promise<boolean> {
    if (deepEqual(crd.spec?.names ?? {}, crd.status?.acceptedNames ?? {})) return false;
    const result = calculateNames(crd, all, builtins);
    if (deepEqual(crd.status?.acceptedNames ?? {}, result.acceptedNames) && conditionEquivalent(result.namesAccepted, findCondition(crd, NAMES_ACCEPTED))) {
      return false;
    }
    return writeStatus(crd.metadata?.name ?? '', (next) => {
      next.status = next.status ?? {};
      next.status.acceptedNames = result.acceptedNames;
      setCondition(next, result.namesAccepted, now());
      setCondition(next, result.established, now());
    });
  }

  /** Establishing controller: Established once the names are accepted. */
  async function reconcileEstablished(crd: CustomResourceDefinition): Promise<boolean> {
    if (!isConditionTrue(crd, NAMES_ACCEPTED) || isConditionTrue(crd, ESTABLISHED)) return false;
    return writeStatus(crd.metadata?.name ?? '', (next) => setCondition(next, ESTABLISHED_TRUE, now()));
  }

  function watchInstances(crd: CustomResourceDefinition, prefix: string): void {
    const name = crd.metadata?.name ?? '';
    if (instanceWatches.has(name)) return;
    instanceWatches.set(
      name,
      ctx.store.watch(
        { prefix, afterRevision: ctx.store.currentRevision() },
        {
          onEvent: (event) => {
            if (event.type === 'delete') kick();
          },
        },
      ),
    );
  }

  function unwatchInstances(name: string): void {
    instanceWatches.get(name)?.cancel();
    instanceWatches.delete(name);
  }

  /** Finalizer controller: delete the custom resources, then let the CRD go. */
  async function reconcileDeletion(crd: CustomResourceDefinition): Promise<boolean> {
    const meta = crd.metadata ?? {};
    const name = meta.name ?? '';
    if (!meta.deletionTimestamp || cleanupDone(crd)) return false;
    const terminating = findCondition(crd, TERMINATING);
    if (terminating?.reason !== 'InstanceDeletionInProgress') {
      return writeStatus(name, (next) =>
        setCondition(next, { type: TERMINATING, status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }, now()),
      );
    }
    let final = { type: TERMINATING, status: 'False' as const, reason: 'NeverEstablished', message: 'resource was never established' };
    if (isConditionTrue(crd, ESTABLISHED)) {
      const definition = servedDefinitionsFor(crd)[0];
      if (definition) {
        const served = servedAtStorage(definition);
        const prefix = resourcePrefix({ group: definition.group, resource: definition.plural });
        const remaining = await deleteInstances(served, prefix);
        if (remaining > 0) {
          // Instances with finalizers: wait for their deletion events.
          watchInstances(crd, prefix);
          return false;
        }
      }
      final = { type: TERMINATING, status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
    }
    unwatchInstances(name);
    return writeStatus(name, (next) => {
      setCondition(next, final, now());
      const finalizers = (next.metadata?.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
      next.metadata = { ...(next.metadata ?? {}), finalizers };
    });
  }

  /** Deletes every stored instance (finalizers respected); returns how many remain. */
  async function deleteInstances(served: ServedResource, prefix: string): Promise<number> {
    const range = await ctx.store.range({ prefix });
    for (const kv of range.kvs) {
      const obj = ctx.decodeCache.decode(kv, CRD_TYPE_META);
      if (obj.metadata?.deletionTimestamp) continue;
      try {
        await deleteObject(ctx, served, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '', { dryRun: false });
      } catch (err) {
        if (!(isStatusError(err) && err.code === 404)) throw err;
      }
    }
    return (await ctx.store.range({ prefix, limit: 1 })).kvs.length;
  }

  /** Serving: the registry serves exactly the Established CRDs, rebuilt when any of them changes. */
  function reconcileServing(crds: CustomResourceDefinition[]): void {
    const established = crds.filter((c) => isConditionTrue(c, ESTABLISHED)).sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    const key = established.map((c) => `${c.metadata?.name}@${c.metadata?.resourceVersion}`).join(',');
    if (key === servedKey) return;
    servedKey = key;
    ctx.registry.setCustomResources(established.flatMap(servedDefinitionsFor));
  }

  async function pass(): Promise<void> {
    const { crds } = await listCrds();
    reconcileServing(crds);
    for (const crd of crds) {
      if (stopped) return;
      // After a write the list is stale (names another CRD of the group may want): the write's own
      // watch event brings the next pass.
      if ((await reconcileNames(crd, crds)) || (await reconcileEstablished(crd)) || (await reconcileDeletion(crd))) return;
    }
    for (const name of [...instanceWatches.keys()]) {
      if (!crds.some((c) => c.metadata?.name === name)) unwatchInstances(name);
    }
  }

  function kick(): void {
    if (stopped) return;
    dirty = true;
    if (running) return;
    running = (async () => {
      while (dirty && !stopped) {
        dirty = false;
        try {
          await pass();
        } catch (err) {
          log(`reconcile failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      running = undefined;
    })();
  }

  void (async () => {
    await ctx.store.ready();
    if (stopped) return;
    watch = ctx.store.watch({ prefix: CRD_PREFIX, afterRevision: ctx.store.currentRevision() }, { onEvent: () => kick(), onClose: () => undefined });
    kick();
  })();

  return {
    async idle() {
      for (let i = 0; i < 1000 && (running || dirty); i++) await (running ?? Promise.resolve());
    },
    stop() {
      stopped = true;
      watch?.cancel();
      for (const name of [...instanceWatches.keys()]) unwatchInstances(name);
    },
  };
}
