// create (POST) and update (PUT) of an object or of a status-like subresource.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { decodeWriteBody } from '../decode-object';
import { AdmissionRun, writeOptionsObject } from '../../admission/request';
import { reconcileNamespace } from '../object-meta';
import { createObject, toRequestVersion, updateObject } from '../resource-store';
import { objectResponse, warningHeaders } from '../respond';
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
  const { object, warnings } = await decodeWriteBody(ctx, request, served, options.fieldValidation, '');
  reconcileNamespace(object, route.namespace, served.definition.namespaced);
  const manager = fieldManagerName(options.fieldManager, scope.userAgent);
  const admission = new AdmissionRun(ctx, {
    served,
    namespace: route.namespace,
    name: object.metadata?.name ?? '',
    subresource: '',
    dryRun: options.dryRun,
    options: writeOptionsObject('CreateOptions', options),
  });
  const created = await createObject(ctx, served, object, {
    dryRun: options.dryRun,
    subresource: '',
    beforeValidate: managedFieldsHook(ctx, served, manager, ''),
    admission,
  });
  const strategyWarnings = served.definition.strategy.warningsOnCreate?.(created, {
    clock: ctx.clock,
    subresource: '',
    dryRun: options.dryRun,
    requestVersion: served.version.name,
    services: ctx.services,
  });
  return objectResponse(toRequestVersion(served, created), 201, output, warningHeaders([...warnings, ...admission.warnings, ...(strategyWarnings ?? [])]));
}

export async function handleUpdate(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { served, route, query, request, output } = scope;
  const options = parseWriteOptions(query, 'UpdateOptions');
  const subresource = route.subresource;
  const status = subresource ? statusSubresource(served, subresource) : undefined;
  if (subresource && !status) throw errors.pathNotFound();
  const { object, warnings } = await decodeWriteBody(ctx, request, served, options.fieldValidation, subresource);
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
    { dryRun: options.dryRun, subresource, beforeValidate: managedFieldsHook(ctx, served, manager, subresource), admission },
  );
  return objectResponse(toRequestVersion(served, result.object as KubeObject), result.created ? 201 : 200, output, warningHeaders([...warnings, ...admission.warnings]));
}
