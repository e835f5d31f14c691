// delete and deletecollection, with DeleteOptions from the body or the query.

import { errors, isStatusError } from '../../errors/status';
import { fieldErrors, type FieldError } from '../../errors/field-errors';
import type { KubeObject } from '../../kinds/types';
import { mediaTypeOf, parseYaml, readBody, readBodyBytes } from '../body';
import { decodeKubernetesProtobuf, isProtobufMediaType } from '../../protobuf';
import type { RequestScope, ServerContext } from '../context';
import { AdmissionRun } from '../../admission/request';
import { buildPredicate } from '../predicate';
import { decode, deleteObject, toRequestVersion, unsafeDeleteCorrupt, type DeleteInput } from '../resource-store';
import { inGoOrder } from '../../serialization/go-order';
import { isCustomResource } from '../../crd';
import { objectResponse } from '../respond';
import { requestRecord } from './request-record';
import { readList } from './read';
import { validateDryRun } from '../write-options';
import { queryBool } from '../query-bool';

interface DeleteOptionsBody {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: string;
  dryRun?: string[];
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

export interface ParsedDeleteOptions extends DeleteInput {
  readonly unsafeIgnoreReadErrors: boolean;
}

async function readDeleteOptions(ctx: ServerContext, request: Request, query: URLSearchParams): Promise<ParsedDeleteOptions> {
  let body: DeleteOptionsBody = {};
  // client-go's typed clients send DeleteOptions as protobuf ({apiVersion: <client's group version>, kind: DeleteOptions}).
  const protobuf = isProtobufMediaType(request.headers.get('content-type'));
  const bytes = protobuf ? await readBodyBytes(request) : undefined;
  if (bytes && bytes.length) {
    const decoded = decodeKubernetesProtobuf(bytes, { group: '', version: 'v1', kind: 'DeleteOptions' });
    if (decoded.kind !== 'DeleteOptions') {
      throw errors.badRequest(`${decoded.kind} in version "v1" cannot be handled as a DeleteOptions: converting to DeleteOptions: unknown kind`);
    }
    body = decoded.object as DeleteOptionsBody;
  }
  const text = protobuf ? '' : await readBody(request);
  if (text.trim()) {
    let parsed: unknown;
    try {
      parsed = mediaTypeOf(request.headers.get('content-type')) === 'application/yaml' ? parseYaml(text) : JSON.parse(text);
    } catch (err) {
      throw errors.badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw errors.badRequest('the body of the request must be a DeleteOptions object');
    const kind = (parsed as { kind?: unknown }).kind;
    if (kind !== undefined && kind !== 'DeleteOptions') {
      throw errors.badRequest(`${String(kind)} in version "v1" cannot be handled as a DeleteOptions: converting to DeleteOptions: unknown kind`);
    }
    body = parsed as DeleteOptionsBody;
  }
  // Query parameters fill what the body leaves out (kube decodes both into one DeleteOptions).
  const grace = query.get('gracePeriodSeconds');
  if (body.gracePeriodSeconds === undefined && grace !== null && grace !== '') {
    if (!/^-?\d+$/.test(grace)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(grace)}: invalid syntax`);
    body.gracePeriodSeconds = Number(grace);
  }
  const policy = query.get('propagationPolicy');
  if (body.propagationPolicy === undefined && policy) body.propagationPolicy = policy;
  const orphan = query.get('orphanDependents');
  if (body.orphanDependents === undefined && orphan !== null) body.orphanDependents = queryBool(orphan);
  const unsafeQuery = query.get('ignoreStoreReadErrorWithClusterBreakingPotential');
  if (body.ignoreStoreReadErrorWithClusterBreakingPotential === undefined && unsafeQuery !== null) {
    body.ignoreStoreReadErrorWithClusterBreakingPotential = queryBool(unsafeQuery);
  }
  const dryRun = query.getAll('dryRun');
  if (body.dryRun === undefined && dryRun.length) body.dryRun = dryRun;

  const errs: FieldError[] = [];
  if (body.orphanDependents !== undefined && body.propagationPolicy !== undefined) {
    errs.push(fieldErrors.invalid('propagationPolicy', body.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (body.propagationPolicy !== undefined && !['Foreground', 'Background', 'Orphan'].includes(body.propagationPolicy)) {
    errs.push(fieldErrors.notSupported('propagationPolicy', body.propagationPolicy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  errs.push(...validateDryRun(body.dryRun ?? []));
  // With the gate off the option is dropped, as kube-apiserver drops it.
  const unsafe = body.ignoreStoreReadErrorWithClusterBreakingPotential === true && ctx.featureGates.enabled('AllowUnsafeMalformedObjectDeletion');
  if (unsafe) {
    const path = 'ignoreStoreReadErrorWithClusterBreakingPotential';
    if ((body.dryRun ?? []).length) errs.push(fieldErrors.invalid(path, true, 'cannot be set together with .dryRun'));
    if (body.propagationPolicy !== undefined) errs.push(fieldErrors.invalid(path, true, 'cannot be set together with .propagationPolicy'));
    if (body.orphanDependents !== undefined) errs.push(fieldErrors.invalid(path, true, 'cannot be set together with .orphanDependents'));
    if (body.gracePeriodSeconds !== undefined) errs.push(fieldErrors.invalid(path, true, 'cannot be set together with .gracePeriodSeconds'));
    if (body.preconditions !== undefined) errs.push(fieldErrors.invalid(path, true, 'cannot be set together with .preconditions'));
  }
  if (errs.length) throw errors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return {
    preconditions: body.preconditions,
    propagationPolicy: body.propagationPolicy as DeleteInput['propagationPolicy'],
    orphanDependents: body.orphanDependents,
    gracePeriodSeconds: body.gracePeriodSeconds,
    dryRun: (body.dryRun ?? []).includes('All'),
    unsafeIgnoreReadErrors: unsafe,
  };
}

/** The DeleteOptions admission plugins see (attributes' options). */
function deleteOptionsObject(options: ParsedDeleteOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
  if (options.gracePeriodSeconds !== undefined) out['gracePeriodSeconds'] = options.gracePeriodSeconds;
  if (options.preconditions) out['preconditions'] = options.preconditions;
  if (options.propagationPolicy) out['propagationPolicy'] = options.propagationPolicy;
  if (options.orphanDependents !== undefined) out['orphanDependents'] = options.orphanDependents;
  if (options.dryRun) out['dryRun'] = ['All'];
  return out;
}

function successStatus(scope: RequestScope, obj: KubeObject): KubeObject {
  const details: Record<string, unknown> = { name: obj.metadata?.name ?? '' };
  if (scope.served.group) details['group'] = scope.served.group;
  details['kind'] = scope.served.definition.plural;
  details['uid'] = obj.metadata?.uid ?? '';
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

export async function handleDelete(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { served, route, request, query, output } = scope;
  if (route.subresource) throw errors.methodNotAllowedOnPath();
  const options = await readDeleteOptions(ctx, request, query);
  const admission = new AdmissionRun(ctx, {
    served,
    namespace: route.namespace,
    name: route.name,
    subresource: '',
    dryRun: options.dryRun,
    options: deleteOptionsObject(options),
    recorder: requestRecord(request),
  });
  let result;
  try {
    result = await deleteObject(ctx, served, route.namespace, route.name, { ...options, admission });
  } catch (err) {
    if (options.unsafeIgnoreReadErrors && isStatusError(err) && err.reason === 'StorageReadError') {
      const removed = await unsafeDeleteCorrupt(ctx, served, route.namespace, route.name);
      return objectResponse(
        successStatus(scope, { metadata: { name: route.name, uid: '' } }),
        200,
        output,
        { 'X-Kubetab-Unsafe-Delete': String(removed.modRevision) },
      );
    }
    throw err;
  }
  // kube answers 202 when the object waits for finalizers and the client asked for cascading (orphanDependents=false).
  const code = !result.deleted && options.orphanDependents === false ? 202 : 200;
  if (!result.deleted || served.definition.returnDeletedObject) {
    return objectResponse(toRequestVersion(served, result.object), code, output);
  }
  return objectResponse(successStatus(scope, result.object), code, output);
}

export async function handleDeleteCollection(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { served, route, request, query, output } = scope;
  const options = await readDeleteOptions(ctx, request, query);
  const predicate = buildPredicate(scope);
  const listed = await readList(ctx, scope, predicate);
  const deleted: KubeObject[] = [];
  const admission = new AdmissionRun(ctx, {
    served,
    namespace: route.namespace,
    name: '',
    subresource: '',
    dryRun: options.dryRun,
    options: deleteOptionsObject(options),
    recorder: requestRecord(request),
  });
  for (const kv of listed.items) {
    const obj = decode(ctx, served, kv);
    const name = obj.metadata?.name ?? '';
    if (served.group === '' && served.definition.plural === 'namespaces' && ['default', 'kube-system', 'kube-public'].includes(name)) continue;
    try {
      const result = await deleteObject(ctx, served, obj.metadata?.namespace ?? route.namespace, name, { ...options, admission });
      deleted.push(toRequestVersion(served, result.object));
    } catch (err) {
      // An object deleted meanwhile is not an error for a collection delete.
      if (isStatusError(err) && err.code === 404) continue;
      throw err;
    }
  }
  const list = { kind: served.definition.listKind, apiVersion: served.apiVersion, metadata: { resourceVersion: String(ctx.store.currentRevision()) }, items: deleted };
  // A custom resource's list is unstructured too: its keys come sorted (apiVersion, items, kind, metadata).
  const of = isCustomResource(served) ? ({ custom: true } as const) : { apiVersion: served.apiVersion, kind: served.definition.listKind };
  return objectResponse(inGoOrder(list, of), 200, output);
}
