// The NamespaceLifecycle admission plugin: objects can only be created in a
// namespace that exists and is not terminating, and the built-in namespaces
// can never be deleted.

import { errors } from '../errors/status';
import type { ServerContext } from './context';
import type { ServedResource } from './registry';
import { decode, keyFor } from './resource-store';

/** default, kube-system and kube-public: kube-apiserver refuses to delete them. */
export const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

export async function admitNamespace(ctx: ServerContext, served: ServedResource, name: string, namespace: string, operation: 'create'): Promise<void> {
  void operation;
  const namespaces = ctx.registry.lookup('', 'v1', 'namespaces');
  if (!namespaces) return;
  const kv = await ctx.store.get(keyFor(namespaces, '', namespace));
  if (!kv) throw errors.notFound({ group: '', resource: 'namespaces' }, namespace);
  const ns = decode(ctx, namespaces, kv);
  const phase = (ns['status'] as { phase?: string } | undefined)?.phase;
  if (phase === 'Terminating' || ns.metadata?.deletionTimestamp) {
    const message = `unable to create new content in namespace ${namespace} because it is being terminated`;
    throw errors.forbidden(served.groupResource, name, message, [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }]);
  }
}

export function admitNamespaceDelete(name: string): void {
  if (IMMORTAL_NAMESPACES.has(name)) {
    throw errors.forbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
  }
}
