// A resource is declared as data: names, scope, versions with their schemas,
// table columns, field selectors, and a strategy (the hooks kube-apiserver's
// generic registry calls). The generic handlers serve every declared resource;
// there is no per-kind HTTP code.

import type { Clock } from '../clock';
import type { FieldError } from '../errors/field-errors';
import type { SchemaNode } from '../schema/types';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  [extra: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** Any API object as JSON. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** What a strategy hook may know about the request it serves. */
export interface StrategyContext {
  readonly clock: Clock;
  /** '' for the main resource, else 'status', 'scale', … */
  readonly subresource: string;
  readonly dryRun: boolean;
  /** The API version of the request (the object is in the storage version when hooks run). */
  readonly requestVersion: string;
  /** Reads another object (e.g. a Service allocator checking a range); undefined when absent. */
  readonly lookup?: (resource: { group: string; resource: string }, namespace: string, name: string) => Promise<KubeObject | undefined>;
  /** Per-server services kinds may need (IP and port allocators, …), keyed by name. */
  readonly services: Readonly<Record<string, unknown>>;
  /**
   * The requesting user, for kinds that record it (a CertificateSigningRequest's
   * spec.username/uid/groups/extra). (Additive: kinds.)
   */
  readonly user?: { readonly username: string; readonly uid?: string; readonly groups?: readonly string[]; readonly extra?: Readonly<Record<string, readonly string[]>> };
}

/**
 * The hooks of k8s.io/apiserver's RESTCreateStrategy / RESTUpdateStrategy /
 * RESTDeleteStrategy, in the order the generic handlers call them. Every hook
 * receives objects in the storage version.
 *
 * create: default → prepareForCreate → validate → (canonicalize) → store
 * update: default → prepareForUpdate(new, old) → validateUpdate → store
 */
export interface Strategy {
  /** Scheme defaulting (SetDefaults_*), applied to every object decoded from a request body. May mutate. */
  default?(obj: KubeObject, ctx: StrategyContext): void;
  /** Clears fields the user may not set on create (status, …), sets generation. May mutate. */
  prepareForCreate?(obj: KubeObject, ctx: StrategyContext): void | Promise<void>;
  /** Keeps fields the user may not change on update of this (sub)resource; bumps generation on spec changes. May mutate obj. */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void | Promise<void>;
  /**
   * Normalises an object after validation, just before it is stored (RESTCreateStrategy.Canonicalize),
   * e.g. the namespace's kubernetes.io/metadata.name label once a generated name is known. May mutate.
   * (Additive: kinds.)
   */
  canonicalize?(obj: KubeObject, ctx: StrategyContext): void;
  validate?(obj: KubeObject, ctx: StrategyContext): FieldError[] | Promise<FieldError[]>;
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] | Promise<FieldError[]>;
  warningsOnCreate?(obj: KubeObject, ctx: StrategyContext): string[];
  warningsOnUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): string[];
  /**
   * Finalizers outside metadata.finalizers that keep a deleted object stored
   * (a namespace's spec.finalizers). The object is removed only when these
   * and metadata.finalizers are all gone. (Additive: api.)
   */
  pendingFinalizers?(obj: KubeObject): readonly string[];
  /** Called on the copy that becomes Terminating when a delete starts (a namespace's status.phase). May mutate. (Additive: api.) */
  prepareForDeletion?(obj: KubeObject, ctx: StrategyContext): void;
  /** Called after a successful delete (release allocations, …). */
  afterDelete?(obj: KubeObject, ctx: StrategyContext): void | Promise<void>;
  /**
   * Kinds that are deleted gracefully (kube's RESTGracefulDeleteStrategy.CheckGracefulDelete;
   * pods): the grace period in seconds a delete gives this object, from the
   * request's gracePeriodSeconds (undefined when the request names none; a
   * negative one arrives as 1) or the object's own default. 0 marks the object
   * and removes it at once; undefined deletes it as other kinds are deleted.
   * The API layer applies it through `gracefulDeletionMark` (graceful-deletion.ts). (Additive: kinds.)
   */
  gracefulDeletion?(obj: KubeObject, requestedGraceSeconds: number | undefined): number | undefined;
  /** PUT of a missing object creates it (e.g. most kinds: false; Endpoints, Lease: true). */
  allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion is allowed (unconditional update). */
  allowUnconditionalUpdate?: boolean;
}

export interface TableColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly format?: string;
  readonly description?: string;
  /** 0 for the default view; higher shows with -o wide. */
  readonly priority: number;
}

export interface TableDefinition {
  readonly columns: readonly TableColumn[];
  /** One row's cells, in column order. */
  cells(obj: KubeObject, now: number): unknown[];
}

export interface SubresourceDefinition {
  /** 'status', 'scale', 'log', 'binding', … */
  readonly name: string;
  /** The kind exchanged (same as the parent for status; 'Scale' for scale; …). */
  readonly kind: string;
  readonly group?: string;
  readonly version?: string;
  readonly verbs: readonly Verb[];
  /**
   * 'status': a status-like view of the parent object (GET/PUT/PATCH of the
   * whole object, only the subresource's fields change).
   * 'custom': served by `handler`.
   */
  readonly type: 'status' | 'custom';
  /** For 'status' subresources: the top-level fields the subresource may change (default ['status']). */
  readonly fields?: readonly string[];
  readonly handler?: string;
  /**
   * For the 'scale' handler: where the replica counts and the selector live in
   * the parent (JSON paths as in a CRD's scale subresource). A built-in
   * `labelSelectorPath` may point at a LabelSelector or a map selector, which
   * the handler formats as a selector string. (Additive: kinds.)
   */
  readonly scale?: { readonly specReplicasPath: string; readonly statusReplicasPath: string; readonly labelSelectorPath?: string };
}

export interface ResourceVersionDefinition {
  /** 'v1', 'v2', 'v1beta1' … */
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  /**
   * Whether a default server serves this version (false for alpha and most
   * beta versions in 1.32); --runtime-config can turn it on or off.
   * Absent means true.
   */
  readonly enabledByDefault?: boolean;
  /** Name of the root definition in the schema table, or an inline node (CRDs). */
  readonly schema: SchemaNode;
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
  readonly table?: TableDefinition;
}

export interface ResourceDefinition {
  readonly group: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly verbs: readonly Verb[];
  readonly versions: readonly ResourceVersionDefinition[];
  readonly subresources?: readonly SubresourceDefinition[];
  readonly strategy: Strategy;
  /** Field selectors beyond metadata.name and metadata.namespace: label → value getter. */
  readonly fieldSelectors?: Readonly<Record<string, (obj: KubeObject) => string | undefined>>;
  /** Default table when a version has none (kube's default: Name, Created At). */
  readonly table?: TableDefinition;
  /** Converts an object between served versions (absent when there is one version or the shapes are equal). */
  convert?(obj: KubeObject, toVersion: string): KubeObject;
  /** Objects never stored (review objects): create returns the computed object. */
  readonly virtual?: boolean;
  /** For virtual resources: computes the response to a create. */
  readonly handler?: string;
  /** DELETE answers with the deleted object instead of a Status (pods, services, …). */
  readonly returnDeletedObject?: boolean;
  /** Default propagation policy when a delete names none (kube: Background for most; Orphan for batch/v1 jobs, …). */
  readonly defaultPropagationPolicy?: 'Background' | 'Orphan' | 'Foreground';
  /** Strategic merge patch is refused (custom resources). */
  readonly noStrategicMerge?: boolean;
  /**
   * The objects live in another resource's storage (events.k8s.io events are
   * core v1 Events). The handlers read and write that resource's keys and
   * convert with these functions; hooks of this definition see objects in this
   * definition's own storage version. (Additive: kinds.)
   */
  readonly sharedStorage?: {
    readonly group: string;
    readonly resource: string;
    /** From this definition's storage version to the shared resource's storage version. */
    toStorage(obj: KubeObject): KubeObject;
    /** From the shared resource's storage version to this definition's storage version. */
    fromStorage(obj: KubeObject): KubeObject;
  };
}
