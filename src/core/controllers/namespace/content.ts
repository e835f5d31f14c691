// Deleting everything in a namespace (kube's deleteAllContent): for each
// namespaced resource that can be deleted, delete the collection (or each
// object when the resource has no deletecollection), then list what is
// left and count the finalizers holding it. Errors for one resource do not
// stop the others; they are collected for the NamespaceDeletionContentFailure
// condition.

import { errorMessage } from '../client/api-error';
import { gvrString } from '../client/resource-path';
import type { DiscoveredResource } from '../client/discovery';
import type { DeletionReport } from './conditions';
import type { NamespaceDeleterDeps } from './deps';

/** Seconds to wait when objects remain held by finalizers (kube's finalizerEstimateSeconds). */
export const FINALIZER_ESTIMATE_SECONDS = 15;

export interface ContentResult {
  /** Seconds before remaining content may be gone; 0 when nothing remains. */
  readonly estimateSeconds: number;
  readonly report: DeletionReport;
  readonly errors: readonly string[];
}

interface PerResource {
  estimate: number;
  remaining: number;
  finalizers: Map<string, number>;
  error?: string;
}

/** Pods still running hold the namespace for their grace period, counted from the namespace's deletion. */
async function estimateGracefulTermination(deps: NamespaceDeleterDeps, r: DiscoveredResource, namespace: string, deletedAtMs: number): Promise<number> {
  if (r.group !== '' || r.resource !== 'pods') return 0;
  const pods = await deps.list(r, namespace);
  if (pods === 'unsupported') return 0;
  let estimate = 0;
  for (const pod of pods) {
    const phase = (pod['status'] as { phase?: string } | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const grace = (pod['spec'] as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds;
    if (typeof grace === 'number' && grace > estimate) estimate = grace;
  }
  const elapsedMs = deps.now() - deletedAtMs;
  return elapsedMs >= estimate * 1000 ? 0 : estimate;
}

async function deleteResourceContent(deps: NamespaceDeleterDeps, r: DiscoveredResource, namespace: string, deletedAtMs: number): Promise<PerResource> {
  const estimate = await estimateGracefulTermination(deps, r, namespace, deletedAtMs);
  const result: PerResource = { estimate, remaining: 0, finalizers: new Map() };
  try {
    const collection = r.verbs.includes('deletecollection') ? await deps.deleteCollection(r, namespace) : 'unsupported';
    if (collection === 'unsupported') {
      const items = r.verbs.includes('list') ? await deps.list(r, namespace) : 'unsupported';
      if (items !== 'unsupported') for (const item of items) await deps.deleteItem(r, namespace, item.metadata?.name ?? '');
    }
    const left = r.verbs.includes('list') ? await deps.list(r, namespace) : 'unsupported';
    if (left === 'unsupported' || left.length === 0) return result;
    result.remaining = left.length;
    for (const item of left) for (const f of item.metadata?.finalizers ?? []) result.finalizers.set(f, (result.finalizers.get(f) ?? 0) + 1);
    if (estimate > 0) return result;
    if (result.finalizers.size > 0) {
      result.estimate = FINALIZER_ESTIMATE_SECONDS;
      return result;
    }
    result.error = `unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(r)}`;
    return result;
  } catch (err) {
    result.error = errorMessage(err);
    return result;
  }
}

export async function deleteAllContent(deps: NamespaceDeleterDeps, namespace: string, deletedAtMs: number): Promise<ContentResult> {
  const errors: string[] = [];
  const contentErrors: string[] = [];
  const discovery = await deps.discover();
  if (discovery.failures.size) errors.push('discovery failed');
  const remainingByResource = new Map<string, number>();
  const remainingByFinalizer = new Map<string, number>();
  let estimateSeconds = 0;
  for (const r of discovery.resources) {
    if (!r.verbs.includes('delete')) continue;
    const out = await deleteResourceContent(deps, r, namespace, deletedAtMs);
    if (out.error) {
      errors.push(out.error);
      contentErrors.push(out.error);
    }
    estimateSeconds = Math.max(estimateSeconds, out.estimate);
    if (out.remaining > 0) {
      remainingByResource.set(`${r.resource}.${r.group}`, out.remaining);
      for (const [f, n] of out.finalizers) remainingByFinalizer.set(f, (remainingByFinalizer.get(f) ?? 0) + n);
    }
  }
  return {
    estimateSeconds,
    errors,
    report: { discoveryFailures: discovery.failures, contentErrors, remainingByResource, remainingByFinalizer },
  };
}
