// The small plugins kube-apiserver knows but does not enable by default:
// AlwaysAdmit, AlwaysDeny, NamespaceExists and AlwaysPullImages.

import { errors } from '../../errors/status';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { objs, podOf } from './pod-helpers';

export function alwaysAdmit(): AdmissionPlugin {
  return { name: 'AlwaysAdmit', handles: () => true, admit: () => undefined };
}

export function alwaysDeny(): AdmissionPlugin {
  const deny = (attrs: AdmissionAttributes) => {
    throw admissionForbidden(attrs, 'admission control is denying all modifications');
  };
  return { name: 'AlwaysDeny', handles: () => true, admit: deny, validate: deny };
}

/** NamespaceExists: any write in a namespace that does not exist is a 404 on the namespace. */
export function namespaceExists(): AdmissionPlugin {
  return {
    name: 'NamespaceExists',
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    async validate(attrs: AdmissionAttributes, ctx: AdmissionContext) {
      if (!attrs.namespace || (attrs.kind.group === '' && attrs.kind.kind === 'Namespace')) return;
      if (!(await ctx.reader.get({ group: '', resource: 'namespaces' }, '', attrs.namespace))) {
        throw errors.notFound({ group: '', resource: 'namespaces' }, attrs.namespace);
      }
    },
  };
}

/** AlwaysPullImages: every container of a new pod (or of an update that changes images) pulls its image every time. */
export function alwaysPullImages(): AdmissionPlugin {
  return {
    name: 'AlwaysPullImages',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    admit(attrs: AdmissionAttributes) {
      const pod = podOf(attrs);
      if (!pod) return;
      const fields = ['initContainers', 'containers', 'ephemeralContainers'];
      if (attrs.operation === 'UPDATE') {
        const old = (attrs.oldObject?.['spec'] ?? {}) as Record<string, unknown>;
        const images = (spec: Record<string, unknown>) => new Set(fields.flatMap((f) => objs(spec[f]).map((c) => String(c['image']))));
        const before = images(old);
        if ([...images(pod.spec)].every((i) => before.has(i))) return;
      }
      for (const f of fields) for (const c of objs(pod.spec[f])) c['imagePullPolicy'] = 'Always';
    },
  };
}
