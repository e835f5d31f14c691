// fieldValidation=Ignore|Warn|Strict for request bodies: the integration point
// between the handlers and the schema module's unknown/duplicate field
// detection. Returns the Warning texts (Warn) or throws the 400 (Strict).

import type { ServedResource } from './registry';
import type { BodyEncoding } from './body';
import type { FieldValidationDirective } from './write-options';

export function checkUnknownFields(
  served: ServedResource,
  obj: Record<string, unknown>,
  text: string,
  encoding: BodyEncoding,
  directive: FieldValidationDirective,
): string[] {
  // Wired to src/core/schema/field-validation.ts once the generated schemas land.
  void served;
  void obj;
  void text;
  void encoding;
  void directive;
  return [];
}
