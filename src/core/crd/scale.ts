// The scale subresource of custom resources (apiextensions' ScaleREST): an
// autoscaling/v1 Scale read from the CRD's specReplicasPath,
// statusReplicasPath and labelSelectorPath (a string). GET fails with 500
// when the spec replicas field does not exist; PUT and PATCH (JSON, merge
// and strategic, since Scale is a built-in type) write the replica count
// back into the custom resource, which then goes through the custom
// resource's own update path (its validation reports a negative count).
// Admission sees the Scales, not the custom resource (api/custom/scale-admission).

import { errors } from '../errors/status';
import type { KubeObject, SubresourceDefinition } from '../kinds/types';
import { bodyEncodingFor, decodeObjectBody, readBody } from '../api/body';
import type { RequestScope, ServerContext } from '../api/context';
import { fieldManagerName, managedFieldsHook } from '../api/field-management';
import { requestRecord } from '../api/handlers/request-record';
import { scaleAdmission } from '../api/custom/scale-admission';
import { cloneObject } from '../api/object-codec';
import { getObject, updateObject } from '../api/resource-store';
import { objectResponse } from '../api/respond';
import { parseWriteOptions } from '../api/write-options';
import { applyPatchDetailed, patchInvalid, patchTypeFromContentType, supportedPatchTypes } from '../patch/apply-patch';
import { getBuiltinSchemaTable } from '../schema/builtin-table';
import { applyFieldValidation, builtinBodyProblems, decodeError, strictDecodingErrorMessage } from '../schema/field-validation';
import { pruneBuiltin } from '../schema/prune';
import { nestedInt64, nestedString, type ScalePaths } from './custom-resource-strategy';

/** The name under which the API's subresource handlers know this handler. */
export const CUSTOM_RESOURCE_SCALE_HANDLER = 'custom-resource-scale';

const SCALE_SCHEMA = { ref: 'io.k8s.api.autoscaling.v1.Scale' };
/** Marks a Scale built from an object without spec replicas (kube's smallest int32). */
const INVALID_SPEC_REPLICAS = -2147483648;

interface ScaleView {
  readonly scale: KubeObject;
  readonly replicasFound: boolean;
}

/** scaleFromCustomResource. Accessor errors (a field of the wrong type) are a 500. */
export function scaleFromCustomResource(cr: KubeObject, paths: ScalePaths): ScaleView {
  const spec = nestedInt64(cr, paths.specReplicasPath);
  if (spec.error) throw errors.internal(new Error(spec.error));
  const status = nestedInt64(cr, paths.statusReplicasPath);
  if (status.error) throw errors.internal(new Error(status.error));
  let selector = '';
  if (paths.labelSelectorPath) {
    const s = nestedString(cr, paths.labelSelectorPath);
    if (s.error) throw errors.internal(new Error(s.error));
    selector = s.value;
  }
  const meta = cr.metadata ?? {};
  const metadata: Record<string, unknown> = { name: meta.name };
  if (meta.namespace) metadata['namespace'] = meta.namespace;
  metadata['uid'] = meta.uid;
  metadata['resourceVersion'] = meta.resourceVersion;
  metadata['creationTimestamp'] = meta.creationTimestamp ?? null;
  const scaleStatus: Record<string, unknown> = { replicas: status.value };
  if (selector) scaleStatus['selector'] = selector;
  return {
    scale: {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: metadata as KubeObject['metadata'],
      spec: spec.value ? { replicas: spec.value } : {},
      status: scaleStatus,
    },
    replicasFound: spec.found,
  };
}

function setNested(obj: Record<string, unknown>, jsonPath: string, value: unknown): void {
  const parts = jsonPath.replace(/^\./, '').split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** Decodes a PUT body as an autoscaling/v1 Scale (a built-in type: Go decode errors and field validation apply). */
function decodeScaleBody(text: string, contentType: string | null, directive: 'Ignore' | 'Warn' | 'Strict'): { scale: KubeObject; warnings: string[] } {
  const encoding = bodyEncodingFor(contentType);
  const raw = decodeObjectBody(text, encoding, 'Scale');
  const apiVersion = typeof raw['apiVersion'] === 'string' && raw['apiVersion'] ? (raw['apiVersion'] as string) : 'autoscaling/v1';
  const kind = typeof raw['kind'] === 'string' && raw['kind'] ? (raw['kind'] as string) : 'Scale';
  const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
  if (kind !== 'Scale') {
    throw errors.badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a Scale: converting (${version}.${kind}) to (autoscaling.Scale): unknown conversion`);
  }
  if (apiVersion !== 'autoscaling/v1') {
    throw errors.badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (autoscaling/v1)`);
  }
  const table = getBuiltinSchemaTable();
  const problems = builtinBodyProblems(text, SCALE_SCHEMA, table, { yaml: encoding === 'yaml', parsed: raw });
  const target = { kind: 'Scale', version: 'v1', intoKind: 'Scale', body: text };
  if (problems.error !== undefined) throw decodeError(target, problems.error);
  const warnings = applyFieldValidation(directive, problems.strictErrors, target);
  pruneBuiltin(raw, SCALE_SCHEMA, table);
  return { scale: raw as KubeObject, warnings };
}

export async function handleCustomResourceScale(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): Promise<Response> {
  const { served, route, request, output, query } = scope;
  const paths: ScalePaths = sub.scale ?? { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') {
    const { object } = await getObject(ctx, served, route.namespace, route.name);
    const view = scaleFromCustomResource(object, paths);
    if (!view.replicasFound) throw errors.internal(new Error(`the spec replicas field ${JSON.stringify(paths.specReplicasPath)} does not exist`));
    return objectResponse(view.scale, 200, output);
  }
  if (method !== 'PUT' && method !== 'PATCH') throw errors.methodNotAllowedOnPath();
  const options = parseWriteOptions(query, method === 'PUT' ? 'UpdateOptions' : 'PatchOptions');
  const patchKind = method === 'PATCH' ? patchTypeFromContentType(request.headers.get('content-type')) : undefined;
  if (patchKind === 'apply') throw errors.unsupportedMediaType('application/apply-patch+yaml', supportedPatchTypes());
  const text = await readBody(request);
  // Warnings go to the request's record: the pipeline sends them with the answer, an error included.
  const record = requestRecord(request);
  let bodyScale: KubeObject | undefined;
  if (patchKind === undefined) {
    const decoded = decodeScaleBody(text, request.headers.get('content-type'), options.fieldValidation);
    bodyScale = decoded.scale;
    record.addWarnings(decoded.warnings);
    const bodyName = bodyScale.metadata?.name;
    if (bodyName !== undefined && bodyName !== route.name) {
      throw errors.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${route.name})`);
    }
  }
  const manager = fieldManagerName(options.fieldManager, scope.userAgent);
  const table = getBuiltinSchemaTable();
  const admission = scaleAdmission(ctx, scope, sub, options, method === 'PUT' ? 'UpdateOptions' : 'PatchOptions', (obj) => scaleFromCustomResource(obj, paths).scale);
  const result = await updateObject(
    ctx,
    served,
    route.namespace,
    route.name,
    {
      allowCreate: false,
      transform: async (current) => {
        if (!current) throw errors.notFound(served.groupResource, route.name);
        const view = scaleFromCustomResource(current, paths);
        const oldScale = cloneObject(view.scale);
        if (!view.replicasFound) oldScale['spec'] = { replicas: INVALID_SPEC_REPLICAS };
        let scale: KubeObject;
        if (patchKind !== undefined) {
          const patched = applyPatchDetailed(patchKind, oldScale, text, { node: SCALE_SCHEMA, table }, { fieldValidation: options.fieldValidation });
          const patchedJson = JSON.stringify(patched.object);
          const problems = builtinBodyProblems(patchedJson, SCALE_SCHEMA, table, { parsed: patched.object });
          if (problems.error !== undefined) throw patchInvalid(patchedJson, problems.error);
          const all = options.fieldValidation === 'Ignore' ? [] : [...patched.strictErrors, ...problems.strictErrors];
          if (options.fieldValidation === 'Strict' && all.length) throw patchInvalid(patchedJson, strictDecodingErrorMessage(all));
          record.addWarnings(all);
          scale = patched.object;
        } else {
          scale = cloneObject(bodyScale!);
        }
        await admission.run.mutate(scale, view.scale);
        const replicas = (scale['spec'] as { replicas?: unknown } | undefined)?.replicas ?? 0;
        if (replicas === INVALID_SPEC_REPLICAS) {
          throw errors.badRequest(`the spec replicas field ${JSON.stringify(paths.specReplicasPath)} cannot be empty`);
        }
        const next = cloneObject(current) as Record<string, unknown>;
        setNested(next, paths.specReplicasPath, replicas);
        const meta = next['metadata'] as Record<string, unknown>;
        const rv = scale.metadata?.resourceVersion;
        // A resourceVersion in the Scale is a precondition; without one the write applies to the current object.
        meta['resourceVersion'] = rv || current.metadata?.resourceVersion;
        return next as KubeObject;
      },
    },
    { dryRun: options.dryRun, subresource: 'scale', managedFields: managedFieldsHook(ctx, served, manager, 'scale'), admission: admission.hooks },
  );
  return objectResponse(scaleFromCustomResource(result.object, paths).scale, 200, output);
}
