// PATCH: JSON patch, merge patch, strategic merge patch and server-side apply.
// Non-apply patches are applied to the object as the client's version shows
// it, decoded like an update body, and stored through the guaranteed update
// (re-applied to the fresh object on a concurrent write, unless the patch
// itself names a resourceVersion).

import { errors } from '../../errors/status';
import { fieldErrors } from '../../errors/field-errors';
import type { KubeObject } from '../../kinds/types';
import { readBody } from '../body';
import { patchTypeFromContentType } from '../../patch/apply-patch';
import type { RequestScope, ServerContext } from '../context';
import { checkTypeMeta, prepareDecoded } from '../decode-object';
import { fieldManagerName, managedFieldsHook } from '../field-management';
import { cloneObject } from '../object-codec';
import { reconcileNamespace } from '../object-meta';
import { toRequestVersion, updateObject } from '../resource-store';
import { objectResponse } from '../respond';
import { requestRecord } from './request-record';
import { mergeSubresourceUpdate, preserveSubresourceFields, statusSubresource } from '../subresources';
import { parseWriteOptions } from '../write-options';
import { applyNonApplyPatch, patchSetsResourceVersion } from '../patch-apply';
import { serverSideApply } from '../apply';
import { AdmissionRun, writeOptionsObject } from '../../admission/request';


export async function handlePatch(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { served, route, query, request, output } = scope;
  const kind = patchTypeFromContentType(request.headers.get('content-type'), { noStrategicMerge: served.definition.noStrategicMerge });
  const options = parseWriteOptions(query, 'PatchOptions');
  const optionErrors = [];
  if (kind !== 'apply' && options.force !== undefined) optionErrors.push(fieldErrors.forbidden('force', 'may not be specified for non-apply patch'));
  if (kind === 'apply' && !options.fieldManager) optionErrors.push(fieldErrors.required('fieldManager', 'is required for apply patch'));
  if (optionErrors.length) throw errors.invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', optionErrors);
  const body = await readBody(request);
  const subresource = route.subresource;
  const status = subresource ? statusSubresource(served, subresource) : undefined;
  if (subresource && !status) throw errors.pathNotFound();
  if (kind === 'apply') return serverSideApply(ctx, scope, body, options);

  const manager = fieldManagerName(options.fieldManager, scope.userAgent);
  const conditional = patchSetsResourceVersion(kind, body);
  const record = requestRecord(request);
  const admission = new AdmissionRun(ctx, {
    served,
    namespace: route.namespace,
    name: route.name,
    subresource,
    dryRun: options.dryRun,
    options: writeOptionsObject('PatchOptions', options),
    recorder: record,
  });
  const result = await updateObject(
    ctx,
    served,
    route.namespace,
    route.name,
    {
      allowCreate: false,
      transform: async (current) => {
        if (!current) throw errors.notFound(served.groupResource, route.name);
        const shown = toRequestVersion(served, current);
        const outcome = applyNonApplyPatch(kind, cloneObject(shown), body, served, options.fieldValidation);
        record.addWarnings(outcome.warnings);
        const patched = outcome.object as Record<string, unknown>;
        checkTypeMeta(ctx, patched, served);
        const next = prepareDecoded(ctx, served, patched as KubeObject, subresource);
        reconcileNamespace(next, route.namespace, served.definition.namespaced);
        if (next.metadata?.name !== route.name) {
          throw errors.invalid({ group: served.group, kind: served.definition.kind }, route.name, [
            fieldErrors.invalid('metadata.name', next.metadata?.name ?? '', 'field is immutable'),
          ]);
        }
        // Without a resourceVersion of its own the patch applies to the object it was computed on
        // (re-applied to the fresh object when a concurrent write wins the compare-and-swap).
        if (!conditional && next.metadata) next.metadata.resourceVersion = current.metadata?.resourceVersion;
        return status ? mergeSubresourceUpdate(status, next, current) : preserveSubresourceFields(served, next, current);
      },
    },
    { dryRun: options.dryRun, subresource, managedFields: managedFieldsHook(ctx, served, manager, subresource), admission },
  );
  return objectResponse(toRequestVersion(served, result.object), 200, output);
}
