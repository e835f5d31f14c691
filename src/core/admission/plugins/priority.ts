// Priority: a pod's priorityClassName resolves to spec.priority and
// spec.preemptionPolicy (the globalDefault class, else priority 0 and
// PreemptLowerPriority, when it names none); an unknown class or a priority
// that disagrees with the class is refused. Updates keep what create set.
// Only one PriorityClass may be the global default.

import type { KubeObject } from '../../kinds/types';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { onlyWhen } from './only-when';
import { isPodRequest, podOf } from './pod-helpers';

const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };

/** The global default with the lowest value (several may exist after a race). */
async function defaultPriorityClass(ctx: AdmissionContext): Promise<KubeObject | undefined> {
  let found: KubeObject | undefined;
  for (const pc of await ctx.reader.list(PRIORITY_CLASSES, '')) {
    if (pc['globalDefault'] !== true) continue;
    if (!found || Number(found['value']) > Number(pc['value'])) found = pc;
  }
  return found;
}

async function admitPod(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const pod = podOf(attrs);
  if (!pod) return;
  const spec = pod.spec;
  if (attrs.operation === 'UPDATE') {
    const old = (attrs.oldObject?.['spec'] ?? {}) as Record<string, unknown>;
    if (spec['priority'] === undefined && old['priority'] !== undefined) spec['priority'] = old['priority'];
    if (spec['preemptionPolicy'] === undefined && old['preemptionPolicy'] !== undefined) spec['preemptionPolicy'] = old['preemptionPolicy'];
    return;
  }
  if (attrs.operation !== 'CREATE') return;
  let priority: number;
  let policy: string | undefined;
  const className = spec['priorityClassName'];
  if (typeof className !== 'string' || className === '') {
    const pc = await defaultPriorityClass(ctx);
    if (pc) {
      spec['priorityClassName'] = pc.metadata?.name;
      priority = Number(pc['value'] ?? 0);
      policy = pc['preemptionPolicy'] as string | undefined;
    } else {
      priority = 0;
      policy = 'PreemptLowerPriority';
    }
  } else {
    const pc = await ctx.reader.get(PRIORITY_CLASSES, '', className);
    if (!pc) throw admissionForbidden(attrs, `no PriorityClass with name ${className} was found`);
    priority = Number(pc['value'] ?? 0);
    policy = pc['preemptionPolicy'] as string | undefined;
  }
  if (typeof spec['priority'] === 'number' && spec['priority'] !== priority) {
    throw admissionForbidden(
      attrs,
      `the integer value of priority (${spec['priority']}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  }
  spec['priority'] = priority;
  if (policy !== undefined) {
    if (typeof spec['preemptionPolicy'] === 'string' && spec['preemptionPolicy'] !== policy) {
      throw admissionForbidden(
        attrs,
        `the string value of PreemptionPolicy (${spec['preemptionPolicy']}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    spec['preemptionPolicy'] = policy;
  }
}

async function validatePriorityClass(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  if (attrs.resource.group !== 'scheduling.k8s.io' || attrs.resource.resource !== 'priorityclasses' || attrs.subresource) return;
  if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
  const pc = attrs.object;
  if (!pc || pc['globalDefault'] !== true) return;
  const current = await defaultPriorityClass(ctx);
  if (current && current.metadata?.name !== pc.metadata?.name) {
    throw admissionForbidden(attrs, `PriorityClass ${current.metadata?.name ?? ''} is already marked as default. Only one default can exist`);
  }
}

export function priority(): AdmissionPlugin {
  return {
    name: 'Priority',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    admit: onlyWhen(isPodRequest, admitPod),
    validate: onlyWhen((attrs) => attrs.resource.group === 'scheduling.k8s.io' && attrs.resource.resource === 'priorityclasses', validatePriorityClass),
  };
}
