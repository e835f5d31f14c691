// What the workload kinds share: the CONTAINERS/IMAGES cells of their wide
// tables, label-selector validation, and the selector/template agreement
// check of ValidatePodTemplateSpecForReplicaSet.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import { isQualifiedName, isValidLabelValue } from '../../validation/names';
import { validateLabels } from '../../validation/object-meta';
import { goLabels, goLabelSelector as goLabelSelectorValue } from './go-format';
import { arr, rec, str, type LabelSelector } from './table';
import { validatePodTemplateSpec } from '../core/pod-spec/validation';
import { validateNonnegative } from '../../validation/object-meta';

/** layoutContainerCells: names and images, comma-joined. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = arr(rec(podSpec).containers).map(rec);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}

/** ValidateLabelSelector (metav1validation) with its paths and messages. */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (selector === undefined || selector === null) return [];
  const s = rec(selector);
  const errs: FieldError[] = [];
  arr(s.matchExpressions).forEach((e, i) => {
    const expr = rec(e);
    const p = `${path}.matchExpressions[${i}]`;
    const values = arr(expr.values);
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldErrors.required(`${p}.values`, 'must be specified when `operator` is \'In\' or \'NotIn\''));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldErrors.forbidden(`${p}.values`, 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\''));
        break;
      default:
        errs.push(fieldErrors.invalid(`${p}.operator`, expr.operator ?? '', 'not a valid selector operator'));
    }
    const key = str(expr.key);
    for (const msg of isQualifiedName(key)) errs.push(fieldErrors.invalid(`${p}.key`, key, msg));
    values.forEach((v, j) => {
      for (const msg of isValidLabelValue(String(v))) errs.push(fieldErrors.invalid(`${p}.values[${j}]`, v, msg));
    });
  });
  errs.push(...validateLabels(s.matchLabels as Record<string, string> | undefined, `${path}.matchLabels`));
  return errs;
}

/** Does a LabelSelector select these labels? (undefined selector: nothing; empty selector: everything). */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(l[e.key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(l[e.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);
}

/**
 * ValidatePodTemplateSpecForReplicaSet (also used by Deployments and
 * DaemonSets): the template is required, its labels must match the selector,
 * it must restart Always and may not set activeDeadlineSeconds.
 */
export function validateTemplateForSelector(template: unknown, selector: LabelSelector | undefined, path: string, kindLabel: string): FieldError[] {
  if (template === undefined || template === null) return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const labels = rec(rec(rec(template).metadata).labels) as Record<string, string>;
  // A missing selector selects nothing (labels.Nothing), an empty one everything.
  if ((selector === undefined || selector === null || !isEmptySelector(selector)) && !selectorMatches(selector ?? undefined, labels)) {
    errs.push(fieldErrors.invalid(`${path}.metadata.labels`, goLabels(rec(rec(template).metadata).labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, path));
  const spec = rec(rec(template).spec);
  if (spec.restartPolicy !== 'Always') errs.push(fieldErrors.notSupported(`${path}.spec.restartPolicy`, spec.restartPolicy ?? '', ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(fieldErrors.forbidden(`${path}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kindLabel} is not Supported`));
  }
  return errs;
}

/** The selector checks of the workload specs: required, valid, not empty. */
export function validateWorkloadSelector(selector: unknown, path: string, emptyMessage = 'empty selector is invalid for deployment'): FieldError[] {
  if (selector === undefined || selector === null) return [fieldErrors.required(path)];
  const errs = validateLabelSelector(selector, path);
  if (isEmptySelector(selector as LabelSelector)) errs.push(fieldErrors.invalid(path, goLabelSelectorValue(selector), emptyMessage));
  return errs;
}


export function nonnegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' ? validateNonnegative(value, path) : [];
}
