// DefaultIngressClass: an Ingress created with neither spec.ingressClassName
// nor the kubernetes.io/ingress.class annotation gets the default
// IngressClass, when there is one.

import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { newestDefault } from './default-class';
import { onlyWhen } from './only-when';
import { isObj } from './pod-helpers';

const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const IS_DEFAULT = 'ingressclass.kubernetes.io/is-default-class';

async function admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  if (attrs.resource.group !== 'networking.k8s.io' || attrs.resource.resource !== 'ingresses' || attrs.subresource) return;
  const ingress = attrs.object;
  if (!ingress) return;
  if (!isObj(ingress['spec'])) ingress['spec'] = {};
  const spec = ingress['spec'] as Record<string, unknown>;
  if (spec['ingressClassName'] !== undefined && spec['ingressClassName'] !== null) return;
  if (ingress.metadata?.annotations?.[CLASS_ANNOTATION] !== undefined) return;
  const classes = await ctx.reader.list({ group: 'networking.k8s.io', resource: 'ingressclasses' }, '');
  const def = newestDefault(classes, (c) => c.metadata?.annotations?.[IS_DEFAULT] === 'true');
  if (def) spec['ingressClassName'] = def.metadata?.name;
}

export function defaultIngressClass(): AdmissionPlugin {
  return {
    name: 'DefaultIngressClass',
    handles: (op) => op === 'CREATE',
    admit: onlyWhen((attrs) => attrs.resource.group === 'networking.k8s.io' && attrs.resource.resource === 'ingresses' && !attrs.subresource, admit),
  };
}
