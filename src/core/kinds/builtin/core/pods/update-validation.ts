// ValidatePodUpdate: a running pod's spec is mostly immutable. Images,
// activeDeadlineSeconds (only shortened), tolerations (only added),
// terminationGracePeriodSeconds (only from negative to 1) and scheduling
// gates (only removed) may change; anything else is refused with kube's
// "pod updates may not change fields other than …" message.

import { fieldErrors, type FieldError } from '../../../../errors/field-errors';
import type { KubeObject } from '../../../types';
import { deepEqual } from '../../../validation/deep-equal';
import { inclusiveRangeError } from '../../../validation/names';
import { clone } from '../../common/strategy';
import { arr, rec, str } from '../../common/table';
import { MAX_INT32 } from '../pod-spec/validation';

type Obj = Record<string, unknown>;

export const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function validateContainerUpdates(next: unknown, prev: unknown, path: string): { errs: FieldError[]; stop: boolean } {
  const n = arr(next).map(rec);
  const o = arr(prev);
  if (n.length !== o.length) return { errs: [fieldErrors.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  n.forEach((c, i) => {
    const image = str(c.image);
    if (!image) errs.push(fieldErrors.required(`${path}[${i}].image`));
    if (image.trim().length !== image.length) errs.push(fieldErrors.invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** A readable account of what differs (kube prints a Go cmp.Diff; the lines here name the changed paths). */
export function describeSpecDiff(oldSpec: unknown, newSpec: unknown, path = 'spec'): string {
  const lines: string[] = [];
  const walk = (a: unknown, b: unknown, p: string) => {
    if (deepEqual(a, b)) return;
    const ao = a && typeof a === 'object' && !Array.isArray(a);
    const bo = b && typeof b === 'object' && !Array.isArray(b);
    if (ao && bo) {
      for (const k of [...new Set([...Object.keys(a as Obj), ...Object.keys(b as Obj)])].sort()) walk((a as Obj)[k], (b as Obj)[k], `${p}.${k}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((v, i) => walk(v, b[i], `${p}[${i}]`));
      return;
    }
    if (a !== undefined) lines.push(`- ${p}: ${JSON.stringify(a)}`);
    if (b !== undefined) lines.push(`+ ${p}: ${JSON.stringify(b)}`);
  };
  walk(oldSpec, newSpec, path);
  return `  core.PodSpec{\n${lines.map((l) => `  \t${l}`).join('\n')}\n  }\n`;
}

function tolerationKey(t: unknown): string {
  const r = rec(t);
  return JSON.stringify([r.key ?? '', r.operator ?? '', r.value ?? '', r.effect ?? '']);
}

export function validatePodSpecUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const newSpec = rec(pod.spec);
  const oldSpec = rec(old.spec);
  const errs: FieldError[] = [];
  for (const field of ['containers', 'initContainers']) {
    const r = validateContainerUpdates(newSpec[field], oldSpec[field], `spec.${field}`);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const newDeadline = newSpec.activeDeadlineSeconds;
  const oldDeadline = oldSpec.activeDeadlineSeconds;
  if (typeof newDeadline === 'number') {
    if (newDeadline < 0 || newDeadline > MAX_INT32) {
      errs.push(fieldErrors.invalid('spec.activeDeadlineSeconds', newDeadline, inclusiveRangeError(0, MAX_INT32)));
      return errs;
    }
    if (typeof oldDeadline === 'number' && oldDeadline < newDeadline) {
      errs.push(fieldErrors.invalid('spec.activeDeadlineSeconds', newDeadline, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (typeof oldDeadline === 'number') {
    errs.push(fieldErrors.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  // Tolerations may only be added.
  const newTolerations = new Set(arr(newSpec.tolerations).map(tolerationKey));
  arr(oldSpec.tolerations).forEach((t) => {
    if (!newTolerations.has(tolerationKey(t))) {
      errs.push(fieldErrors.forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'));
    }
  });
  // Scheduling gates may only be removed.
  const oldGates = new Set(arr(oldSpec.schedulingGates).map((g) => str(rec(g).name)));
  for (const g of arr(newSpec.schedulingGates)) {
    if (!oldGates.has(str(rec(g).name))) {
      errs.push(fieldErrors.forbidden('spec.schedulingGates', 'only deletion is allowed, but found new scheduling gate \'' + str(rec(g).name) + '\''));
      break;
    }
  }
  if (deepEqual(newSpec, oldSpec)) return errs;

  // Put back what may change; whatever still differs is forbidden.
  const munged = clone(newSpec);
  const restore = (field: string) => {
    const oldList = arr(oldSpec[field]);
    arr(munged[field]).forEach((c, i) => {
      const o = rec(oldList[i]);
      (c as Obj).image = o.image;
    });
  };
  restore('containers');
  restore('initContainers');
  if (oldSpec.activeDeadlineSeconds === undefined) delete munged.activeDeadlineSeconds;
  else munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  if (oldSpec.tolerations === undefined) delete munged.tolerations;
  else munged.tolerations = clone(oldSpec.tolerations);
  if (typeof oldSpec.terminationGracePeriodSeconds === 'number' && oldSpec.terminationGracePeriodSeconds < 0 && newSpec.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
  }
  if (oldSpec.schedulingGates === undefined) delete munged.schedulingGates;
  else munged.schedulingGates = clone(oldSpec.schedulingGates);
  if (!deepEqual(munged, oldSpec)) {
    errs.push(fieldErrors.forbidden('spec', `${POD_UPDATE_FORBIDDEN}\n${describeSpecDiff(oldSpec, munged)}`));
  }
  return errs;
}
