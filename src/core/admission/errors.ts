// admission.NewForbidden: the 403 a plugin's refusal becomes. The name is the
// object's name, else its generateName (names are not generated yet when
// admission runs), else the attributes' name, as kube's extractResourceName.

import { errors, type StatusCause, type StatusError } from '../errors/status';
import type { AdmissionAttributes } from './types';

export function admissionName(attrs: AdmissionAttributes): string {
  const meta = attrs.object?.metadata;
  if (meta?.name) return meta.name;
  if (meta?.generateName) return meta.generateName;
  return attrs.name;
}

export function admissionForbidden(attrs: AdmissionAttributes, message: string, causes?: StatusCause[]): StatusError {
  const gr = { group: attrs.resource.group, resource: attrs.resource.resource };
  return errors.forbidden(gr, admissionName(attrs), message, causes);
}
