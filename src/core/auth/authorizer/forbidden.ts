// The 403 kube-apiserver writes when authorization does not allow a request
// (responsewriters.Forbidden + apierrors.NewForbidden):
//   pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"
//   nodes "n1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope
//   forbidden: User "alice" cannot get path "/metrics"
// followed by ": <reason>" when the authorizers gave one.

import { StatusError, type StatusDetails } from '../../errors/status';
import type { Attributes } from '../types';

export function forbiddenMessage(attrs: Attributes): string {
  const username = JSON.stringify(attrs.user.username);
  if (!attrs.resourceRequest) return `User ${username} cannot ${attrs.verb} path ${JSON.stringify(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace ${JSON.stringify(attrs.namespace)}` : 'at the cluster scope';
  return `User ${username} cannot ${attrs.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.apiGroup)} ${where}`;
}

/** The full Status message and details, as NewForbidden builds them (empty fields left out of details). */
export function forbiddenError(attrs: Attributes, reason: string): StatusError {
  const cause = reason ? `${forbiddenMessage(attrs)}: ${reason}` : forbiddenMessage(attrs);
  // Non-resource requests have an empty group-resource: "forbidden: …" and empty details.
  const group = attrs.resourceRequest ? attrs.apiGroup : '';
  const resource = attrs.resourceRequest ? attrs.resource : '';
  return forbiddenStatus({ group, resource }, attrs.resourceRequest ? attrs.name : '', cause);
}

/** apierrors.NewForbidden(qualifiedResource, name, err). */
export function forbiddenStatus(gr: { group: string; resource: string }, name: string, cause: string): StatusError {
  const qualified = gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
  let message: string;
  if (!gr.resource && !gr.group) message = `forbidden: ${cause}`;
  else if (!name) message = `${qualified} is forbidden: ${cause}`;
  else message = `${qualified} ${JSON.stringify(name)} is forbidden: ${cause}`;
  const details: StatusDetails = {};
  if (name) details.name = name;
  if (gr.group) details.group = gr.group;
  if (gr.resource) details.kind = gr.resource;
  return new StatusError(403, 'Forbidden', message, details);
}
