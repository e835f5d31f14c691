// The fieldSelector and labelSelector of a list, watch or deletecollection
// as the requirement lists authorizers see with AuthorizeWithSelectors (beta,
// on by default in 1.32). Parsing is the selectors module's (kube's grammar and
// error texts); a parse error is kept for the authorizer instead of failing.

import { fieldRequirementsForAuthorization, labelRequirementsForAuthorization, tryParseFieldSelector, tryParseLabelSelector } from '../selectors';
import type { SelectorRequirement } from './types';

export interface ParsedRequirements {
  readonly requirements?: SelectorRequirement[];
  readonly error?: string;
}

export function parseFieldSelectorRequirements(selector: string): ParsedRequirements {
  const parsed = tryParseFieldSelector(selector);
  if (parsed.error !== undefined) return { error: parsed.error };
  return { requirements: fieldRequirementsForAuthorization(parsed.selector) };
}

export function parseLabelSelectorRequirements(selector: string): ParsedRequirements {
  const parsed = tryParseLabelSelector(selector);
  if (parsed.error !== undefined) return { error: parsed.error };
  return { requirements: labelRequirementsForAuthorization(parsed.selector) };
}
