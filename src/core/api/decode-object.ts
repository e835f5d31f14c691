// Turning a request body into the object a write works on: decode JSON or
// YAML, check its apiVersion and kind against the endpoint (kube's codec
// errors), field validation (unknown and duplicate fields), pruning,
// conversion to the storage version and scheme defaulting.

import { errors } from '../errors/status';
import type { KubeObject } from '../kinds/types';
import { bodyEncodingFor, decodeObjectBody, readBody, readBodyBytes } from './body';
import { canEncodeProtobuf, decodeKubernetesProtobuf } from '../protobuf';
import type { ServerContext } from './context';
import type { ServedResource } from './registry';
import { strategyContext, toStorageVersion } from './resource-store';
import { checkUnknownFields } from './field-validation';
import { checkCustomResourceTypeMeta, isCustomResource } from '../crd/decode';
import type { FieldValidationDirective } from './write-options';
import { builtinSchemaRef, getBuiltinSchemaTable, rootDefinitionFor } from '../schema/builtin-table';
import { builtinBodyProblems, decodeError } from '../schema/field-validation';
import { pruneBuiltin } from '../schema/prune';

function coreGroupName(group: string): string {
  return group === '' ? 'core' : group;
}

/**
 * kube-apiserver decodes a body into the endpoint's type with the endpoint's
 * group/version/kind as defaults for missing parts; a body of another kind
 * fails conversion, one of another version of the same kind is refused.
 */
export function checkTypeMeta(ctx: ServerContext, obj: Record<string, unknown>, served: ServedResource, body?: string): void {
  // Custom resources: the CRD codec's rules (kind required, apiVersion one of the CRD's versions, wrong kind a 422).
  if (isCustomResource(served)) return checkCustomResourceTypeMeta(obj, served, body);
  const expectedApiVersion = served.apiVersion;
  const apiVersion = typeof obj['apiVersion'] === 'string' && obj['apiVersion'] ? (obj['apiVersion'] as string) : expectedApiVersion;
  const kind = typeof obj['kind'] === 'string' && obj['kind'] ? (obj['kind'] as string) : served.definition.kind;
  const slash = apiVersion.lastIndexOf('/');
  const group = slash === -1 ? '' : apiVersion.slice(0, slash);
  const version = slash === -1 ? apiVersion : apiVersion.slice(slash + 1);
  if (kind !== served.definition.kind) {
    const known = ctx.registry.lookupKind(group, version, kind);
    const endpointKind = served.definition.kind;
    if (!known) {
      throw errors.badRequest(
        `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${endpointKind}: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"`,
      );
    }
    throw errors.badRequest(
      `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${endpointKind}: converting (${version}.${kind}) to (${coreGroupName(served.group)}.${endpointKind}): unknown conversion`,
    );
  }
  if (apiVersion !== expectedApiVersion) {
    throw errors.badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expectedApiVersion})`);
  }
  obj['apiVersion'] = apiVersion;
  obj['kind'] = kind;
}

export interface DecodedWrite {
  /** The object in the storage version, defaulted. */
  readonly object: KubeObject;
  readonly warnings: string[];
}

/** Reads the request body and decodes it for a create or update. */
export async function decodeWriteBody(
  ctx: ServerContext,
  request: Request,
  served: ServedResource,
  directive: FieldValidationDirective,
  subresource: string,
): Promise<DecodedWrite> {
  const encoding = bodyEncodingFor(request.headers.get('content-type'));
  if (encoding === 'protobuf') return decodeProtobufWriteBody(ctx, request, served, subresource);
  const text = await readBody(request);
  const raw = decodeObjectBody(text, encoding, served.definition.kind);
  checkTypeMeta(ctx, raw, served, text);
  const warnings = checkUnknownFields(served, raw, text, encoding, directive);
  return { object: prepareDecoded(ctx, served, raw as KubeObject, subresource), warnings };
}

/**
 * A protobuf body (kubectl's typed clients send them). Built-in kinds only:
 * kube's custom-resource handler does not list the protobuf media type.
 * Protobuf cannot carry unknown or duplicate fields, so there are no
 * field-validation warnings.
 */
async function decodeProtobufWriteBody(ctx: ServerContext, request: Request, served: ServedResource, subresource: string): Promise<DecodedWrite> {
  if (!canEncodeProtobuf(served.apiVersion, served.definition.kind)) {
    throw errors.unsupportedMediaType('application/vnd.kubernetes.protobuf', ['application/json', 'application/yaml']);
  }
  const bytes = await readBodyBytes(request);
  const { object } = decodeKubernetesProtobuf(bytes, { group: served.group, version: served.version.name, kind: served.definition.kind });
  checkTypeMeta(ctx, object, served);
  return { object: prepareDecoded(ctx, served, object as KubeObject, subresource), warnings: [] };
}

/** Conversion to the storage version and scheme defaulting of an already-decoded object. */
export function prepareDecoded(ctx: ServerContext, served: ServedResource, obj: KubeObject, subresource: string): KubeObject {
  const stored = toStorageVersion(served, obj);
  served.definition.strategy.default?.(stored, strategyContext(ctx, served, subresource, false));
  return stored;
}

/**
 * Reads the body of a subresource whose kind is not the parent's (Binding,
 * Eviction, Scale, TokenRequest, the review objects) in any encoding a
 * client may send, without schema checks.
 */
export async function readTypedBody(request: Request, expected: { group: string; version: string; kind: string }): Promise<Record<string, unknown>> {
  const encoding = bodyEncodingFor(request.headers.get('content-type'));
  if (encoding === 'protobuf') {
    return decodeKubernetesProtobuf(await readBodyBytes(request), expected).object;
  }
  const text = await readBody(request);
  const obj = decodeObjectBody(text, encoding, expected.kind);
  checkTypedBodyTypes(obj, text, encoding === 'yaml', expected);
  return obj;
}

/**
 * A Go type error in a subresource or review body (a number where the struct
 * has a string, …) is kube's 400 decode error, as for any other write; unknown
 * fields are dropped as decoding into the Go type drops them.
 */
function checkTypedBodyTypes(obj: Record<string, unknown>, text: string, yaml: boolean, expected: { group: string; version: string; kind: string }): void {
  if (rootDefinitionFor(expected.group, expected.version, expected.kind) === undefined) return;
  const root = builtinSchemaRef(expected.group, expected.version, expected.kind);
  const table = getBuiltinSchemaTable();
  const problems = builtinBodyProblems(text, root, table, { yaml, parsed: obj });
  if (problems.error !== undefined) {
    const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
    const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
    throw decodeError({ kind, version: apiVersion.slice(apiVersion.lastIndexOf('/') + 1), intoKind: expected.kind, body: text }, problems.error);
  }
  pruneBuiltin(obj, root, table);
}
