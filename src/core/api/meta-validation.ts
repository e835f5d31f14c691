// The object-metadata checks the generic registry runs for every kind after
// the kind's own validation (rest.BeforeCreate / BeforeUpdate call
// ValidateObjectMetaAccessor with the path-segment name rule). Kind-specific
// name rules (DNS subdomain, DNS label, …) belong to the kinds' strategies.

import { fieldErrors, type FieldError } from '../errors/field-errors';
import type { KubeObject } from '../kinds/types';

/** path.ValidatePathSegmentName: names end up in URL paths. */
export function validatePathSegmentName(name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  const msgs: string[] = [];
  if (name.includes('/')) msgs.push("may not contain '/'");
  if (name.includes('%')) msgs.push("may not contain '%'");
  return msgs;
}

export function validateObjectMetaBasics(obj: KubeObject, namespaced: boolean, old: KubeObject | undefined): FieldError[] {
  void old;
  const meta = obj.metadata ?? {};
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of validatePathSegmentName(meta.generateName, true)) errs.push(fieldErrors.invalid('metadata.generateName', meta.generateName, msg));
  }
  if (!meta.name) {
    errs.push(fieldErrors.required('metadata.name', 'name or generateName is required'));
  } else {
    for (const msg of validatePathSegmentName(meta.name, false)) errs.push(fieldErrors.invalid('metadata.name', meta.name, msg));
  }
  if (namespaced) {
    if (!meta.namespace) errs.push(fieldErrors.required('metadata.namespace'));
  } else if (meta.namespace) {
    errs.push(fieldErrors.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  return errs;
}
