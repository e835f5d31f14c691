// The strategy of custom resources (apiextensions-apiserver's
// registry/customresource): status dropped on create and kept by
// main-resource updates when the status subresource is on, a status update
// that changes only the status, metadata.generation = 1 on create and +1 on
// any change outside metadata (and status, with the subresource), schema
// defaulting, and validation — metadata, the version's OpenAPI schema
// (x-kubernetes-list-type uniqueness included) and the scale paths.

import { errors, StatusError } from '../errors/status';
import { fieldErrors, type FieldError } from '../errors/field-errors';
import type { KubeObject, Strategy, StrategyContext } from '../kinds/types';
import { deepEqual } from '../kinds/validation/deep-equal';
import { nameIsDNSSubdomain } from '../kinds/validation/names';
import { finalizerWarnings, validateObjectMeta, validateObjectMetaUpdate } from '../kinds/validation/object-meta';
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from '../schema/defaults';
import { validateCustomResource, validateListSetsAndMaps } from '../schema/typecheck';
import type { SchemaNode } from '../schema/types';
import { validateRules } from './cel-rules';

export interface ScalePaths {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export interface CustomResourceInfo {
  readonly group: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** Schema per served version name. */
  readonly schemas: ReadonlyMap<string, SchemaNode>;
  /** The versions' openAPIV3Schema as written (for x-kubernetes-validations). */
  readonly rawSchemas?: ReadonlyMap<string, unknown>;
  readonly storageVersion: string;
  readonly statusEnabled: boolean;
  readonly scale?: ScalePaths;
  /** The CRD is being deleted: creates are refused. */
  readonly terminating: boolean;
}

const MAX_INT32 = 2147483647;

function clone<T>(x: T): T {
  return x === undefined ? x : (JSON.parse(JSON.stringify(x)) as T);
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Go's %T of an unstructured value. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** unstructured.NestedFieldNoCopy along a dotted path; `found` is false when a segment is missing. */
export function nestedField(obj: unknown, fields: readonly string[]): { value?: unknown; found: boolean; error?: string } {
  let current: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (!isObject(current)) {
      if (current === undefined || current === null) return { found: false };
      return { found: false, error: `${'.' + fields.slice(0, i).join('.')} accessor error: ${String(current)} is of the type ${goType(current)}, expected map[string]interface{}` };
    }
    if (!Object.hasOwn(current, fields[i]!)) return { found: false };
    current = current[fields[i]!];
  }
  return { value: current, found: true };
}

function pathFields(jsonPath: string): string[] {
  return jsonPath.replace(/^\./, '').split('.');
}

/** unstructured.NestedInt64: the error text kube puts in the field error for a non-integer. */
export function nestedInt64(obj: unknown, jsonPath: string): { value: number; found: boolean; error?: string } {
  const fields = pathFields(jsonPath);
  const r = nestedField(obj, fields);
  if (r.error) return { value: 0, found: false, error: r.error };
  if (!r.found) return { value: 0, found: false };
  if (typeof r.value !== 'number' || !Number.isInteger(r.value)) {
    return { value: 0, found: true, error: `.${fields.join('.')} accessor error: ${goValue(r.value)} is of the type ${goType(r.value)}, expected int64` };
  }
  return { value: r.value, found: true };
}

/** unstructured.NestedString. */
export function nestedString(obj: unknown, jsonPath: string): { value: string; found: boolean; error?: string } {
  const fields = pathFields(jsonPath);
  const r = nestedField(obj, fields);
  if (r.error) return { value: '', found: false, error: r.error };
  if (!r.found) return { value: '', found: false };
  if (typeof r.value !== 'string') {
    return { value: '', found: true, error: `.${fields.join('.')} accessor error: ${goValue(r.value)} is of the type ${goType(r.value)}, expected string` };
  }
  return { value: r.value, found: true };
}

/** %v of an unstructured value (enough for the accessor errors). */
function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (isObject(value)) return `map[${Object.keys(value).sort().map((k) => `${k}:${goValue(value[k])}`).join(' ')}]`;
  return String(value);
}

function validateScaleSpec(obj: KubeObject, scale: ScalePaths | undefined): FieldError[] {
  if (!scale) return [];
  const r = nestedInt64(obj, scale.specReplicasPath);
  if (r.error) return [fieldErrors.invalid(scale.specReplicasPath, r.value, r.error)];
  if (r.value < 0) return [fieldErrors.invalid(scale.specReplicasPath, r.value, 'should be a non-negative integer')];
  if (r.value > MAX_INT32) return [fieldErrors.invalid(scale.specReplicasPath, r.value, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

function validateScaleStatus(obj: KubeObject, scale: ScalePaths | undefined): FieldError[] {
  if (!scale) return [];
  const errs: FieldError[] = [];
  const r = nestedInt64(obj, scale.statusReplicasPath);
  if (r.error) errs.push(fieldErrors.invalid(scale.statusReplicasPath, r.value, r.error));
  else if (r.value < 0) errs.push(fieldErrors.invalid(scale.statusReplicasPath, r.value, 'should be a non-negative integer'));
  else if (r.value > MAX_INT32) errs.push(fieldErrors.invalid(scale.statusReplicasPath, r.value, `should be less than or equal to ${MAX_INT32}`));
  if (scale.labelSelectorPath) {
    const s = nestedString(obj, scale.labelSelectorPath);
    if (s.error) errs.push(fieldErrors.invalid(scale.labelSelectorPath, s.value, s.error));
  }
  return errs;
}

/** Everything but metadata, for the generation rule. */
function withoutMetadata(obj: KubeObject): Record<string, unknown> {
  const { metadata: _metadata, ...rest } = obj;
  void _metadata;
  return rest;
}

export function customResourceStrategy(info: CustomResourceInfo): Strategy {
  const schemaFor = (ctx: StrategyContext): SchemaNode | undefined => info.schemas.get(ctx.requestVersion) ?? info.schemas.get(info.storageVersion);
  const rawSchemaFor = (ctx: StrategyContext): unknown => info.rawSchemas?.get(ctx.requestVersion) ?? info.rawSchemas?.get(info.storageVersion);
  /** OpenAPI schema errors, and separately the x-kubernetes-list-type uniqueness errors (kube reports them last). */
  const schemaErrors = (obj: KubeObject, ctx: StrategyContext): { openapi: FieldError[]; lists: FieldError[] } => {
    const schema = schemaFor(ctx);
    if (!schema) return { openapi: [], lists: [] };
    const lists = validateListSetsAndMaps(obj, schema);
    const all = validateCustomResource(obj, schema);
    return { openapi: all.slice(0, all.length - lists.length), lists };
  };
  return {
    default(obj) {
      // Decoding already pruned and defaulted with the request's version; the storage version's defaults apply too.
      const schema = info.schemas.get(info.storageVersion);
      if (!schema) return;
      pruneNonNullableNullsWithoutDefaults(obj, schema);
      applyDefaults(obj, schema);
    },
    prepareForCreate(obj) {
      if (info.terminating) throw terminatingError(info);
      if (info.statusEnabled) delete obj.status;
      obj.metadata = { ...(obj.metadata ?? {}), generation: 1 };
    },
    prepareForUpdate(obj, old, ctx) {
      if (ctx.subresource === 'status') {
        // Only the status changes: everything else is the stored object (managedFields and the precondition stay).
        const status = obj.status;
        const managedFields = obj.metadata?.managedFields;
        const resourceVersion = obj.metadata?.resourceVersion;
        for (const key of Object.keys(obj)) delete obj[key];
        Object.assign(obj, clone(old));
        if (status === undefined) delete obj.status;
        else obj.status = status;
        obj.metadata = { ...(obj.metadata ?? {}) };
        if (managedFields === undefined) delete obj.metadata.managedFields;
        else obj.metadata.managedFields = managedFields;
        if (resourceVersion !== undefined) obj.metadata.resourceVersion = resourceVersion;
        return;
      }
      if (info.statusEnabled) {
        if (old.status !== undefined) obj.status = clone(old.status);
        else delete obj.status;
      }
      const generation = old.metadata?.generation ?? 0;
      const changed = !deepEqual(withoutMetadata(obj), withoutMetadata(old));
      obj.metadata = { ...(obj.metadata ?? {}), generation: changed ? generation + 1 : generation };
    },
    validate(obj, ctx) {
      const { openapi, lists } = schemaErrors(obj, ctx);
      const errs = [
        ...validateObjectMeta(obj.metadata, info.namespaced, nameIsDNSSubdomain),
        ...openapi,
        ...validateScaleSpec(obj, info.scale),
        ...validateScaleStatus(obj, info.scale),
        ...lists,
      ];
      return [...errs, ...validateRules(obj, rawSchemaFor(ctx), undefined, errs)];
    },
    validateUpdate(obj, old, ctx) {
      const { openapi, lists } = schemaErrors(obj, ctx);
      const errs = [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...openapi];
      if (ctx.subresource !== 'status') errs.push(...validateScaleSpec(obj, info.scale));
      errs.push(...validateScaleStatus(obj, info.scale));
      // Ratcheting: list uniqueness is only enforced when the stored object kept it.
      if (schemaErrors(old, ctx).lists.length === 0) errs.push(...lists);
      return [...errs, ...validateRules(obj, rawSchemaFor(ctx), old, errs)];
    },
    warningsOnCreate(obj) {
      return finalizerWarnings(obj.metadata?.finalizers);
    },
    warningsOnUpdate(obj, old) {
      return finalizerWarnings(obj.metadata?.finalizers, old.metadata?.finalizers);
    },
    allowCreateOnUpdate: false,
    // As kube: a PUT must name a resourceVersion (422 otherwise); patches apply to the version they were computed on.
    allowUnconditionalUpdate: false,
  };
}

/** The crdHandler's answer to a create while its CRD is being deleted. */
export function terminatingError(info: { group: string; plural: string }): StatusError {
  const err = errors.methodNotSupported({ group: info.group, resource: info.plural }, 'create');
  err.status.message = 'create not allowed while custom resource definition is terminating';
  return err;
}
