// The reconcile of one namespace (kube's namespacedResourcesDeleter.Delete)
// as ordered steps: load it; mark it Terminating; stop if it is already
// finalized; delete its content and record the conditions; remove the
// `kubernetes` finalizer through the finalize subresource so that the API
// removes the namespace.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { errorMessage, isNotFound } from '../client/api-error';
import { retryOnConflict } from '../runtime/retry';
import { runSteps, stop, type Step } from '../runtime/steps';
import { updateConditions, type NamespaceCondition } from './conditions';
import { deleteAllContent } from './content';
import type { NamespaceDeleterDeps } from './deps';

export const FINALIZER_KUBERNETES = 'kubernetes';

export interface NamespaceSync {
  readonly name: string;
  readonly deps: NamespaceDeleterDeps;
  readonly log: (message: string) => void;
  ns?: KubeObject;
}

type NamespaceStatus = { phase?: string; conditions?: NamespaceCondition[] };
const statusOf = (ns: KubeObject): NamespaceStatus => (ns['status'] as NamespaceStatus | undefined) ?? {};
const specFinalizers = (ns: KubeObject): string[] => ((ns['spec'] as { finalizers?: string[] } | undefined)?.finalizers ?? []).map(String);

/** Re-reads the namespace after a conflict; a different uid means another namespace took the name. */
async function refresh(s: NamespaceSync): Promise<KubeObject | undefined> {
  const uid = s.ns?.metadata?.uid;
  const fresh = await s.deps.getNamespace(s.name);
  if (fresh && uid && fresh.metadata?.uid !== uid) throw new Error('namespace uid has changed across retries');
  return fresh;
}

/** Applies `change` to the latest namespace and writes it, again on conflicts. Returns undefined when it is gone. */
async function writeWithRetry(s: NamespaceSync, change: (ns: KubeObject) => KubeObject | undefined, write: (ns: KubeObject) => Promise<KubeObject>): Promise<KubeObject | undefined> {
  let first = true;
  try {
    return await retryOnConflict(async () => {
      const current = first ? s.ns : await refresh(s);
      first = false;
      if (!current) return undefined;
      const next = change(current);
      if (!next) return current;
      return await write(next);
    });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export const loadNamespace: Step<NamespaceSync> = {
  name: 'load',
  async run(s) {
    s.ns = await s.deps.getNamespace(s.name);
    if (!s.ns || !s.ns.metadata?.deletionTimestamp) return stop();
  },
};

export const markTerminating: Step<NamespaceSync> = {
  name: 'mark-terminating',
  async run(s) {
    const updated = await writeWithRetry(
      s,
      (ns) => (!ns.metadata?.deletionTimestamp || statusOf(ns).phase === 'Terminating' ? undefined : { ...ns, status: { ...statusOf(ns), phase: 'Terminating' } }),
      (ns) => s.deps.updateStatus(ns),
    );
    if (!updated || !updated.metadata?.deletionTimestamp) return stop();
    s.ns = updated;
  },
};

export const skipFinalized: Step<NamespaceSync> = {
  name: 'skip-finalized',
  async run(s) {
    if (specFinalizers(s.ns!).length === 0) return stop();
  },
};

export const deleteContent: Step<NamespaceSync> = {
  name: 'delete-content',
  async run(s) {
    const deletedAt = Date.parse(s.ns!.metadata!.deletionTimestamp!);
    const result = await deleteAllContent(s.deps, s.name, deletedAt);
    // The conditions are written whatever happened, so that a recovery clears an earlier failure.
    try {
      const written = await writeWithRetry(
        s,
        (ns) => {
          const conditions = updateConditions(statusOf(ns).conditions, result.report, rfc3339(s.deps.now()));
          return conditions ? { ...ns, status: { ...statusOf(ns), conditions } } : undefined;
        },
        (ns) => s.deps.updateStatus(ns),
      );
      if (written) s.ns = written;
    } catch (err) {
      s.log(`namespace ${s.name}: couldn't update status condition: ${errorMessage(err)}`);
    }
    if (result.errors.length) throw new Error(result.errors.join('; '));
    if (result.estimateSeconds > 0) return stop(result.estimateSeconds * 1000);
  },
};

export const finalizeNamespace: Step<NamespaceSync> = {
  name: 'finalize',
  async run(s) {
    await writeWithRetry(
      s,
      (ns) => {
        const finalizers = [...new Set(specFinalizers(ns).filter((f) => f !== FINALIZER_KUBERNETES))].sort();
        return { ...ns, spec: { ...((ns['spec'] as object | undefined) ?? {}), finalizers } };
      },
      (ns) => s.deps.finalize(ns),
    );
  },
};

export const NAMESPACE_STEPS: readonly Step<NamespaceSync>[] = [loadNamespace, markTerminating, skipFinalized, deleteContent, finalizeNamespace];

export function syncNamespace(name: string, deps: NamespaceDeleterDeps, log: (message: string) => void) {
  return runSteps(NAMESPACE_STEPS, { name, deps, log });
}
