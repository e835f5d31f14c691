// The vocabulary of admission (k8s.io/apiserver/pkg/admission): the
// attributes of a request as a plugin sees them, the plugin interface and the
// reader plugins use to look at other objects. Names follow the Go package so
// the upstream plugins can be read side by side.
//
// A plugin may mutate (admit), validate, or both. Mutating plugins run first,
// in the chain's fixed order, on the object before the kind's own
// prepare/validate hooks; validating plugins run after the kind's validation,
// on the object that is about to be stored. Both may be async.

import type { Clock } from '../clock';
import type { KubeObject } from '../kinds/types';
import type { Attributes as AuthorizerAttributes, UserInfo } from '../auth/types';

/** admission.Operation. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/**
 * admission.Attributes. `object` is the object being written (mutable in the
 * mutating phase, in the resource's storage version); `oldObject` is the
 * stored one on UPDATE and DELETE. `options` is the request's
 * CreateOptions/UpdateOptions/PatchOptions/DeleteOptions as JSON.
 */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
  readonly namespace: string;
  /** The object's name; '' on a create with generateName (kube's attributes do the same). */
  readonly name: string;
  object?: KubeObject;
  readonly oldObject?: KubeObject;
  readonly options?: Readonly<Record<string, unknown>>;
  readonly dryRun: boolean;
  /** The requesting user; absent when authentication is not configured. */
  readonly user?: UserInfo;
  /** Adds a warning returned to the client as a `Warning: 299 - "…"` header. */
  addWarning(message: string): void;
  /** Adds an audit annotation (a domain-qualified key such as `pod-security.kubernetes.io/enforce-policy`). */
  addAuditAnnotation(key: string, value: string): void;
}

/** Read access to other objects, at the current revision (kube's informer listers). */
export interface AdmissionReader {
  get(resource: { group: string; resource: string }, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** All objects of a resource, in one namespace or (namespace '') across all. */
  list(resource: { group: string; resource: string }, namespace: string): Promise<KubeObject[]>;
  /** The served resource of a kind (a policy's paramKind), undefined when the kind is not served. */
  resourceForKind?(apiVersion: string, kind: string): { group: string; resource: string; namespaced: boolean } | undefined;
  /**
   * The resource's collection when the server keeps it in memory and it is
   * current (collection-cache.ts), for answers without waiting; undefined
   * means "use get or list". Its objects are shared: never modify them.
   */
  cached?(resource: { group: string; resource: string }): CachedCollection | undefined;
}

/** A collection kept current in memory: the same answers as AdmissionReader's get and list, synchronously. */
export interface CachedCollection {
  get(namespace: string, name: string): KubeObject | undefined;
  /** In key order (namespace, then name), as list returns them. Shared: copy before sorting. */
  list(namespace: string): readonly KubeObject[];
}

/** What the chain hands every plugin besides the attributes. */
export interface AdmissionContext {
  readonly reader: AdmissionReader;
  readonly clock: Clock;
  /** Random lowercase alphanumerics (kube's utilrand.String), injectable for tests. */
  readonly randomString: (length: number) => string;
  /** Server services (allocators, quota accounting …) keyed by name. */
  readonly services: Readonly<Record<string, unknown>>;
  /** The server's authorizer chain (plugins that ask "may this user …", e.g. the certificate plugins); absent without access control. */
  readonly authorize?: (attrs: AuthorizerAttributes) => Promise<{ readonly decision: string }>;
}

/**
 * admission.Interface + MutationInterface + ValidationInterface. A plugin
 * rejects a request by throwing a StatusError (usually errors.forbidden via
 * admissionForbidden in ./errors); the chain returns it to the client as is.
 */
export interface AdmissionPlugin {
  /** The kube-apiserver name (--enable-admission-plugins). */
  readonly name: string;
  /** Whether the plugin looks at this operation at all (admission.Handler); answers for the operation alone (the chain asks once per operation). */
  handles(operation: AdmissionOperation): boolean;
  /** Mutating phase. May change attrs.object. A plugin with nothing to do answers synchronously (undefined), and the chain goes on without waiting. */
  admit?(attrs: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void>;
  /** Validating phase. Must not change attrs.object. */
  validate?(attrs: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void>;
}

/** What a plugin is built from: the server's flags (kube-apiserver command-line flags). */
export interface AdmissionPluginConfig {
  readonly flags: Readonly<Record<string, string | undefined>>;
}

/** A plugin factory: the chain builds each enabled plugin once per server. */
export type AdmissionPluginFactory = (config: AdmissionPluginConfig) => AdmissionPlugin;
