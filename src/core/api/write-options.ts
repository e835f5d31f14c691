// Query options of create, update, patch and delete (CreateOptions,
// UpdateOptions, PatchOptions, DeleteOptions), validated as kube-apiserver
// validates them: 422 "<Kind>Options.meta.k8s.io "" is invalid: …".

import { errors } from '../errors/status';
import { fieldErrors, goStringSlice, type FieldError } from '../errors/field-errors';
import { queryBool } from './query-bool';

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

export interface WriteQueryOptions {
  readonly dryRun: boolean;
  readonly fieldManager: string | undefined;
  readonly fieldValidation: FieldValidationDirective;
  readonly force: boolean | undefined;
}

type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

function isPrintable(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return false;
  }
  return true;
}

export function validateDryRun(values: readonly string[]): FieldError[] {
  const meaningful = values.filter((v) => v !== '');
  if (meaningful.some((v) => v !== 'All')) return [fieldErrors.notSupported('dryRun', goStringSlice(meaningful), ['All'])];
  return [];
}

export function parseWriteOptions(query: URLSearchParams, kind: OptionsKind): WriteQueryOptions {
  const errs: FieldError[] = [];
  const dryRunValues = query.getAll('dryRun');
  errs.push(...validateDryRun(dryRunValues));
  const fieldManager = query.get('fieldManager') ?? undefined;
  if (fieldManager !== undefined) {
    if (fieldManager.length > 128) errs.push(fieldErrors.tooLong('fieldManager', 128));
    if (!isPrintable(fieldManager)) errs.push(fieldErrors.invalid('fieldManager', fieldManager, 'must only contain printable characters'));
  }
  const rawValidation = query.get('fieldValidation') ?? '';
  if (!['', 'Ignore', 'Warn', 'Strict'].includes(rawValidation)) {
    errs.push(fieldErrors.notSupported('fieldValidation', rawValidation, ['', 'Ignore', 'Strict', 'Warn']));
  }
  const forceText = query.get('force');
  let force: boolean | undefined;
  if (forceText !== null) force = queryBool(forceText);
  if (force !== undefined && kind !== 'PatchOptions') {
    // force is a PatchOptions field only; kube's query decoder ignores it elsewhere.
    force = undefined;
  }
  if (errs.length) throw errors.invalid({ group: 'meta.k8s.io', kind }, '', errs);
  return {
    dryRun: dryRunValues.includes('All'),
    fieldManager,
    fieldValidation: (rawValidation || 'Warn') as FieldValidationDirective,
    force,
  };
}
