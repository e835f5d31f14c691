// The scale subresource: the parent's replica count seen as an
// autoscaling/v1 Scale. GET builds the Scale; PUT and PATCH change the
// parent's spec.replicas (409 on a stale resourceVersion, as for any update).
// Admission sees an UPDATE of <resource>/scale whose objects are Scales (kube's
// ScaleREST): mutating plugins change the new Scale before its replicas are
// written to the parent, validating ones see the parent's before and after as
// Scales. Managed fields go through the Scale as kube's ScaleHandler takes
// them: the owners of the parent's replicas become the Scale's, the field
// manager records the write on the Scales, and the result is folded back into
// the parent's entries (a new scale manager's entry has no time, as in kube).

import { errors } from '../../errors/status';
import { fieldErrors } from '../../errors/field-errors';
import type { KubeObject, SubresourceDefinition } from '../../kinds/types';
import { labelSelectorAsSelector } from '../../selectors';
import { readBody } from '../body';
import type { RequestScope, ServerContext } from '../context';
import { readTypedBody } from '../decode-object';
import { cloneObject } from '../object-codec';
import { getObject, updateObject } from '../resource-store';
import { objectResponse } from '../respond';
import { parseWriteOptions } from '../write-options';
import { scaleAdmission } from './scale-admission';
import { rfc3339 } from '../../clock';
import { scaleToParent, scaleToSubresource, SCALE_API_VERSION, updateManagedFields } from '../../fieldmanager';
import { fieldManagerName } from '../field-management';
import { applyPatchDetailed, patchTypeFromContentType } from '../../patch/apply-patch';
import { getBuiltinSchemaTable } from '../../schema/builtin-table';

function pathParts(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

function readPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of pathParts(path)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = pathParts(path);
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    if (cur[part] === null || typeof cur[part] !== 'object') cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** A selector in its string form: a LabelSelector object (workloads) or a plain map (ReplicationController). */
function selectorString(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const v = value as Record<string, unknown>;
  if ('matchLabels' in v || 'matchExpressions' in v) {
    try {
      return labelSelectorAsSelector(v as never).toString();
    } catch {
      return '';
    }
  }
  return Object.keys(v)
    .sort()
    .map((k) => `${k}=${String(v[k])}`)
    .join(',');
}

export function toScale(parent: KubeObject, sub: SubresourceDefinition): KubeObject {
  const paths = sub.scale ?? { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
  const meta = parent.metadata ?? {};
  const status: Record<string, unknown> = { replicas: Number(readPath(parent, paths.statusReplicasPath) ?? 0) };
  const selector = paths.labelSelectorPath ? selectorString(readPath(parent, paths.labelSelectorPath)) : '';
  if (selector) status['selector'] = selector;
  return {
    kind: 'Scale',
    apiVersion: `${sub.group ?? 'autoscaling'}/${sub.version ?? 'v1'}`,
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: Number(readPath(parent, paths.specReplicasPath) ?? 0) },
    status,
  };
}

export async function handleScale(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): Promise<Response> {
  const { served, route, request, output, query } = scope;
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') {
    const { object } = await getObject(ctx, served, route.namespace, route.name);
    return objectResponse(toScale(object, sub), 200, output);
  }
  if (method !== 'PUT' && method !== 'PATCH') throw errors.methodNotAllowedOnPath();
  const options = parseWriteOptions(query, method === 'PUT' ? 'UpdateOptions' : 'PatchOptions');
  const patchBody = method === 'PATCH' ? await readBody(request) : '';
  const putBody = method === 'PUT' ? await readTypedBody(request, { group: 'autoscaling', version: 'v1', kind: 'Scale' }) : undefined;
  const specPath = sub.scale?.specReplicasPath ?? '.spec.replicas';
  const patchKind = method === 'PATCH' ? patchTypeFromContentType(request.headers.get('content-type')) : undefined;
  if (patchKind === 'apply') throw errors.unsupportedMediaType('application/apply-patch+yaml', []);
  const scaleSchema = { node: { ref: 'io.k8s.api.autoscaling.v1.Scale' }, table: getBuiltinSchemaTable() };
  const admission = scaleAdmission(ctx, scope, sub, options, method === 'PUT' ? 'UpdateOptions' : 'PatchOptions', (obj) => toScale(obj, sub));
  const manager = fieldManagerName(options.fieldManager, scope.userAgent);
  // The parent's replicas path in the served version (kube's replicasPathInDeployment & co).
  const mappings = { [served.apiVersion]: pathParts(specPath) };
  const result = await updateObject(
    ctx,
    served,
    route.namespace,
    route.name,
    {
      allowCreate: false,
      transform: async (current) => {
        if (!current) throw errors.notFound(served.groupResource, route.name);
        const currentScale = toScale(current, sub);
        const scaleEntries = scaleToSubresource(current.metadata?.managedFields, mappings);
        if (scaleEntries) currentScale.metadata = { ...currentScale.metadata, managedFields: scaleEntries };
        const scale: KubeObject =
          patchKind !== undefined
            ? (applyPatchDetailed(patchKind, cloneObject(currentScale), patchBody, scaleSchema).object as KubeObject)
            : (cloneObject(putBody!) as KubeObject);
        // kube's update transformers on the Scale: the field manager, then mutating admission.
        const tracked = updateManagedFields({
          live: currentScale,
          updated: scale,
          manager,
          apiVersion: SCALE_API_VERSION,
          kind: 'Scale',
          subresource: 'scale',
          now: rfc3339(ctx.clock.now()),
          schema: { root: scaleSchema.node, table: scaleSchema.table },
        });
        scale.metadata = { ...(scale.metadata ?? {}) };
        if (tracked.metadata?.managedFields) scale.metadata.managedFields = tracked.metadata.managedFields;
        else delete scale.metadata.managedFields;
        await admission.run.mutate(scale, currentScale);
        const replicas = (scale['spec'] as { replicas?: unknown } | undefined)?.replicas ?? 0;
        if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
          throw errors.invalid({ group: 'autoscaling', kind: 'Scale' }, route.name, [
            fieldErrors.invalid('spec.replicas', replicas, 'must be greater than or equal to 0'),
          ]);
        }
        const next = cloneObject(current) as Record<string, unknown>;
        writePath(next, specPath, replicas);
        const parentEntries = scaleToParent(current.metadata?.managedFields, scale.metadata?.managedFields, served.apiVersion, mappings);
        const nextMeta = next['metadata'] as Record<string, unknown>;
        if (parentEntries) nextMeta['managedFields'] = parentEntries;
        else delete nextMeta['managedFields'];
        const rv = (scale['metadata'] as { resourceVersion?: string } | undefined)?.resourceVersion;
        // A PUT names the version it read (409 when stale); a patch applies to the version it was computed on.
        (next['metadata'] as Record<string, unknown>)['resourceVersion'] = patchKind !== undefined ? current.metadata?.resourceVersion : rv;
        return next as KubeObject;
      },
    },
    { dryRun: options.dryRun, subresource: 'scale', admission: admission.hooks },
  );
  return objectResponse(toScale(result.object, sub), 200, output);
}
