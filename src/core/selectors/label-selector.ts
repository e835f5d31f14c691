// A parsed label selector (labels.Selector): the AND of its requirements,
// kept sorted by key. `everything` matches all label sets, `nothing` none
// (the selector of a nil metav1.LabelSelector).

import type { SelectorRequirement } from '../auth/types';
import { parseLabelRequirements, sortByKey } from './label-parser';
import { requirementMatches, requirementString, type LabelRequirement, type Labels } from './label-requirement';
import { parsedOrBadRequest, parsedOrErrorText } from './selector-error';

export class LabelSelector {
  private static readonly EVERYTHING = new LabelSelector([], false);
  private static readonly NOTHING = new LabelSelector([], true);

  private constructor(
    private readonly reqs: readonly LabelRequirement[],
    /** labels.Nothing(): matches no label set and is not "empty". */
    readonly isNothing: boolean,
  ) {}

  static everything(): LabelSelector {
    return LabelSelector.EVERYTHING;
  }

  static nothing(): LabelSelector {
    return LabelSelector.NOTHING;
  }

  static fromRequirements(requirements: readonly LabelRequirement[]): LabelSelector {
    return new LabelSelector(sortByKey(requirements), false);
  }

  /** Matches(labels): every requirement holds. */
  matches(labels: Labels): boolean {
    if (this.isNothing) return false;
    return this.reqs.every((r) => requirementMatches(r, labels));
  }

  /** Empty(): selects everything (no requirement). */
  empty(): boolean {
    return !this.isNothing && this.reqs.length === 0;
  }

  /** The requirements, sorted by key. */
  requirements(): readonly LabelRequirement[] {
    return this.reqs;
  }

  /** Add(): a new selector with more requirements, re-sorted by key. */
  add(...requirements: LabelRequirement[]): LabelSelector {
    if (this.isNothing) return this;
    return new LabelSelector(sortByKey([...this.reqs, ...requirements]), false);
  }

  /** RequiresExactMatch: the single value the first requirement on `label` pins, if it pins one. */
  requiresExactMatch(label: string): string | undefined {
    const r = this.reqs.find((x) => x.key === label);
    if (!r) return undefined;
    if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
    return undefined;
  }

  /** String(): the canonical text, e.g. `app=web,tier in (a,b),!legacy`. */
  toString(): string {
    return this.isNothing ? '' : this.reqs.map(requirementString).join(',');
  }
}

/**
 * labels.Parse for the labelSelector query parameter. An empty string selects
 * everything. A malformed selector throws kube-apiserver's 400 BadRequest
 * StatusError, with the Go parser's message as the Status message.
 */
export function parseLabelSelector(text: string): LabelSelector {
  return parsedOrBadRequest(() => LabelSelector.fromRequirements(parseLabelRequirements(text)));
}

/** Like parseLabelSelector but returns the parse error text (authorization keeps it as LabelSelectorParsingErr). */
export function tryParseLabelSelector(text: string): { selector: LabelSelector; error?: undefined } | { selector?: undefined; error: string } {
  return parsedOrErrorText(() => LabelSelector.fromRequirements(parseLabelRequirements(text)));
}

/**
 * The requirements a webhook/SubjectAccessReview sees (AuthorizeWithSelectors):
 * =, == and in become In; != and notin NotIn; exists Exists; ! DoesNotExist.
 * Gt and Lt have no API form and are left out, as kube's webhook authorizer does.
 */
export function labelRequirementsForAuthorization(selector: LabelSelector): SelectorRequirement[] {
  const out: SelectorRequirement[] = [];
  for (const r of selector.requirements()) {
    switch (r.operator) {
      case '=':
      case '==':
      case 'in':
        out.push({ key: r.key, operator: 'In', values: [...r.values] });
        break;
      case '!=':
      case 'notin':
        out.push({ key: r.key, operator: 'NotIn', values: [...r.values] });
        break;
      case 'exists':
        out.push({ key: r.key, operator: 'Exists', values: [] });
        break;
      case '!':
        out.push({ key: r.key, operator: 'DoesNotExist', values: [] });
        break;
    }
  }
  return out;
}
