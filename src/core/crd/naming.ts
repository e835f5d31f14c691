// The names a CRD may serve under (apiextensions' NamingConditionController
// and EstablishingController, as pure functions): each requested name is
// accepted when it is already this CRD's or not used by another CRD of the
// same group (KubeTab also counts the built-in resources of that group, which
// a real server would shadow instead); the conditions NamesAccepted and
// Established follow with kube's reasons and messages.

import type { ResourceDefinition } from '../kinds/types';
import { deepEqual } from '../kinds/validation/deep-equal';
import { ESTABLISHED, findCondition, NAMES_ACCEPTED } from './conditions';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from './types';

interface UsedNames {
  readonly resources: Set<string>;
  readonly kinds: Set<string>;
}

function usedNamesInGroup(group: string, crds: readonly CustomResourceDefinition[], builtins: readonly ResourceDefinition[]): UsedNames {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const crd of crds) {
    if (crd.spec?.group !== group) continue;
    const accepted = crd.status?.acceptedNames ?? {};
    resources.add(accepted.plural ?? '');
    resources.add(accepted.singular ?? '');
    for (const s of accepted.shortNames ?? []) resources.add(s);
    kinds.add(accepted.kind ?? '');
    kinds.add(accepted.listKind ?? '');
  }
  for (const d of builtins) {
    if (d.group !== group) continue;
    resources.add(d.plural);
    resources.add(d.singular);
    for (const s of d.shortNames ?? []) resources.add(s);
    kinds.add(d.kind);
    kinds.add(d.listKind);
  }
  return { resources, kinds };
}

/** equalToAcceptedOrFresh: the error text when a requested name is taken, else undefined. */
function conflict(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

export interface NamingResult {
  readonly acceptedNames: CustomResourceDefinitionNames;
  readonly namesAccepted: CustomResourceDefinitionCondition;
  readonly established: CustomResourceDefinitionCondition;
}

/** calculateNamesAndConditions of the naming controller. */
export function calculateNames(crd: CustomResourceDefinition, allCrds: readonly CustomResourceDefinition[], builtins: readonly ResourceDefinition[]): NamingResult {
  const group = crd.spec?.group ?? '';
  const others = allCrds.filter((c) => c.metadata?.name !== crd.metadata?.name);
  // The CRD's own accepted names count as used too, as the lister returns it with the others.
  const used = usedNamesInGroup(group, [...others, crd], builtins);
  const requested = crd.spec?.names ?? {};
  const accepted = crd.status?.acceptedNames ?? {};
  const next: CustomResourceDefinitionNames = { ...accepted };
  let status: CustomResourceDefinitionCondition['status'] = 'Unknown';
  let reason = '';
  let message = '';
  const fail = (why: string, text: string) => {
    status = 'False';
    reason = why;
    message = text;
  };

  const plural = conflict(requested.plural ?? '', accepted.plural ?? '', used.resources);
  if (plural) fail('PluralConflict', plural);
  else next.plural = requested.plural ?? '';
  const singular = conflict(requested.singular ?? '', accepted.singular ?? '', used.resources);
  if (singular) fail('SingularConflict', singular);
  else next.singular = requested.singular ?? '';
  if (!deepEqual(requested.shortNames ?? [], accepted.shortNames ?? [])) {
    const mine = new Set(accepted.shortNames ?? []);
    const errs: string[] = [];
    for (const shortName of requested.shortNames ?? []) {
      if (mine.has(shortName)) continue;
      if (shortName === accepted.plural || shortName === accepted.singular) continue;
      const e = conflict(shortName, '', used.resources);
      if (e) errs.push(e);
    }
    if (errs.length) fail('ShortNamesConflict', errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
    else if (requested.shortNames?.length) next.shortNames = requested.shortNames;
    else delete next.shortNames;
  }
  const kind = conflict(requested.kind ?? '', accepted.kind ?? '', used.kinds);
  if (kind) fail('KindConflict', kind);
  else next.kind = requested.kind ?? '';
  const listKind = conflict(requested.listKind ?? '', accepted.listKind ?? '', used.kinds);
  if (listKind) fail('ListKindConflict', listKind);
  else next.listKind = requested.listKind ?? '';
  if (requested.categories?.length) next.categories = requested.categories;
  else delete next.categories;

  if (status === 'Unknown') {
    status = 'True';
    reason = 'NoConflicts';
    message = 'no conflicts found';
  }
  const namesAccepted: CustomResourceDefinitionCondition = { type: NAMES_ACCEPTED, status, reason, message };
  let established: CustomResourceDefinitionCondition = findCondition(crd, ESTABLISHED) ?? {
    type: ESTABLISHED,
    status: 'False',
    reason: 'NotAccepted',
    message: 'not all names are accepted',
  };
  if (established.status !== 'True' && status === 'True') {
    established = { type: ESTABLISHED, status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: orderedNames(next), namesAccepted, established };
}

/** CustomResourceDefinitionNames in Go field order, with omitempty applied. */
export function orderedNames(n: CustomResourceDefinitionNames): CustomResourceDefinitionNames {
  const out: CustomResourceDefinitionNames = { plural: n.plural ?? '' };
  if (n.singular) out.singular = n.singular;
  if (n.shortNames?.length) out.shortNames = n.shortNames;
  out.kind = n.kind ?? '';
  if (n.listKind) out.listKind = n.listKind;
  if (n.categories?.length) out.categories = n.categories;
  return out;
}

/** The Established condition the establishing controller sets. */
export const ESTABLISHED_TRUE: CustomResourceDefinitionCondition = {
  type: ESTABLISHED,
  status: 'True',
  reason: 'InitialNamesAccepted',
  message: 'the initial names have been accepted',
};
