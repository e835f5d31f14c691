// Label and field selectors as kube-apiserver 1.32 parses, validates and
// matches them. Handlers call parseLabelSelector / parseFieldSelector on the
// query parameters (each throws kube's 400 StatusError), then
// validateFieldSelector with the kind's field labels, then match objects.

export { SelectorError, isSelectorError } from './selector-error';
export type { LabelOperator, LabelRequirement, Labels } from './label-requirement';
export { newRequirement, requirementMatches, requirementString } from './label-requirement';
export { parseLabelRequirements } from './label-parser';
export { LabelSelector, parseLabelSelector, tryParseLabelSelector, labelRequirementsForAuthorization } from './label-selector';
export type { LabelSelectorObject, LabelSelectorRequirementObject, LabelSelectorValidationOptions } from './label-selector-object';
export {
  labelSelectorAsSelector,
  validateLabelSelector,
  validateLabelSelectorRequirement,
  validateLabels,
  validateLabelName,
  isEmptyLabelSelector,
} from './label-selector-object';
export type { FieldRequirement, FieldOperator, Fields, FieldGetter, FieldTransform } from './field-selector';
export {
  FieldSelector,
  parseFieldSelector,
  parseFieldRequirements,
  tryParseFieldSelector,
  escapeFieldValue,
  unescapeFieldValue,
  fieldRequirementsForAuthorization,
} from './field-selector';
export type { FieldLabelPolicy } from './field-labels';
export {
  DEFAULT_FIELD_LABELS,
  registeredFieldLabels,
  customResourceFieldLabels,
  convertFieldLabel,
  validateFieldSelector,
  selectorForNamedRequest,
} from './field-labels';
