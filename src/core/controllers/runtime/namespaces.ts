// Helpers for controllers that keep something in every namespace.

import type { KubeObject } from '../../kinds/types';
import { ApiError } from '../client/api-error';

export const namespacePhase = (ns: KubeObject | undefined): string | undefined => (ns?.['status'] as { phase?: string } | undefined)?.phase;

/** The 403 the NamespaceLifecycle admission gives for a create in a terminating namespace (cause NamespaceTerminating). */
export function isNamespaceTerminating(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.code !== 403) return false;
  const causes = (err.status?.details?.['causes'] as { reason?: string }[] | undefined) ?? [];
  return causes.some((c) => c.reason === 'NamespaceTerminating');
}
