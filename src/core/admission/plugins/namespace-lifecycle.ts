// NamespaceLifecycle: objects can only be created in a namespace that exists
// and is not terminating, and the built-in namespaces can never be deleted.
// Namespaces themselves, cluster-scoped objects, deletes and access reviews
// pass (kube's lifecycle plugin).

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';

/** default, kube-system and kube-public: kube-apiserver refuses to delete them. */
export const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

const isNamespaceKind = (attrs: AdmissionAttributes) => attrs.kind.group === '' && attrs.kind.kind === 'Namespace';

// Review objects are answered without being stored; telling whether their namespace exists would leak it.
const ACCESS_REVIEWS = new Set(['localsubjectaccessreviews', 'subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews']);

const NAMESPACES = { group: '', resource: 'namespaces' };

function admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> | undefined {
  if (isNamespaceKind(attrs)) {
    if (attrs.operation === 'DELETE' && IMMORTAL_NAMESPACES.has(attrs.name)) {
      throw errors.forbidden({ group: '', resource: 'namespaces' }, attrs.name, 'this namespace may not be deleted');
    }
    return;
  }
  if (!attrs.namespace) return;
  if (attrs.operation === 'DELETE') return;
  if (attrs.resource.group === 'authorization.k8s.io' && ACCESS_REVIEWS.has(attrs.resource.resource)) return;
  // Only a create is refused by the namespace's state (an update or connect
  // needs the object to exist, and so its namespace).
  if (attrs.operation !== 'CREATE') return;
  // The namespaces the server keeps in memory answer at once; otherwise, read the store.
  const cached = ctx.reader.cached?.(NAMESPACES);
  if (cached) return void refuseUnlessActive(attrs, cached.get('', attrs.namespace));
  return ctx.reader.get(NAMESPACES, '', attrs.namespace).then((ns) => refuseUnlessActive(attrs, ns));
}

/** A create in a namespace that does not exist, or is being terminated, is refused. */
function refuseUnlessActive(attrs: AdmissionAttributes, ns: KubeObject | undefined): void {
  if (!ns) throw errors.notFound(NAMESPACES, attrs.namespace);
  const phase = (ns['status'] as { phase?: string } | undefined)?.phase;
  if (phase === 'Terminating' || ns.metadata?.deletionTimestamp) {
    const message = `unable to create new content in namespace ${attrs.namespace} because it is being terminated`;
    // kube names the object by the attributes' name here ('' for generateName).
    throw errors.forbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, attrs.name, message, [
      // The cause says it shorter than the message (v1.NamespaceTerminatingCause).
      { reason: 'NamespaceTerminating', message: `namespace ${attrs.namespace} is being terminated`, field: 'metadata.namespace' },
    ]);
  }
}

export function namespaceLifecycle(): AdmissionPlugin {
  return { name: 'NamespaceLifecycle', handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE', admit };
}
