// SubjectAccessReview, SelfSubjectAccessReview, LocalSubjectAccessReview and
// SelfSubjectRulesReview (authorization.k8s.io v1, v1beta1): created by POST,
// never stored. The spec is validated as kube-apiserver validates it (422 with
// its texts), turned into authorizer attributes, and answered through the
// configured authorizer chain. v1beta1 names the groups field `group`.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { goNonResourceAttributes, goObjectMeta, invalidValue, requiredValue, reviewInvalid, type RawFieldError } from './invalid';
import { parseFieldSelectorRequirements, parseLabelSelectorRequirements } from '../selector-requirements';
import type { Attributes, Decision, RulesResult, SelectorRequirement, UserInfo } from '../types';

const GROUP = 'authorization.k8s.io';

interface SelectorAttributes {
  rawSelector?: string;
  requirements?: { key: string; operator: string; values?: string[] }[];
}

interface ResourceAttributesJson {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: SelectorAttributes;
  labelSelector?: SelectorAttributes;
}
interface NonResourceAttributesJson {
  path?: string;
  verb?: string;
}
interface SpecJson {
  resourceAttributes?: ResourceAttributesJson | null;
  nonResourceAttributes?: NonResourceAttributesJson | null;
  user?: string;
  groups?: string[];
  group?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

export interface AccessReviewDeps {
  authorize(attrs: Attributes): Promise<Decision>;
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult>;
}

function specOf(body: KubeObject): SpecJson {
  return (body.spec ?? {}) as SpecJson;
}

function metadataEmpty(meta: Record<string, unknown> | undefined, allowNamespace: boolean): boolean {
  for (const [k, v] of Object.entries(meta ?? {})) {
    if (k === 'managedFields') continue;
    if (allowNamespace && k === 'namespace') continue;
    // creationTimestamp: null is what an empty ObjectMeta serialises to.
    if (k === 'creationTimestamp' && v === null) continue;
    if (v === undefined || v === '' || (typeof v === 'object' && v !== null && Object.keys(v).length === 0)) continue;
    return false;
  }
  return true;
}

function validateSelector(sel: SelectorAttributes | undefined, path: string): RawFieldError[] {
  if (!sel) return [];
  const errs: RawFieldError[] = [];
  const raw = sel.rawSelector ?? '';
  const reqs = sel.requirements ?? [];
  if (raw && reqs.length) errs.push(invalidValue(`${path}.rawSelector`, JSON.stringify(raw), 'may not specified at the same time as requirements'));
  if (!raw && !reqs.length) errs.push(requiredValue(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  return errs;
}

function validateSpec(spec: SpecJson, requireSubject: boolean): RawFieldError[] {
  const errs: RawFieldError[] = [];
  const ra = spec.resourceAttributes ?? undefined;
  const nra = spec.nonResourceAttributes ?? undefined;
  if (ra && nra) errs.push(invalidValue('spec.nonResourceAttributes', goNonResourceAttributes(nra), 'cannot be specified in combination with resourceAttributes'));
  if (!ra && !nra) errs.push(invalidValue('spec.resourceAttributes', '"null"', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (requireSubject && !spec.user && !(spec.groups ?? spec.group ?? []).length) {
    errs.push(invalidValue('spec.user', JSON.stringify(spec.user ?? ''), 'at least one of user or group must be specified'));
  }
  if (ra) {
    errs.push(...validateSelector(ra.fieldSelector, 'spec.resourceAttributes.fieldSelector'));
    errs.push(...validateSelector(ra.labelSelector, 'spec.resourceAttributes.labelSelector'));
  }
  return errs;
}

function selectorRequirements(
  sel: SelectorAttributes | undefined,
  parse: (s: string) => { requirements?: SelectorRequirement[]; error?: string },
): { requirements?: SelectorRequirement[]; error?: string } {
  if (!sel) return {};
  if (sel.rawSelector) return parse(sel.rawSelector);
  const known = ['In', 'NotIn', 'Exists', 'DoesNotExist'];
  // Unknown operators from newer clients are skipped, never treated as a match.
  const requirements = (sel.requirements ?? [])
    .filter((r) => known.includes(r.operator))
    .map((r) => ({ key: r.key, operator: r.operator as SelectorRequirement['operator'], values: [...(r.values ?? [])] }));
  return { requirements };
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
export function attributesFromSpec(user: UserInfo, spec: SpecJson): Attributes {
  const ra = spec.resourceAttributes ?? undefined;
  if (ra) {
    const attrs: { -readonly [K in keyof Attributes]: Attributes[K] } = {
      user,
      verb: ra.verb ?? '',
      resourceRequest: true,
      namespace: ra.namespace ?? '',
      apiGroup: ra.group ?? '',
      apiVersion: ra.version || '*',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      name: ra.name ?? '',
      path: '',
    };
    const fs = selectorRequirements(ra.fieldSelector, parseFieldSelectorRequirements);
    if (fs.requirements) attrs.fieldSelectorRequirements = fs.requirements;
    if (fs.error) attrs.fieldSelectorParsingError = fs.error;
    const ls = selectorRequirements(ra.labelSelector, parseLabelSelectorRequirements);
    if (ls.requirements) attrs.labelSelectorRequirements = ls.requirements;
    if (ls.error) attrs.labelSelectorParsingError = ls.error;
    return attrs;
  }
  const nra = spec.nonResourceAttributes ?? {};
  return { user, verb: nra.verb ?? '', resourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path: nra.path ?? '' };
}

function statusFrom(decision: Decision): Record<string, unknown> {
  const status: Record<string, unknown> = { allowed: decision.decision === 'Allow' };
  if (decision.decision === 'Deny') status.denied = true;
  if (decision.reason) status.reason = decision.reason;
  if (decision.error) status.evaluationError = decision.error;
  return status;
}

/** The user a (Local)SubjectAccessReview asks about: the spec's user, groups, uid and extra. */
function userFromSpec(spec: SpecJson): UserInfo {
  return {
    username: spec.user ?? '',
    groups: [...(spec.groups ?? spec.group ?? [])],
    ...(spec.uid ? { uid: spec.uid } : {}),
    ...(spec.extra ? { extra: spec.extra } : {}),
  };
}

/** A (Self)SubjectAccessReview's metadata must be empty. */
function metadataMustBeEmpty(body: KubeObject): RawFieldError[] {
  const meta = (body.metadata ?? {}) as Record<string, unknown>;
  return metadataEmpty(meta, false) ? [] : [invalidValue('metadata', goObjectMeta(meta), 'must be empty')];
}

function respond(body: KubeObject, status: Record<string, unknown>): KubeObject {
  const metadata = { ...((body.metadata as Record<string, unknown>) ?? {}), creationTimestamp: null };
  return { ...body, metadata, spec: body.spec ?? {}, status };
}

/** SubjectAccessReview: may the named user do this? (cluster-scoped). */
export async function createSubjectAccessReview(body: KubeObject, deps: AccessReviewDeps): Promise<KubeObject> {
  const spec = specOf(body);
  const errs = validateSpec(spec, true);
  errs.push(...metadataMustBeEmpty(body));
  if (errs.length) throw reviewInvalid(GROUP, 'SubjectAccessReview', errs);
  const user = userFromSpec(spec);
  const decision = await deps.authorize(attributesFromSpec(user, spec));
  return respond(body, statusFrom(decision));
}

/** SelfSubjectAccessReview: may I do this? (kubectl auth can-i). */
export async function createSelfSubjectAccessReview(body: KubeObject, user: UserInfo | undefined, deps: AccessReviewDeps): Promise<KubeObject> {
  const spec = specOf(body);
  const errs = validateSpec(spec, false);
  errs.push(...metadataMustBeEmpty(body));
  if (errs.length) throw reviewInvalid(GROUP, 'SelfSubjectAccessReview', errs);
  if (!user) throw errors.badRequest('no user present on request');
  const decision = await deps.authorize(attributesFromSpec(user, spec));
  return respond(body, statusFrom(decision));
}

/** LocalSubjectAccessReview: a SubjectAccessReview confined to the URL's namespace. */
export async function createLocalSubjectAccessReview(body: KubeObject, requestNamespace: string, deps: AccessReviewDeps): Promise<KubeObject> {
  if (!requestNamespace) throw errors.badRequest(`namespace is required on this type: ${requestNamespace}`);
  const meta = (body.metadata ?? {}) as Record<string, unknown>;
  const objectNamespace = typeof meta.namespace === 'string' && meta.namespace ? meta.namespace : requestNamespace;
  if (objectNamespace !== requestNamespace) throw errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${requestNamespace}`);
  const withNs: KubeObject = { ...body, metadata: { ...meta, namespace: requestNamespace } };
  const spec = specOf(withNs);
  const errs = validateSpec(spec, true);
  if (!metadataEmpty(withNs.metadata as Record<string, unknown>, true)) {
    errs.push(invalidValue('metadata', goObjectMeta(withNs.metadata as Record<string, unknown>), 'must be empty except for namespace'));
  }
  const ra = spec.resourceAttributes ?? undefined;
  if (ra && (ra.namespace ?? '') !== requestNamespace) errs.push(invalidValue('spec.resourceAttributes.namespace', JSON.stringify(ra.namespace ?? ''), 'must match metadata.namespace'));
  if (spec.nonResourceAttributes) errs.push(invalidValue('spec.nonResourceAttributes', goNonResourceAttributes(spec.nonResourceAttributes), 'disallowed on this kind of request'));
  if (errs.length) throw reviewInvalid(GROUP, 'LocalSubjectAccessReview', errs);
  const user = userFromSpec(spec);
  const decision = await deps.authorize(attributesFromSpec(user, spec));
  return respond(withNs, statusFrom(decision));
}

/** SelfSubjectRulesReview: what may I do in a namespace? (kubectl auth can-i --list). */
export async function createSelfSubjectRulesReview(body: KubeObject, user: UserInfo | undefined, deps: AccessReviewDeps): Promise<KubeObject> {
  if (!user) throw errors.badRequest('no user present on request');
  const namespace = ((body.spec ?? {}) as { namespace?: string }).namespace ?? '';
  if (!namespace) throw errors.badRequest('no namespace on request');
  const rules = await deps.rulesFor(user, namespace);
  const status: Record<string, unknown> = {
    resourceRules: rules.resourceRules.map((r) => {
      const out: Record<string, unknown> = { verbs: [...r.verbs] };
      if (r.apiGroups?.length) out.apiGroups = [...r.apiGroups];
      if (r.resources?.length) out.resources = [...r.resources];
      if (r.resourceNames?.length) out.resourceNames = [...r.resourceNames];
      return out;
    }),
    nonResourceRules: rules.nonResourceRules.map((r) => {
      const out: Record<string, unknown> = { verbs: [...r.verbs] };
      if (r.nonResourceURLs?.length) out.nonResourceURLs = [...r.nonResourceURLs];
      return out;
    }),
    incomplete: rules.incomplete,
  };
  if (rules.evaluationError) status.evaluationError = rules.evaluationError;
  // kube builds a fresh object: the spec does not come back.
  return { kind: 'SelfSubjectRulesReview', apiVersion: body.apiVersion ?? `${GROUP}/v1`, metadata: { creationTimestamp: null }, spec: {}, status };
}
