// The status conditions the namespace controller keeps on a terminating
// namespace (kube's namespaceConditionUpdater): five types, each either an
// error variant (status "True", with what went wrong) or its "ok" variant
// (status "False"). Pure functions over the namespace status.

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

export const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

const OK: Record<string, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

/** What one pass of content deletion found; turned into conditions by `conditionsFor`. */
export interface DeletionReport {
  /** Discovery failures by group version ("metrics.k8s.io/v1beta1" → why). */
  discoveryFailures?: ReadonlyMap<string, string>;
  /** Group versions discovery returned that could not be parsed. */
  groupVersionError?: string;
  /** One message per resource whose content could not be deleted. */
  contentErrors?: readonly string[];
  /** Remaining objects by "<resource>.<group>" (core: "pods."). */
  remainingByResource?: ReadonlyMap<string, number>;
  /** Remaining objects by finalizer. */
  remainingByFinalizer?: ReadonlyMap<string, number>;
}

function discoveryMessage(failures: ReadonlyMap<string, string>): string {
  const groups = [...failures].map(([gv, why]) => `${gv}: ${why}`).sort();
  return `Discovery failed for some groups, ${failures.size} failing: unable to retrieve the complete list of server APIs: ${groups.join(', ')}`;
}

/** The error conditions a report calls for (types absent here get their ok variant). */
export function errorConditions(report: DeletionReport): Omit<NamespaceCondition, 'lastTransitionTime'>[] {
  const out: Omit<NamespaceCondition, 'lastTransitionTime'>[] = [];
  if (report.discoveryFailures?.size) {
    out.push({ type: 'NamespaceDeletionDiscoveryFailure', status: 'True', reason: 'DiscoveryFailed', message: discoveryMessage(report.discoveryFailures) });
  }
  if (report.groupVersionError) {
    out.push({ type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'True', reason: 'GroupVersionParsingFailed', message: report.groupVersionError });
  }
  const remaining = [...(report.remainingByResource ?? [])].filter(([, n]) => n > 0);
  if (report.remainingByResource && report.remainingByResource.size > 0) {
    const parts = remaining.map(([resource, n]) => `${resource} has ${n} resource instances`).sort();
    out.push({ type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${parts.join(', ')}` });
  }
  if (report.remainingByFinalizer && report.remainingByFinalizer.size > 0) {
    const parts = [...report.remainingByFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
    out.push({ type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizerRemain', message: `Some finalizers are remaining: ${parts.join(', ')}` });
  }
  if (report.contentErrors?.length) {
    const msgs = [...report.contentErrors].sort();
    out.push({
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
    });
  }
  return out;
}

/**
 * The namespace's conditions after a pass: every controller-kept type present
 * (added in kube's order when missing), lastTransitionTime moved only when the
 * status flips. Returns undefined when nothing changed.
 */
export function updateConditions(current: readonly NamespaceCondition[] | undefined, report: DeletionReport, now: string): NamespaceCondition[] | undefined {
  const next = (current ?? []).map((c) => ({ ...c }));
  const wanted = errorConditions(report);
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const desired = wanted.find((c) => c.type === type) ?? { type, status: 'False' as const, ...OK[type]! };
    const existing = next.find((c) => c.type === type);
    if (!existing) {
      next.push({ type, status: desired.status, lastTransitionTime: now, reason: desired.reason, message: desired.message });
      changed = true;
    } else if (existing.status !== desired.status || existing.reason !== desired.reason || existing.message !== desired.message) {
      if (existing.status !== desired.status) existing.lastTransitionTime = now;
      existing.status = desired.status;
      existing.reason = desired.reason;
      existing.message = desired.message;
      changed = true;
    }
  }
  return changed ? next : undefined;
}
