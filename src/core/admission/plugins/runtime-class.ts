// RuntimeClass: a pod naming a RuntimeClass takes its pod overhead and its
// scheduling constraints (nodeSelector merged, tolerations added); an
// unknown class, an overhead that disagrees with the class's, or an
// overhead without a class is refused.

import type { KubeObject } from '../../kinds/types';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { onlyWhen } from './only-when';
import { isObj, isPodRequest, objs, podOf, type Obj } from './pod-helpers';

async function runtimeClassOf(attrs: AdmissionAttributes, ctx: AdmissionContext, spec: Obj): Promise<KubeObject | undefined> {
  const name = spec['runtimeClassName'];
  if (typeof name !== 'string' || name === '') return undefined;
  const rc = await ctx.reader.get({ group: 'node.k8s.io', resource: 'runtimeclasses' }, '', name);
  if (!rc) throw admissionForbidden(attrs, `pod rejected: RuntimeClass "${name}" not found`);
  return rc;
}

const podFixed = (rc: KubeObject | undefined): Obj | undefined => {
  const overhead = rc?.['overhead'];
  return isObj(overhead) && isObj(overhead['podFixed']) ? overhead['podFixed'] : undefined;
};

function sameResources(a: unknown, b: unknown): boolean {
  const x = isObj(a) ? a : {};
  const y = isObj(b) ? b : {};
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].every((k) => String(x[k]) === String(y[k]));
}

async function admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const pod = podOf(attrs);
  if (!pod || attrs.operation !== 'CREATE') return;
  const spec = pod.spec;
  const rc = await runtimeClassOf(attrs, ctx, spec);
  if (!rc) return;
  const fixed = podFixed(rc);
  if (fixed) {
    if (isObj(spec['overhead']) && Object.keys(spec['overhead']).length && !sameResources(spec['overhead'], fixed)) {
      throw admissionForbidden(attrs, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    }
    spec['overhead'] = { ...fixed };
  }
  const scheduling = isObj(rc['scheduling']) ? rc['scheduling'] : undefined;
  if (!scheduling) return;
  const selector = isObj(scheduling['nodeSelector']) ? scheduling['nodeSelector'] : {};
  if (isObj(spec['nodeSelector'])) {
    const own = spec['nodeSelector'];
    for (const [key, value] of Object.entries(selector)) {
      if (key in own && own[key] !== value) {
        throw admissionForbidden(attrs, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${String(value)}; pod.spec.nodeSelector[${key}] = ${String(own[key])}`);
      }
      own[key] = value;
    }
  } else if (Object.keys(selector).length) {
    spec['nodeSelector'] = { ...selector };
  }
  const tolerations = objs(spec['tolerations']);
  const added = objs(scheduling['tolerations']).filter((t) => !tolerations.some((own) => JSON.stringify(own) === JSON.stringify(t)));
  if (added.length) spec['tolerations'] = [...tolerations, ...added];
}

async function validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const pod = podOf(attrs);
  if (!pod || attrs.operation !== 'CREATE') return;
  const rc = await runtimeClassOf(attrs, ctx, pod.spec);
  const fixed = podFixed(rc);
  if (fixed) {
    if (!sameResources(pod.spec['overhead'], fixed)) throw admissionForbidden(attrs, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
  } else if (pod.spec['overhead'] !== undefined && pod.spec['overhead'] !== null) {
    throw admissionForbidden(attrs, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  }
}

export function runtimeClass(): AdmissionPlugin {
  return { name: 'RuntimeClass', handles: (op) => op === 'CREATE', admit: onlyWhen(isPodRequest, admit), validate: onlyWhen(isPodRequest, validate) };
}
