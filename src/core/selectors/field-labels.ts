// Which fields a kind may be selected on, and the 400 kube-apiserver answers
// for any other (handlers/get.go: FieldSelector.Transform with the scheme's
// ConvertFieldLabel, the error wrapped in errors.NewBadRequest).
//
// Three shapes exist in 1.32:
// - kinds with a registered field label conversion func
//   (AddFieldLabelConversionFunc, e.g. pods, nodes, events, secrets):
//   "field label not supported: <label>"; some accept an old alias
//   (pods: spec.host → spec.nodeName);
// - kinds without one (runtime.DefaultMetaV1FieldSelectorConversion):
//   `"<label>" is not a known field selector: only "metadata.name", "metadata.namespace"`;
// - custom resources: metadata.name, metadata.namespace unless
//   cluster-scoped, and the version's selectableFields; otherwise
//   "field label not supported: <label>".

import { goQuote } from '../util/go/quote';
import { FieldSelector } from './field-selector';
import { SelectorError, isSelectorError } from './selector-error';

export interface FieldLabelPolicy {
  /** Field labels accepted as written. */
  readonly supported: readonly string[];
  /** Old label → the label it is converted to. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** The message for a label that is neither supported nor an alias. */
  readonly unsupported: (label: string) => string;
}

const fieldLabelNotSupported = (label: string) => `field label not supported: ${label}`;

/** A kind with a registered conversion func accepting `supported` (and `aliases`). */
export function registeredFieldLabels(supported: readonly string[], aliases: Readonly<Record<string, string>> = {}): FieldLabelPolicy {
  return { supported, aliases, unsupported: fieldLabelNotSupported };
}

/** A kind without a registered conversion func: name and namespace only. */
export const DEFAULT_FIELD_LABELS: FieldLabelPolicy = {
  supported: ['metadata.name', 'metadata.namespace'],
  unsupported: (label) => `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

/** A custom resource version: metadata.name, metadata.namespace when namespaced, and its selectableFields paths. */
export function customResourceFieldLabels(clusterScoped: boolean, selectableFields: readonly string[] = []): FieldLabelPolicy {
  const supported = clusterScoped ? ['metadata.name', ...selectableFields] : ['metadata.name', 'metadata.namespace', ...selectableFields];
  return { supported, unsupported: fieldLabelNotSupported };
}

/** ConvertFieldLabel for one term; throws SelectorError with the policy's message. */
export function convertFieldLabel(policy: FieldLabelPolicy, label: string, value: string): { field: string; value: string } {
  if (policy.supported.includes(label)) return { field: label, value };
  const alias = policy.aliases && Object.prototype.hasOwnProperty.call(policy.aliases, label) ? policy.aliases[label] : undefined;
  if (alias !== undefined) return { field: alias, value };
  throw new SelectorError(policy.unsupported(label));
}

function isStringList(p: FieldLabelPolicy | readonly string[]): p is readonly string[] {
  return Array.isArray(p);
}

/**
 * Checks every term against the kind's field labels (a policy, or the list of
 * a kind with a registered conversion func) and returns the selector
 * with aliases converted. The first unsupported term (in kube's order, i.e.
 * sorted by term text) is a 400 BadRequest StatusError.
 */
export function validateFieldSelector(selector: FieldSelector, policy: FieldLabelPolicy | readonly string[]): FieldSelector {
  if (isStringList(policy)) policy = registeredFieldLabels(policy);
  const resolved = policy;
  try {
    return selector.transform((field, value) => convertFieldLabel(resolved, field, value));
  } catch (err) {
    if (isSelectorError(err)) throw err.toStatusError();
    throw err;
  }
}

/**
 * A watch routed to one object (…/pods/name?watch): kube treats the name as a
 * `metadata.name=<name>` term, and a fieldSelector naming anything else is a
 * 400 BadRequest.
 */
export function selectorForNamedRequest(selector: FieldSelector, name: string): FieldSelector {
  if (selector.empty()) return FieldSelector.oneTermEqual('metadata.name', name);
  if (selector.requiresExactMatch('metadata.name') !== name) {
    throw new SelectorError("fieldSelector metadata.name doesn't match requested name").toStatusError();
  }
  return selector;
}
