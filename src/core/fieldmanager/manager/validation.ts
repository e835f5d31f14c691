// Validation of managed-fields entries and field manager names, with
// apimachinery's texts (ValidateManagedFields, ValidateFieldManager):
//
//   metadata.managedFields[0].operation: Invalid value: "Foo": must be `Apply` or `Update`
//   fieldManager: Too long: …128 bytes
//   fieldManager: Invalid value: "a\x01": invalid character U+0001 (at position 1)

import { fieldErrors, type FieldError } from '../../errors/field-errors';
import type { ManagedFieldsEntry } from '../../kinds/types';
import { isGoPrint } from '../../util/go/quote';
import { utf8Length } from '../../util/go/strings';

export const FIELD_MANAGER_MAX_LENGTH = 128;
/** apimachinery's MaxSubresourceNameLength. */
export const MAX_SUBRESOURCE_NAME_LENGTH = 256;

/** ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(fieldManager: string, path = 'fieldManager'): FieldError[] {
  const errs: FieldError[] = [];
  if (utf8Length(fieldManager) > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldErrors.tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let offset = 0;
  for (const ch of fieldManager) {
    if (!isGoPrint(ch.codePointAt(0)!)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(fieldErrors.invalid(path, fieldManager, `invalid character U+${code} (at position ${offset})`));
    }
    offset += utf8Length(ch);
  }
  return errs;
}

/** ValidateManagedFields, for ObjectMeta validation. */
export function validateManagedFields(entries: readonly ManagedFieldsEntry[] | undefined, path = 'metadata.managedFields'): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((entry, i) => {
    const at = `${path}[${i}]`;
    const e = entry ?? {};
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      errs.push(fieldErrors.invalid(`${at}.operation`, e.operation ?? '', 'must be `Apply` or `Update`'));
    }
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') errs.push(fieldErrors.invalid(`${at}.fieldsType`, e.fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(e.manager ?? '', `${at}.manager`));
    if (e.subresource && utf8Length(e.subresource) > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(fieldErrors.tooLong(`${at}.subresource`, MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}
