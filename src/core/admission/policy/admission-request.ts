// The admission.k8s.io AdmissionRequest of a request, as kube builds it for
// webhooks (AdmissionReview.request) and for CEL (the `request` variable):
// empty optional fields are left out as Go's omitempty leaves them out.

import type { AdmissionAttributes } from '../types';

type Obj = Record<string, unknown>;

export function userInfoOf(attrs: AdmissionAttributes): Obj {
  const user = attrs.user;
  if (!user) return {};
  const info: Obj = {};
  if (user.username) info.username = user.username;
  if (user.uid) info.uid = user.uid;
  if (user.groups?.length) info.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) info.extra = { ...user.extra };
  return info;
}

/** Options kind by operation (metav1 CreateOptions, UpdateOptions, DeleteOptions). */
function optionsOf(attrs: AdmissionAttributes): Obj | undefined {
  if (!attrs.options) return undefined;
  const kind = attrs.operation === 'CREATE' ? 'CreateOptions' : attrs.operation === 'UPDATE' ? 'UpdateOptions' : attrs.operation === 'DELETE' ? 'DeleteOptions' : undefined;
  return kind ? { kind, apiVersion: 'meta.k8s.io/v1', ...attrs.options } : { ...attrs.options };
}

export function admissionRequest(attrs: AdmissionAttributes, uid: string, withObjects: boolean): Obj {
  const kind = { group: attrs.kind.group, version: attrs.kind.version, kind: attrs.kind.kind };
  const resource = { group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.resource };
  const req: Obj = { uid, kind, resource };
  if (attrs.subresource) req.subResource = attrs.subresource;
  req.requestKind = kind;
  req.requestResource = resource;
  if (attrs.subresource) req.requestSubResource = attrs.subresource;
  if (attrs.name) req.name = attrs.name;
  if (attrs.namespace) req.namespace = attrs.namespace;
  req.operation = attrs.operation;
  req.userInfo = userInfoOf(attrs);
  if (withObjects) {
    req.object = attrs.operation === 'DELETE' ? null : (attrs.object ?? null);
    req.oldObject = attrs.oldObject ?? null;
  }
  req.dryRun = attrs.dryRun;
  const options = optionsOf(attrs);
  if (options) req.options = options;
  return req;
}
