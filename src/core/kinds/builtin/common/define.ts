// Builders for ResourceDefinitions so each kind file states only what is
// particular to it. Conventions a 1.32 server follows everywhere: listKind
// is <Kind>List, the singular name is the lower-cased kind, the full verb set
// for ordinary stored resources, and status subresources with get/patch/update.

import type { SchemaNode } from '../../../schema/types';
import { deleteReturnsObject } from '../../../schema/generated/index';
import type {
  ResourceDefinition,
  ResourceVersionDefinition,
  Strategy,
  SubresourceDefinition,
  TableDefinition,
  Verb,
} from '../../types';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** Namespaces cannot be deleted as a collection. */
export const VERBS_NO_DELETECOLLECTION: readonly Verb[] = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
export const CREATE_ONLY: readonly Verb[] = ['create'];
export const GET_PATCH_UPDATE: readonly Verb[] = ['get', 'patch', 'update'];

export function statusSubresource(kind: string, fields: readonly string[] = ['status']): SubresourceDefinition {
  return { name: 'status', kind, verbs: GET_PATCH_UPDATE, type: 'status', fields };
}

/** The scale subresource of the workload kinds: an autoscaling/v1 Scale. */
export function scaleSubresource(): SubresourceDefinition {
  return {
    name: 'scale',
    kind: 'Scale',
    group: 'autoscaling',
    version: 'v1',
    verbs: GET_PATCH_UPDATE,
    type: 'custom',
    handler: 'scale',
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' },
  };
}

export function customSubresource(name: string, kind: string, verbs: readonly Verb[], handler: string, gv?: { group: string; version: string }): SubresourceDefinition {
  return gv ? { name, kind, group: gv.group, version: gv.version, verbs, type: 'custom', handler } : { name, kind, verbs, type: 'custom', handler };
}

/** The schema reference of a built-in kind (the OpenAPI components.schemas name). */
export function ref(name: string): SchemaNode {
  return { ref: name };
}

export interface VersionOptions {
  /** Served by a default 1.32 server (alpha and most beta group-versions are not). */
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  table?: TableDefinition;
}

export function version(name: string, schemaName: string, opts: VersionOptions = {}): ResourceVersionDefinition {
  const v: ResourceVersionDefinition = {
    name,
    served: opts.served ?? true,
    storage: opts.storage ?? true,
    schema: ref(schemaName),
    ...(opts.deprecated ? { deprecated: true } : {}),
    ...(opts.deprecationWarning ? { deprecationWarning: opts.deprecationWarning } : {}),
    ...(opts.table ? { table: opts.table } : {}),
  };
  return v;
}

export interface ResourceSpec {
  group: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  versions: ResourceVersionDefinition[];
  strategy?: Strategy;
  singular?: string;
  shortNames?: string[];
  categories?: string[];
  verbs?: readonly Verb[];
  subresources?: SubresourceDefinition[];
  fieldSelectors?: ResourceDefinition['fieldSelectors'];
  table?: TableDefinition;
  virtual?: boolean;
  handler?: string;
  convert?: ResourceDefinition['convert'];
  sharedStorage?: ResourceDefinition['sharedStorage'];
  defaultPropagationPolicy?: ResourceDefinition['defaultPropagationPolicy'];
}

const deletesReturningObject = new Set(deleteReturnsObject);

export function defineResource(spec: ResourceSpec): ResourceDefinition {
  const def: ResourceDefinition = {
    group: spec.group,
    plural: spec.plural,
    singular: spec.singular ?? spec.kind.toLowerCase(),
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    namespaced: spec.namespaced,
    verbs: spec.verbs ?? ALL_VERBS,
    versions: spec.versions,
    strategy: spec.strategy ?? {},
    ...(spec.shortNames?.length ? { shortNames: spec.shortNames } : {}),
    ...(spec.categories?.length ? { categories: spec.categories } : {}),
    ...(spec.subresources?.length ? { subresources: spec.subresources } : {}),
    ...(spec.fieldSelectors ? { fieldSelectors: spec.fieldSelectors } : {}),
    ...(spec.table ? { table: spec.table } : {}),
    ...(spec.virtual ? { virtual: true } : {}),
    ...(spec.handler ? { handler: spec.handler } : {}),
    ...(spec.convert ? { convert: spec.convert } : {}),
    ...(spec.sharedStorage ? { sharedStorage: spec.sharedStorage } : {}),
    // Whether DELETE answers with the object or a Status is a fact of each 1.32 store (its published delete response).
    ...(deletesReturningObject.has(`${spec.group}/${spec.plural}`) ? { returnDeletedObject: true } : {}),
    ...(spec.defaultPropagationPolicy ? { defaultPropagationPolicy: spec.defaultPropagationPolicy } : {}),
  };
  return def;
}

/** Review objects and other create-only, never-stored resources. */
export function virtualResource(spec: Omit<ResourceSpec, 'verbs' | 'virtual'> & { handler: string }): ResourceDefinition {
  return defineResource({ ...spec, verbs: CREATE_ONLY, virtual: true });
}
