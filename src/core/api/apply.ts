// Server-side apply (PATCH with application/apply-patch+yaml): the applied
// intent merged into the live object by the field manager, creating the
// object when it does not exist, with conflicts answered 409 and nothing
// stored on any failure.

import { rfc3339 } from '../clock';
import { errors } from '../errors/status';
import { applyPatch as applyFieldManaged, decodeApplyBody } from '../fieldmanager';
import type { KubeObject } from '../kinds/types';
import type { RequestScope, ServerContext } from './context';
import { checkTypeMeta, prepareDecoded } from './decode-object';
import { fieldManagerSchema } from './field-management';
import { AdmissionRun, writeOptionsObject } from '../admission/request';
import { cloneObject } from './object-codec';
import { reconcileNamespace } from './object-meta';
import { strategyContext, toRequestVersion, updateObject } from './resource-store';
import { objectResponse } from './respond';
import { requestRecord } from './handlers/request-record';
import { mergeSubresourceUpdate, preserveSubresourceFields, statusSubresource } from './subresources';
import type { WriteQueryOptions } from './write-options';

export async function serverSideApply(ctx: ServerContext, scope: RequestScope, body: string, options: WriteQueryOptions): Promise<Response> {
  const { served, route, output } = scope;
  const subresource = route.subresource;
  const status = subresource ? statusSubresource(served, subresource) : undefined;
  const applied = decodeApplyBody(body);
  const manager = options.fieldManager!;
  const sctx = strategyContext(ctx, served, subresource, options.dryRun);
  const defaulter = (obj: KubeObject) => served.definition.strategy.default?.(obj, sctx);
  const admission = new AdmissionRun(ctx, {
    served,
    namespace: route.namespace,
    name: route.name,
    subresource,
    dryRun: options.dryRun,
    options: writeOptionsObject('PatchOptions', options),
    recorder: requestRecord(scope.request),
  });
  const result = await updateObject(
    ctx,
    served,
    route.namespace,
    route.name,
    {
      // Apply creates the object when it does not exist (never through a subresource).
      allowCreate: !subresource,
      transform: async (current) => {
        const live = current ? cloneObject(toRequestVersion(served, current)) : undefined;
        const merged = applyFieldManaged({
          live,
          applied: cloneObject(applied),
          manager,
          force: options.force === true,
          apiVersion: served.apiVersion,
          kind: served.definition.kind,
          subresource,
          now: rfc3339(ctx.clock.now()),
          schema: fieldManagerSchema(served),
          defaulter,
        }).object as Record<string, unknown>;
        checkTypeMeta(ctx, merged, served);
        const next = prepareDecoded(ctx, served, merged as KubeObject, subresource);
        reconcileNamespace(next, route.namespace, served.definition.namespaced);
        const meta = next.metadata!;
        if (meta.name && meta.name !== route.name) {
          throw errors.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${route.name})`);
        }
        meta.name = route.name;
        if (!current) return next;
        // An applied resourceVersion is a precondition; otherwise the apply is on the version it merged with.
        if (!applied.metadata?.resourceVersion) meta.resourceVersion = current.metadata?.resourceVersion;
        return status ? mergeSubresourceUpdate(status, next, current) : preserveSubresourceFields(served, next, current);
      },
    },
    { dryRun: options.dryRun, subresource, admission, warn: (w) => requestRecord(scope.request).addWarning(w) },
  );
  return objectResponse(toRequestVersion(served, result.object), result.created ? 201 : 200, output);
}
