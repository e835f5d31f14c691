// create (POST) and update (PUT) of an object or of a status-like subresource.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { decodeWriteBody } from '../decode-object';
import { AdmissionRun, writeOptionsObject } from '../../admission/request';
import { reconcileNamespace } from '../object-meta';
import { createObject, toRequestVersion, updateObject } from '../resource-store';
import { objectResponse } from '../respond';
import { requestRecord } from './request-record';
import { parseWriteOptions } from '../write-options';
import { managedFieldsHook, fieldManagerName } from '../field-management';
import { mergeSubresourceUpdate, preserveSubresourceFields, statusSubresource } from '../subresources';
import { cloneObject } from '../object-codec';

export async function handleCreate(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { served, route, query, request, output } = scope;
  const options = parseWriteOptions(query, 'CreateOptions');
  if (route.name) {
    // POST to an object path: only custom subresources (binding, eviction, token) accept it.
    throw errors.methodNotAllowedOnPath();
  }
  // Warnings go to the request's record (decoding's, admission's, the kind's, in kube's order);
  // the pipeline sends them with the response, an error included.
  const record = requestRecord(request);
  const { object, warnings } = await decodeWriteBody(ctx, request, served, options.fieldValidation, '');
  record.addWarnings(warnings);
  reconcileNamespace(object, route.namespace, served.definition.namespaced);
  const manager = fieldManagerName(options.fieldManager, scope.userAgent);
  const admission = new AdmissionRun(ctx, {
    served,
    namespace: route.namespace,
    name: object.metadata?.name ?? '',
    subresource: '',
    dryRun: options.dryRun,
    options: writeOptionsObject('CreateOptions', options),
    recorder: record,
  });
  const respond = (created: KubeObject) => objectResponse(toRequestVersion(served, created), 201, output);
  // Encoded while the store makes the object durable; if that fails (an encoding error), again after it.
  let prepared: Response | undefined;
  const created = await createObject(ctx, served, object, {
    dryRun: options.dryRun,
    subresource: '',
    managedFields: managedFieldsHook(ctx, served, manager, ''),
    admission,
    warn: (w) => record.addWarning(w),
    whileCommitting: (stored) => {
      prepared = respond(stored);
    },
  });
  return prepared ?? respond(created);
}

export async function handleUpdate(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { served, route, query, request, output } = scope;
  const options = parseWriteOptions(query, 'UpdateOptions');
  const subresource = route.subresource;
  const status = subresource ? statusSubresource(served, subresource) : undefined;
  if (subresource && !status) throw errors.pathNotFound();
  const record = requestRecord(request);
  const { object, warnings } = await decodeWriteBody(ctx, request, served, options.fieldValidation, subresource);
  record.addWarnings(warnings);
  const bodyName = object.metadata?.name;
  if (bodyName !== undefined && bodyName !== route.name) {
    throw errors.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${route.name})`);
  }
  reconcileNamespace(object, route.namespace, served.definition.namespaced);
  if (!object.metadata!.name) object.metadata!.name = route.name;
  const manager = fieldManagerName(options.fieldManager, scope.userAgent);
  const allowCreate = !subresource && served.definition.strategy.allowCreateOnUpdate === true;
  const admission = new AdmissionRun(ctx, {
    served,
    namespace: route.namespace,
    name: route.name,
    subresource,
    dryRun: options.dryRun,
    options: writeOptionsObject('UpdateOptions', options),
    recorder: record,
  });
  const result = await updateObject(
    ctx,
    served,
    route.namespace,
    route.name,
    {
      allowCreate,
      transform: async (current) => {
        const next = cloneObject(object);
        if (!current) return next;
        return status ? mergeSubresourceUpdate(status, next, current) : preserveSubresourceFields(served, next, current);
      },
    },
    { dryRun: options.dryRun, subresource, managedFields: managedFieldsHook(ctx, served, manager, subresource), admission, warn: (w) => record.addWarning(w) },
  );
  return objectResponse(toRequestVersion(served, result.object as KubeObject), result.created ? 201 : 200, output);
}
