// admissionregistration.k8s.io: mutating and validating webhook
// configurations and validating admission policies and bindings (v1; the
// policies also at v1beta1, off by default), and the mutating admission
// policies (v1alpha1, off). All in the "api-extensions" category.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, TableDefinition } from '../../types';
import { isDNS1123Subdomain } from '../../validation/names';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, rec, str, table } from '../common/table';
import { compareGoStrings } from '../../../util/go/strings';
import { validateLabelSelector } from '../common/workload';
import { validateEnum } from '../core/pod-spec/validation';

type Obj = Record<string, unknown>;
const GROUP = 'admissionregistration.k8s.io';
const CATEGORIES = ['api-extensions'];

function defaultRules(rules: unknown): void {
  for (const r of arr(rules).map(rec)) if (!r.scope) r.scope = '*';
}

function defaultWebhook(w: Obj, mutating: boolean): void {
  if (!w.failurePolicy) w.failurePolicy = 'Fail';
  if (!w.matchPolicy) w.matchPolicy = 'Equivalent';
  if (w.namespaceSelector === undefined || w.namespaceSelector === null) w.namespaceSelector = {};
  if (w.objectSelector === undefined || w.objectSelector === null) w.objectSelector = {};
  if (w.timeoutSeconds === undefined || w.timeoutSeconds === null) w.timeoutSeconds = 10;
  if (mutating && !w.reinvocationPolicy) w.reinvocationPolicy = 'Never';
  defaultRules(w.rules);
  const service = rec(w.clientConfig).service;
  if (service !== undefined && service !== null && (rec(service).port === undefined || rec(service).port === null)) rec(service).port = 443;
}

function validateWebhook(w: Obj, path: string, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(w.name);
  if (!name) errs.push(fieldErrors.required(`${path}.name`));
  else {
    errs.push(...isDNS1123Subdomain(name).map((m) => fieldErrors.invalid(`${path}.name`, name, m)));
    if (name.split('.').length < 3) errs.push(fieldErrors.invalid(`${path}.name`, name, 'should be a domain with at least three segments separated by dots'));
  }
  arr(w.rules).forEach((r, i) => {
    const rule = rec(r);
    const p = `${path}.rules[${i}]`;
    if (arr(rule.operations).length === 0) errs.push(fieldErrors.required(`${p}.operations`));
    if (arr(rule.apiGroups).length === 0) errs.push(fieldErrors.required(`${p}.apiGroups`));
    if (arr(rule.apiVersions).length === 0) errs.push(fieldErrors.required(`${p}.apiVersions`));
    if (arr(rule.resources).length === 0) errs.push(fieldErrors.required(`${p}.resources`));
    errs.push(...validateEnum(rule.scope, `${p}.scope`, ['*', 'Cluster', 'Namespaced'], false));
  });
  errs.push(...validateEnum(w.failurePolicy, `${path}.failurePolicy`, ['Fail', 'Ignore'], false));
  errs.push(...validateEnum(w.matchPolicy, `${path}.matchPolicy`, ['Equivalent', 'Exact'], false));
  if (w.sideEffects === undefined || w.sideEffects === null || w.sideEffects === '') errs.push(fieldErrors.required(`${path}.sideEffects`, 'must specify one of None, NoneOnDryRun'));
  else errs.push(...validateEnum(w.sideEffects, `${path}.sideEffects`, ['None', 'NoneOnDryRun']));
  const versions = arr(w.admissionReviewVersions);
  if (versions.length === 0) errs.push(fieldErrors.required(`${path}.admissionReviewVersions`, 'must specify one of v1, v1beta1'));
  else if (!versions.some((v) => v === 'v1' || v === 'v1beta1')) {
    errs.push(fieldErrors.invalid(`${path}.admissionReviewVersions`, versions, 'must include at least one of v1, v1beta1'));
  }
  if (typeof w.timeoutSeconds === 'number' && (w.timeoutSeconds < 1 || w.timeoutSeconds > 30)) {
    errs.push(fieldErrors.invalid(`${path}.timeoutSeconds`, w.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  const cc = rec(w.clientConfig);
  const hasURL = cc.url !== undefined && cc.url !== null;
  const hasService = cc.service !== undefined && cc.service !== null;
  if (hasURL === hasService) errs.push(fieldErrors.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  if (hasURL && !/^https:\/\//.test(str(cc.url))) errs.push(fieldErrors.invalid(`${path}.clientConfig.url`, cc.url, "'https' is the only allowed URL scheme"));
  if (hasService) {
    const svc = rec(cc.service);
    if (!str(svc.namespace)) errs.push(fieldErrors.required(`${path}.clientConfig.service.namespace`, 'service namespace is required'));
    if (!str(svc.name)) errs.push(fieldErrors.required(`${path}.clientConfig.service.name`, 'service name is required'));
  }
  errs.push(...validateLabelSelector(w.namespaceSelector, `${path}.namespaceSelector`));
  errs.push(...validateLabelSelector(w.objectSelector, `${path}.objectSelector`));
  if (mutating) errs.push(...validateEnum(w.reinvocationPolicy, `${path}.reinvocationPolicy`, ['IfNeeded', 'Never'], false));
  return errs;
}

function validateWebhookConfiguration(cfg: KubeObject, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arr(cfg.webhooks).forEach((w, i) => {
    const hook = rec(w);
    errs.push(...validateWebhook(hook, `webhooks[${i}]`, mutating));
    const name = str(hook.name);
    if (name && names.has(name)) errs.push(fieldErrors.duplicate(`webhooks[${i}].name`, name));
    names.add(name);
  });
  return errs;
}

const WEBHOOKS_TABLE = table([col('Webhooks', 'integer', 'How many webhooks this configuration holds'), AGE_COLUMN], (o, now) => [arr(o.webhooks).length, age(o, now)]);

function webhookConfiguration(plural: string, kind: string, mutating: boolean): ResourceDefinition {
  return defineResource({
    group: GROUP,
    plural,
    kind,
    namespaced: false,
    categories: CATEGORIES,
    versions: [version('v1', `io.k8s.api.admissionregistration.v1.${kind}`, { table: WEBHOOKS_TABLE })],
    strategy: standardStrategy({
      namespaced: false,
      generationFields: ['webhooks'],
      default: (o) => arr(o.webhooks).forEach((w) => defaultWebhook(rec(w), mutating)),
      validate: (o) => validateWebhookConfiguration(o, mutating),
    }),
  });
}

export const mutatingWebhookConfigurationsResource = webhookConfiguration('mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', true);
export const validatingWebhookConfigurationsResource = webhookConfiguration('validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false);

// ---- Validating/Mutating admission policies ----

function defaultMatchResources(m: unknown): void {
  if (m === undefined || m === null) return;
  const mr = rec(m);
  if (!mr.matchPolicy) mr.matchPolicy = 'Equivalent';
  if (mr.namespaceSelector === undefined || mr.namespaceSelector === null) mr.namespaceSelector = {};
  if (mr.objectSelector === undefined || mr.objectSelector === null) mr.objectSelector = {};
  defaultRules(mr.resourceRules);
  defaultRules(mr.excludeResourceRules);
}

function defaultPolicy(p: KubeObject): void {
  const spec = rec(p.spec);
  p.spec = spec;
  if (!spec.failurePolicy) spec.failurePolicy = 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

function validatePolicy(p: KubeObject, mutating: boolean): FieldError[] {
  const spec = rec(p.spec);
  const errs: FieldError[] = [];
  errs.push(...validateEnum(spec.failurePolicy, 'spec.failurePolicy', ['Fail', 'Ignore'], false));
  if (spec.matchConstraints === undefined || spec.matchConstraints === null) {
    errs.push(fieldErrors.required('spec.matchConstraints', 'must be defined'));
  } else if (arr(rec(spec.matchConstraints).resourceRules).length === 0) {
    errs.push(fieldErrors.required('spec.matchConstraints.resourceRules', ''));
  }
  if (mutating) {
    if (arr(spec.mutations).length === 0) errs.push(fieldErrors.required('spec.mutations', 'mutations must contain at least one item'));
  } else if (arr(spec.validations).length === 0 && arr(spec.auditAnnotations).length === 0) {
    errs.push(fieldErrors.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  }
  arr(spec.validations).forEach((v, i) => {
    if (!str(rec(v).expression)) errs.push(fieldErrors.required(`spec.validations[${i}].expression`));
  });
  return errs;
}

function validateBinding(b: KubeObject, mutating: boolean): FieldError[] {
  const spec = rec(b.spec);
  const errs: FieldError[] = [];
  if (!str(spec.policyName)) errs.push(fieldErrors.required('spec.policyName'));
  if (!mutating) {
    const actions = arr(spec.validationActions);
    if (actions.length === 0) errs.push(fieldErrors.required('spec.validationActions'));
    actions.forEach((a, i) => {
      if (!['Audit', 'Deny', 'Warn'].includes(String(a))) errs.push(fieldErrors.notSupported(`spec.validationActions[${i}]`, a, ['Audit', 'Deny', 'Warn']));
    });
    if (actions.includes('Deny') && actions.includes('Warn')) {
      errs.push(fieldErrors.invalid('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
    }
  }
  return errs;
}

/** PARAMKIND: apiVersion/kind whenever spec.paramKind is set, `<unset>` otherwise. */
function paramKind(p: KubeObject): string {
  const spec = rec(p.spec);
  if (spec.paramKind === undefined || spec.paramKind === null) return '<unset>';
  const pk = rec(spec.paramKind);
  return `${str(pk.apiVersion)}/${str(pk.kind)}`;
}

/**
 * PARAMREF: namespace/name, or "*" + "/name" when no namespace is named (the
 * printer cannot tell a cluster-scoped param), or the selector's generated
 * String() when only a selector is given.
 */
function paramRef(b: KubeObject): string {
  const spec = rec(b.spec);
  if (spec.paramRef === undefined || spec.paramRef === null) return '<unset>';
  const ref = rec(spec.paramRef);
  if (str(ref.name)) return str(ref.namespace) ? `${str(ref.namespace)}/${str(ref.name)}` : `*/${str(ref.name)}`;
  if (ref.selector !== undefined && ref.selector !== null) return goLabelSelectorString(rec(ref.selector));
  return '<unset>';
}

/** The protobuf-generated (*metav1.LabelSelector).String(). */
function goLabelSelectorString(selector: Record<string, unknown>): string {
  const labels = rec(selector.matchLabels);
  const keys = Object.keys(labels).sort(compareGoStrings);
  const map = `map[string]string{${keys.map((k) => `${k}: ${String(labels[k])},`).join('')}}`;
  const exprs = arr(selector.matchExpressions)
    .map(rec)
    .map((e) => `LabelSelectorRequirement{Key:${str(e.key)},Operator:${str(e.operator)},Values:[${arr(e.values).map(String).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:${map},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

const VAP_TABLE: TableDefinition = table(
  [col('Validations', 'integer', 'How many CEL validations the policy has'), col('ParamKind', 'string', 'Kind of the parameter resource, if any'), AGE_COLUMN],
  (p, now) => [arr(rec(p.spec).validations).length, paramKind(p), age(p, now)],
);
const MAP_TABLE: TableDefinition = table([col('Mutations', 'integer'), col('ParamKind', 'string'), AGE_COLUMN], (p, now) => [arr(rec(p.spec).mutations).length, paramKind(p), age(p, now)]);
const BINDING_TABLE: TableDefinition = table(
  [col('PolicyName', 'string', 'Name of the policy this binding applies'), col('ParamRef', 'string', 'Parameter resource this binding uses, if any'), AGE_COLUMN],
  (b, now) => [str(rec(b.spec).policyName), paramRef(b), age(b, now)],
);

function versions(kind: string, table: TableDefinition, spec: { name: string; enabledByDefault: boolean; storage: boolean }[]) {
  return spec.map((v) => ({ ...version(v.name, `io.k8s.api.admissionregistration.${v.name}.${kind}`, { storage: v.storage, table }), enabledByDefault: v.enabledByDefault }));
}

export const validatingAdmissionPoliciesResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'validatingadmissionpolicies',
  kind: 'ValidatingAdmissionPolicy',
  namespaced: false,
  categories: CATEGORIES,
  versions: versions('ValidatingAdmissionPolicy', VAP_TABLE, [
    { name: 'v1', enabledByDefault: true, storage: true },
    { name: 'v1beta1', enabledByDefault: false, storage: false },
  ]),
  subresources: [statusSubresource('ValidatingAdmissionPolicy')],
  convert: (obj, toVersion) => ({ ...obj, apiVersion: `${GROUP}/${toVersion}` }),
  strategy: standardStrategy({
    namespaced: false,
    statusFields: ['status'],
    generationFields: ['spec'],
    default: (o) => defaultPolicy(o),
    validate: (o) => validatePolicy(o, false),
  }),
});

export const validatingAdmissionPolicyBindingsResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'validatingadmissionpolicybindings',
  kind: 'ValidatingAdmissionPolicyBinding',
  namespaced: false,
  categories: CATEGORIES,
  versions: versions('ValidatingAdmissionPolicyBinding', BINDING_TABLE, [
    { name: 'v1', enabledByDefault: true, storage: true },
    { name: 'v1beta1', enabledByDefault: false, storage: false },
  ]),
  convert: (obj, toVersion) => ({ ...obj, apiVersion: `${GROUP}/${toVersion}` }),
  strategy: standardStrategy({
    namespaced: false,
    generationFields: ['spec'],
    default: (o) => defaultMatchResources(rec(o.spec).matchResources),
    validate: (o) => validateBinding(o, false),
  }),
});

export const mutatingAdmissionPoliciesResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'mutatingadmissionpolicies',
  kind: 'MutatingAdmissionPolicy',
  namespaced: false,
  categories: CATEGORIES,
  versions: versions('MutatingAdmissionPolicy', MAP_TABLE, [{ name: 'v1alpha1', enabledByDefault: false, storage: true }]),
  strategy: standardStrategy({
    namespaced: false,
    generationFields: ['spec'],
    default: (o) => {
      defaultPolicy(o);
      const spec = rec(o.spec);
      if (!spec.reinvocationPolicy) spec.reinvocationPolicy = 'Never';
    },
    validate: (o) => validatePolicy(o, true),
  }),
});

export const mutatingAdmissionPolicyBindingsResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'mutatingadmissionpolicybindings',
  kind: 'MutatingAdmissionPolicyBinding',
  namespaced: false,
  categories: CATEGORIES,
  versions: versions('MutatingAdmissionPolicyBinding', BINDING_TABLE, [{ name: 'v1alpha1', enabledByDefault: false, storage: true }]),
  strategy: standardStrategy({
    namespaced: false,
    generationFields: ['spec'],
    default: (o) => defaultMatchResources(rec(o.spec).matchResources),
    validate: (o) => validateBinding(o, true),
  }),
});

export function admissionRegistrationResources(): ResourceDefinition[] {
  return [
    mutatingAdmissionPoliciesResource,
    mutatingAdmissionPolicyBindingsResource,
    mutatingWebhookConfigurationsResource,
    validatingAdmissionPoliciesResource,
    validatingAdmissionPolicyBindingsResource,
    validatingWebhookConfigurationsResource,
  ];
}
