// The PodSecurity admission plugin (kube-apiserver's built-in
// pod-security-admission), validating only:
// - namespaces: the pod-security labels must be valid on create and whenever
//   they change (422 Invalid on metadata.labels[...]); tightening the enforce
//   level warns about the existing pods that would violate it;
// - pods: refused (403) when they violate the namespace's enforce level, with
//   warnings for the warn level and audit annotations for the audit level;
//   updates are checked only when a container image changes or a container
//   (ephemeral ones included) is added; status, binding, eviction, exec,
//   attach, log, portforward and proxy are not checked;
// - pod controllers (deployments, jobs …): never refused, their templates get
//   the warn-level warnings and audit-level annotations only.
// Exemptions (usernames, namespaces, runtimeClasses) and defaults come from a
// PodSecurityConfiguration; 1.32 has none by default and privileged:latest
// everywhere.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { nameOf, obj, type PodMetadata, type PodSpec } from './check-types';
import { aggregate, evaluatePod, forbiddenDetail, levelVersionString, type AggregateResult, type LevelVersion } from './evaluator';
import { podsInNamespaceWarnings } from './namespace-pods';
import { extractPod, isPodController } from './pod-spec';
import { compareLevels, DEFAULT_POLICY, LABEL_PREFIX, policyToEvaluate, sameLevelVersion, sameVersion, type Policy } from './policy-labels';

export interface PodSecurityExemptions {
  readonly usernames?: readonly string[];
  readonly namespaces?: readonly string[];
  readonly runtimeClasses?: readonly string[];
}

export interface PodSecurityConfig {
  readonly defaults?: Policy;
  readonly exemptions?: PodSecurityExemptions;
}

/** Pod subresources PodSecurity lets through unchecked. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

const ENFORCE_POLICY_ANNOTATION = `${LABEL_PREFIX}enforce-policy`;
const AUDIT_VIOLATIONS_ANNOTATION = `${LABEL_PREFIX}audit-violations`;
const EXEMPT_ANNOTATION = `${LABEL_PREFIX}exempt`;
const ERROR_ANNOTATION = `${LABEL_PREFIX}error`;

function labelsOf(o: KubeObject | undefined): Record<string, string> | undefined {
  return o?.metadata?.labels as Record<string, string> | undefined;
}

function imagesChanged(a: Record<string, unknown>, b: Record<string, unknown>, annotations: Record<string, unknown>, oldAnnotations: Record<string, unknown>): boolean {
  if (a.image !== b.image) return true;
  const key = `container.seccomp.security.alpha.kubernetes.io/${nameOf(a)}`;
  return annotations[key] !== oldAnnotations[key];
}

/** kube's isSignificantPodUpdate: only images, added containers and ephemeral containers matter on an update. */
export function isSignificantPodUpdate(pod: KubeObject, oldPod: KubeObject): boolean {
  const spec = obj((pod as Record<string, unknown>).spec) ?? {};
  const oldSpec = obj((oldPod as Record<string, unknown>).spec) ?? {};
  const ann = obj(pod.metadata?.annotations) ?? {};
  const oldAnn = obj(oldPod.metadata?.annotations) ?? {};
  for (const field of ['containers', 'initContainers']) {
    const now = Array.isArray(spec[field]) ? (spec[field] as Record<string, unknown>[]) : [];
    const before = Array.isArray(oldSpec[field]) ? (oldSpec[field] as Record<string, unknown>[]) : [];
    if (now.length !== before.length) return true;
    for (let i = 0; i < now.length; i++) if (imagesChanged(obj(now[i]) ?? {}, obj(before[i]) ?? {}, ann, oldAnn)) return true;
  }
  const oldEphemeral = Array.isArray(oldSpec.ephemeralContainers) ? (oldSpec.ephemeralContainers as Record<string, unknown>[]) : [];
  for (const c of Array.isArray(spec.ephemeralContainers) ? (spec.ephemeralContainers as Record<string, unknown>[]) : []) {
    const before = oldEphemeral.find((o) => nameOf(obj(o) ?? {}) === nameOf(obj(c) ?? {}));
    if (!before) return true;
    if (imagesChanged(obj(c) ?? {}, obj(before) ?? {}, ann, oldAnn)) return true;
  }
  return false;
}

export function createPodSecurityPlugin(config: PodSecurityConfig = {}): AdmissionPlugin {
  const defaults = config.defaults ?? DEFAULT_POLICY;
  const exempt = config.exemptions ?? {};
  const exemptNamespace = (ns: string) => ns !== '' && (exempt.namespaces ?? []).includes(ns);
  const exemptUser = (user: string | undefined) => !!user && (exempt.usernames ?? []).includes(user);
  const exemptRuntimeClass = (rc: unknown) => typeof rc === 'string' && rc !== '' && (exempt.runtimeClasses ?? []).includes(rc);

  async function namespacePolicy(attrs: AdmissionAttributes, ctx: AdmissionContext) {
    const ns = await ctx.reader.get({ group: '', resource: 'namespaces' }, '', attrs.namespace);
    if (!ns) throw errors.internal(new Error(`failed to lookup namespace ${JSON.stringify(attrs.namespace)}`));
    return policyToEvaluate(labelsOf(ns), defaults);
  }

  /** kube's warning when an exempt namespace sets a policy that will not apply. */
  function exemptNamespaceWarning(name: string, policy: Policy, labels: Record<string, string> | undefined): string | undefined {
    const all = [policy.enforce, policy.audit, policy.warn];
    const defaultsAll = [defaults.enforce, defaults.audit, defaults.warn];
    if (all.every((lv) => lv.level === 'privileged')) return undefined;
    if (all.every((lv, i) => sameLevelVersion(lv, defaultsAll[i]!))) return undefined;
    const l = labels ?? {};
    const parts: string[] = [];
    const mode = (key: string, lv: LevelVersion) => {
      if (lv.level !== 'privileged' && (l[`${LABEL_PREFIX}${key}`] !== undefined || l[`${LABEL_PREFIX}${key}-version`] !== undefined)) parts.push(`${key}=${levelVersionString(lv)}`);
    };
    mode('enforce', policy.enforce);
    mode('audit', policy.audit);
    mode('warn', policy.warn);
    return `namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
  }

  function validateNamespace(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> | void {
    if (attrs.subresource !== '' || !attrs.object) return;
    const name = attrs.object.metadata?.name ?? attrs.name;
    const next = policyToEvaluate(labelsOf(attrs.object), defaults);
    const invalid = () => errors.invalid({ group: '', kind: 'Namespace' }, name, next.errors);
    const warnIfExempt = () => {
      if (!exemptNamespace(name)) return false;
      const w = exemptNamespaceWarning(name, next.policy, labelsOf(attrs.object));
      if (w) attrs.addWarning(w);
      return true;
    };
    if (attrs.operation === 'CREATE') {
      if (next.errors.length) throw invalid();
      warnIfExempt();
      return;
    }
    if (attrs.operation !== 'UPDATE' || !attrs.oldObject) return;
    const old = policyToEvaluate(labelsOf(attrs.oldObject), defaults);
    if (next.errors.length && (old.errors.length === 0 || JSON.stringify(next.errors) !== JSON.stringify(old.errors))) throw invalid();
    const e = next.policy.enforce;
    const o = old.policy.enforce;
    if (sameLevelVersion(e, o) || e.level === 'privileged') return;
    // Same version and a looser or equal level: nothing existing can newly violate it.
    if (sameVersion(e.version, o.version) && compareLevels(e.level, o.level) < 1) return;
    if (warnIfExempt()) return;
    return ctx.reader.list({ group: '', resource: 'pods' }, name).then((pods) => {
      for (const w of podsInNamespaceWarnings(name, e, pods, exemptRuntimeClass)) attrs.addWarning(w);
    });
  }

  function evaluate(attrs: AdmissionAttributes, policy: Policy, policyErrors: string | undefined, meta: PodMetadata, spec: PodSpec, enforce: boolean): void {
    if (exemptRuntimeClass(spec.runtimeClassName)) {
      attrs.addAuditAnnotation(EXEMPT_ANNOTATION, 'runtimeClass');
      return;
    }
    if (policyErrors) attrs.addAuditAnnotation(ERROR_ANNOTATION, `Failed to parse policy: ${policyErrors}`);
    const cache = new Map<string, AggregateResult>();
    const resultFor = (lv: LevelVersion) => {
      const key = levelVersionString(lv);
      let r = cache.get(key);
      if (!r) cache.set(key, (r = aggregate(evaluatePod(lv, meta, spec))));
      return r;
    };
    let denied: string | undefined;
    if (enforce) {
      attrs.addAuditAnnotation(ENFORCE_POLICY_ANNOTATION, levelVersionString(policy.enforce));
      const r = resultFor(policy.enforce);
      if (!r.allowed) denied = `violates PodSecurity ${JSON.stringify(levelVersionString(policy.enforce))}: ${forbiddenDetail(r)}`;
    }
    const audit = resultFor(policy.audit);
    if (!audit.allowed) {
      attrs.addAuditAnnotation(AUDIT_VIOLATIONS_ANNOTATION, `would violate PodSecurity ${JSON.stringify(levelVersionString(policy.audit))}: ${forbiddenDetail(audit)}`);
    }
    if (denied !== undefined) {
      throw errors.forbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, attrs.name, denied);
    }
    const warn = resultFor(policy.warn);
    if (!warn.allowed) attrs.addWarning(`would violate PodSecurity ${JSON.stringify(levelVersionString(policy.warn))}: ${forbiddenDetail(warn)}`);
  }

  function policyErrorText(errs: readonly { field: string; value?: unknown; detail?: string }[]): string | undefined {
    if (!errs.length) return undefined;
    const parts = errs.map((e) => `${e.field}: Invalid value: ${JSON.stringify(e.value)}: ${e.detail ?? ''}`);
    return parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  }

  async function validatePod(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    if (IGNORED_POD_SUBRESOURCES.has(attrs.subresource) || !attrs.object) return;
    if (exemptNamespace(attrs.namespace)) return void attrs.addAuditAnnotation(EXEMPT_ANNOTATION, 'namespace');
    if (exemptUser(attrs.user?.username)) return void attrs.addAuditAnnotation(EXEMPT_ANNOTATION, 'user');
    const { policy, errors: errs } = await namespacePolicy(attrs, ctx);
    if (!errs.length && policy.enforce.level === 'privileged' && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return;
    if (attrs.operation === 'UPDATE' && attrs.oldObject && !isSignificantPodUpdate(attrs.object, attrs.oldObject)) return;
    const pod = extractPod('pods', attrs.object)!;
    evaluate(attrs, policy, policyErrorText(errs), pod.metadata, pod.spec, true);
  }

  async function validateController(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    if (attrs.subresource !== '' || !attrs.object) return;
    if (exemptNamespace(attrs.namespace)) return void attrs.addAuditAnnotation(EXEMPT_ANNOTATION, 'namespace');
    if (exemptUser(attrs.user?.username)) return void attrs.addAuditAnnotation(EXEMPT_ANNOTATION, 'user');
    const ns = await ctx.reader.get({ group: '', resource: 'namespaces' }, '', attrs.namespace);
    if (!ns) return void attrs.addAuditAnnotation(ERROR_ANNOTATION, `failed to lookup namespace ${JSON.stringify(attrs.namespace)}: namespaces ${JSON.stringify(attrs.namespace)} not found`);
    const { policy, errors: errs } = policyToEvaluate(labelsOf(ns), defaults);
    if (!errs.length && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return;
    const pod = extractPod(attrs.resource.resource, attrs.object);
    if (!pod) return;
    evaluate(attrs, policy, policyErrorText(errs), pod.metadata, pod.spec, false);
  }

  return {
    name: 'PodSecurity',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    validate(attrs, ctx) {
      const { group, resource } = attrs.resource;
      if (group === '' && resource === 'namespaces') return validateNamespace(attrs, ctx);
      if (group === '' && resource === 'pods') return validatePod(attrs, ctx);
      if (isPodController(group, resource)) return validateController(attrs, ctx);
    },
  };
}
