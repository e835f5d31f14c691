// The bridge between the API handlers and the admission chain: one
// AdmissionRun per request carries the request's attributes (resource,
// namespace, name, user, dryRun, options), collects the plugins' warnings and
// audit annotations, and hands resource-store the mutate/validate hooks it
// calls at kube's points: mutate before the kind's prepareForCreate /
// prepareForUpdate, validate after the kind's validation, just before the
// object is stored.

import type { ServerContext } from '../api/context';
import type { ServedResource } from '../api/registry';
import type { KubeObject } from '../kinds/types';
import type { AdmissionChain } from './chain';
import { decodeManagedFields } from '../fieldmanager';
import { randomAlphanumerics, storeReader } from './reader';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation } from './types';

/** The key of the chain in ServerContext.services. */
export const ADMISSION_CHAIN = 'admission';

export function admissionChainOf(ctx: ServerContext): AdmissionChain | undefined {
  return ctx.services[ADMISSION_CHAIN] as AdmissionChain | undefined;
}

/**
 * The request's own record (kube's per-request warning recorder and audit
 * context): what admission adds reaches the response and the audit event even
 * when the request is then refused.
 */
export interface AdmissionRecorder {
  addWarning(message: string): void;
  addAuditAnnotation(key: string, value: string): void;
}

/** kube's InvalidManagedFieldsAfterMutatingAdmissionWarningFormat. */
export const INVALID_MANAGED_FIELDS_AFTER_ADMISSION =
  '.metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: ';

export interface AdmissionRequest {
  readonly served: ServedResource;
  readonly namespace: string;
  /** The URL's name; for a POST, the body's name ('' with generateName). */
  readonly name: string;
  readonly subresource: string;
  readonly dryRun: boolean;
  readonly options?: Readonly<Record<string, unknown>>;
  /** The kind of the request's object when it is not the resource's own (pods/binding → Binding). */
  readonly kind?: { group: string; version: string; kind: string };
  /** Where warnings and audit annotations go besides this run's own lists. */
  readonly recorder?: AdmissionRecorder;
}

/** Hooks resource-store calls (WriteOptions.admission). `old` undefined means a create. */
export interface AdmissionHooks {
  mutate(obj: KubeObject, old: KubeObject | undefined): Promise<void>;
  validate(obj: KubeObject, old: KubeObject | undefined): Promise<void>;
  /** DELETE (both phases) with the stored object, after the delete's preconditions. */
  deleting(old: KubeObject, name: string): Promise<void>;
}

// What plugins get besides the attributes holds nothing of the request: one per server
// (per-request contexts are copies of the server's that share its services record).
const contexts = new WeakMap<object, AdmissionContext>();

function admissionContextOf(ctx: ServerContext): AdmissionContext {
  let actx = contexts.get(ctx.services);
  if (!actx) {
    const access = ctx.access;
    actx = {
      reader: storeReader(ctx),
      clock: ctx.clock,
      randomString: randomAlphanumerics,
      services: ctx.services,
      // The chain as it is at the call: a reloaded --authorization-config replaces it.
      ...(access ? { authorize: (attrs) => access.authorizers.authorize(attrs) } : {}),
    };
    contexts.set(ctx.services, actx);
  }
  return actx;
}

export class AdmissionRun implements AdmissionHooks {
  readonly warnings: string[] = [];
  readonly annotations: Record<string, string> = {};
  private readonly chain: AdmissionChain | undefined;
  private readonly actx: AdmissionContext;
  private resource?: AdmissionAttributes['resource'];
  private kind?: AdmissionAttributes['kind'];

  constructor(
    private readonly ctx: ServerContext,
    private readonly req: AdmissionRequest,
  ) {
    this.chain = admissionChainOf(ctx);
    this.actx = admissionContextOf(ctx);
  }

  attributes(operation: AdmissionOperation, object: KubeObject | undefined, oldObject: KubeObject | undefined, name?: string): AdmissionAttributes {
    const { served } = this.req;
    // The same resource and kind objects for every phase of the request (plugins only read them).
    this.resource ??= { group: served.group, version: served.version.name, resource: served.definition.plural };
    this.kind ??= this.req.kind ?? { group: served.group, version: served.version.name, kind: served.definition.kind };
    return {
      operation,
      resource: this.resource,
      subresource: this.req.subresource,
      kind: this.kind,
      namespace: this.req.namespace,
      name: name ?? this.req.name,
      object,
      oldObject,
      options: this.req.options,
      dryRun: this.req.dryRun,
      ...(this.ctx.user ? { user: this.ctx.user } : {}),
      addWarning: (message) => this.addWarning(message),
      addAuditAnnotation: (key, value) => {
        this.annotations[key] = value;
        this.req.recorder?.addAuditAnnotation(key, value);
      },
    };
  }

  addWarning(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
    this.req.recorder?.addWarning(message);
  }

  /**
   * Mutating phase of a create or update. As kube wraps it for every write the
   * field manager tracks (NewManagedFieldsValidatingAdmissionController),
   * managed fields a plugin left undecodable are put back as they were before
   * admission, with a warning, instead of failing the request.
   */
  async mutate(obj: KubeObject, old: KubeObject | undefined): Promise<void> {
    if (!this.chain) return;
    const name = obj.metadata?.name ?? this.req.name;
    // A snapshot as JSON text (the fields are JSON): cheaper than a structured clone, parsed only to put them back.
    const before = obj.metadata?.managedFields === undefined ? undefined : JSON.stringify(obj.metadata.managedFields);
    await this.chain.admit(this.attributes(old ? 'UPDATE' : 'CREATE', obj, old, name), this.actx);
    const after = obj.metadata?.managedFields;
    if (after === undefined || after === null) return;
    try {
      decodeManagedFields(after);
    } catch (err) {
      if (before === undefined) delete obj.metadata!.managedFields;
      else obj.metadata!.managedFields = JSON.parse(before) as typeof after;
      this.addWarning(INVALID_MANAGED_FIELDS_AFTER_ADMISSION + (err instanceof Error ? err.message : String(err)));
    }
  }

  async validate(obj: KubeObject, old: KubeObject | undefined): Promise<void> {
    if (!this.chain) return;
    const name = obj.metadata?.name ?? this.req.name;
    await this.chain.validate(this.attributes(old ? 'UPDATE' : 'CREATE', obj, old, name), this.actx);
  }

  async deleting(old: KubeObject, name: string): Promise<void> {
    if (!this.chain) return;
    const attrs = this.attributes('DELETE', undefined, old, name);
    await this.chain.admit(attrs, this.actx);
    await this.chain.validate(attrs, this.actx);
  }

  /** CONNECT (exec, attach, portforward, proxy): both phases, the object being the connection's options (PodExecOptions …). */
  async connect(options?: KubeObject): Promise<void> {
    if (!this.chain) return;
    const attrs = this.attributes('CONNECT', options, undefined);
    await this.chain.admit(attrs, this.actx);
    await this.chain.validate(attrs, this.actx);
  }

  /** Both phases on a create whose object is not stored as such (pods/binding, pods/eviction, serviceaccounts/token). */
  async create(obj: KubeObject): Promise<void> {
    if (!this.chain) return;
    const attrs = this.attributes('CREATE', obj, undefined, obj.metadata?.name ?? this.req.name);
    await this.chain.admit(attrs, this.actx);
    await this.chain.validate(attrs, this.actx);
  }
}

/** The CreateOptions/UpdateOptions/PatchOptions admission plugins see (attributes' options). */
export function writeOptionsObject(
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  options: { readonly dryRun: boolean; readonly fieldManager?: string; readonly fieldValidation?: string; readonly force?: boolean },
): Record<string, unknown> {
  const out: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  if (options.dryRun) out['dryRun'] = ['All'];
  if (options.fieldManager) out['fieldManager'] = options.fieldManager;
  if (options.force !== undefined) out['force'] = options.force;
  return out;
}
