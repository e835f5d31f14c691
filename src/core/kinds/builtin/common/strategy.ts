// The pieces most built-in strategies share (k8s.io/kubernetes pkg/registry/*
// strategies): status reset on create, status kept on main-resource updates,
// everything but status kept on status updates, metadata.generation = 1 on
// create and +1 whenever the spec changes, and metadata validation by the
// kind's name rule. A kind composes these with its own defaulting and
// validation through `standardStrategy`.

import type { FieldError } from '../../../errors/field-errors';
import type { KubeObject, Strategy, StrategyContext } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { nameIsDNSSubdomain, type NameValidator } from '../../validation/names';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta';

export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export interface StandardStrategyOptions {
  namespaced: boolean;
  /** The metadata.name rule (DNS-1123 subdomain unless said otherwise). */
  nameRule?: NameValidator;
  /**
   * Top-level fields owned by the status subresource: reset on create, kept on
   * main-resource updates. Empty for kinds without status.
   */
  statusFields?: readonly string[];
  /** The client may set the status on create (Nodes register with theirs). */
  statusSettableOnCreate?: boolean;
  /** Initial value of the status on create (e.g. a Namespace's phase). undefined: status removed. */
  initialStatus?: (obj: KubeObject, ctx: StrategyContext) => unknown;
  /** Kinds that track metadata.generation: the fields whose change bumps it. */
  generationFields?: readonly string[];
  /** Scheme defaulting (SetDefaults_*). */
  default?: (obj: KubeObject, ctx: StrategyContext) => void;
  prepareForCreate?: (obj: KubeObject, ctx: StrategyContext) => void | Promise<void>;
  /** Runs after the standard update preparation of the main resource. */
  prepareForUpdate?: (obj: KubeObject, old: KubeObject, ctx: StrategyContext) => void | Promise<void>;
  /** Runs after the standard preparation of a status update. */
  prepareForStatusUpdate?: (obj: KubeObject, old: KubeObject, ctx: StrategyContext) => void;
  /** Updates through other subresources (ephemeralcontainers, finalize, approval, …): the whole preparation. */
  prepareForSubresourceUpdate?: (subresource: string, obj: KubeObject, old: KubeObject, ctx: StrategyContext) => void;
  /** Validation of updates through other subresources (beyond metadata). */
  validateSubresourceUpdate?: (subresource: string, obj: KubeObject, old: KubeObject, ctx: StrategyContext) => FieldError[];
  canonicalize?: (obj: KubeObject, ctx: StrategyContext) => void;
  /** Kind-specific validation beyond metadata. */
  validate?: (obj: KubeObject, ctx: StrategyContext) => FieldError[] | Promise<FieldError[]>;
  /** Kind-specific update validation beyond metadata (the new object's own validation runs too unless `updateValidatesNew` is false). */
  validateUpdate?: (obj: KubeObject, old: KubeObject, ctx: StrategyContext) => FieldError[] | Promise<FieldError[]>;
  updateValidatesNew?: boolean;
  /** Validation of a status update (beyond metadata). */
  validateStatusUpdate?: (obj: KubeObject, old: KubeObject, ctx: StrategyContext) => FieldError[];
  warningsOnCreate?: (obj: KubeObject, ctx: StrategyContext) => string[];
  warningsOnUpdate?: (obj: KubeObject, old: KubeObject, ctx: StrategyContext) => string[];
  afterDelete?: Strategy['afterDelete'];
  allowCreateOnUpdate?: boolean;
  allowUnconditionalUpdate?: boolean;
}

/** metadata.generation = 1 (create). */
export function setInitialGeneration(obj: KubeObject): void {
  obj.metadata = obj.metadata ?? {};
  obj.metadata.generation = 1;
}

/** metadata.generation + 1 when any of `fields` changed (update). Keeps the old generation otherwise. */
export function bumpGenerationOnChange(obj: KubeObject, old: KubeObject, fields: readonly string[]): void {
  obj.metadata = obj.metadata ?? {};
  const oldGeneration = old.metadata?.generation ?? 0;
  const changed = fields.some((f) => !deepEqual(obj[f], old[f]));
  obj.metadata.generation = changed ? oldGeneration + 1 : oldGeneration;
}

/** Copies `fields` from old to obj (deleting them from obj where old has none). */
export function keepFields(obj: KubeObject, old: KubeObject, fields: readonly string[]): void {
  for (const f of fields) {
    if (old[f] === undefined) delete obj[f];
    else obj[f] = clone(old[f]);
  }
}

/** The top-level fields other than `fields` and the object's identity (apiVersion, kind, metadata). */
export function otherFields(obj: KubeObject, old: KubeObject, fields: readonly string[]): string[] {
  const skip = new Set([...fields, 'apiVersion', 'kind', 'metadata']);
  return [...new Set([...Object.keys(obj), ...Object.keys(old)])].filter((k) => !skip.has(k));
}

async function all(...lists: (FieldError[] | Promise<FieldError[]> | undefined)[]): Promise<FieldError[]> {
  const out: FieldError[] = [];
  for (const l of lists) if (l) out.push(...(await l));
  return out;
}

/**
 * A strategy with kube's usual shape. The subresource in the context decides
 * which part an update may change: '' changes everything but the status
 * fields; 'status' changes only the status fields (and metadata).
 */
export function standardStrategy(o: StandardStrategyOptions): Strategy {
  const statusFields = o.statusFields ?? [];
  const nameRule = o.nameRule ?? nameIsDNSSubdomain;
  const generationFields = o.generationFields;
  return {
    default: o.default,
    async prepareForCreate(obj, ctx) {
      if (!o.statusSettableOnCreate) for (const f of statusFields) delete obj[f];
      if (o.initialStatus && statusFields.length) {
        const initial = o.initialStatus(obj, ctx);
        if (initial !== undefined) obj[statusFields[0]!] = initial;
      }
      if (generationFields) setInitialGeneration(obj);
      await o.prepareForCreate?.(obj, ctx);
    },
    async prepareForUpdate(obj, old, ctx) {
      // kube's ScaleREST writes the parent through the parent's own update strategy, so a
      // scale that changes spec.replicas bumps metadata.generation like any spec change.
      if (ctx.subresource && ctx.subresource !== 'status' && ctx.subresource !== 'scale') {
        if (generationFields) obj.metadata = { ...(obj.metadata ?? {}), generation: old.metadata?.generation ?? 0 };
        o.prepareForSubresourceUpdate?.(ctx.subresource, obj, old, ctx);
        return;
      }
      if (ctx.subresource === 'status') {
        // A status update keeps everything else as it was.
        keepFields(obj, old, otherFields(obj, old, statusFields));
        if (generationFields) obj.metadata = { ...(obj.metadata ?? {}), generation: old.metadata?.generation ?? 0 };
        o.prepareForStatusUpdate?.(obj, old, ctx);
        return;
      }
      keepFields(obj, old, statusFields);
      if (generationFields) bumpGenerationOnChange(obj, old, generationFields);
      await o.prepareForUpdate?.(obj, old, ctx);
    },
    canonicalize: o.canonicalize,
    async validate(obj, ctx) {
      return all(validateObjectMeta(obj.metadata, o.namespaced, nameRule), o.validate?.(obj, ctx));
    },
    async validateUpdate(obj, old, ctx) {
      const meta = validateObjectMetaUpdate(obj.metadata, old.metadata);
      if (ctx.subresource === 'status') return all(meta, o.validateStatusUpdate?.(obj, old, ctx));
      if (ctx.subresource) return all(meta, o.validateSubresourceUpdate?.(ctx.subresource, obj, old, ctx));
      const own = o.updateValidatesNew === false ? undefined : o.validate?.(obj, ctx);
      return all(meta, own, o.validateUpdate?.(obj, old, ctx));
    },
    warningsOnCreate: o.warningsOnCreate,
    warningsOnUpdate: o.warningsOnUpdate,
    afterDelete: o.afterDelete,
    allowCreateOnUpdate: o.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: o.allowUnconditionalUpdate ?? true,
  };
}
