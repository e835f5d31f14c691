// fieldValidation=Ignore|Warn|Strict for request bodies, and the decode
// errors of built-in kinds: the handlers' side of src/core/schema's field
// validation. Returns the Warning texts (Warn) or throws the 400 (Strict or a
// type error), and prunes fields the kind does not have.

import { applyFieldValidation, builtinBodyProblems, decodeError, type DecodeTarget } from '../schema/field-validation';
import { getBuiltinSchemaTable } from '../schema/builtin-table';
import { pruneBuiltin } from '../schema/prune';
import type { SchemaTable } from '../schema/types';
import type { ServedResource } from './registry';
import type { BodyEncoding } from './body';
import type { FieldValidationDirective } from './write-options';
import { decodeCustomResourceBody, isCustomResource } from '../crd/decode';

export function schemaTableFor(served: ServedResource): SchemaTable {
  void served;
  return getBuiltinSchemaTable();
}

function targetOf(served: ServedResource, obj: Record<string, unknown>, text: string): DecodeTarget {
  const apiVersion = typeof obj['apiVersion'] === 'string' ? (obj['apiVersion'] as string) : '';
  return {
    kind: typeof obj['kind'] === 'string' ? (obj['kind'] as string) : '',
    version: apiVersion.slice(apiVersion.lastIndexOf('/') + 1),
    intoKind: served.definition.kind,
    body: text,
  };
}

/**
 * Checks a decoded body against the kind's schema: a Go type error is a 400,
 * unknown and duplicate fields follow the directive; unknown fields are then
 * dropped from `obj` (in place), as decoding into the Go type drops them.
 */
export function checkUnknownFields(
  served: ServedResource,
  obj: Record<string, unknown>,
  text: string,
  encoding: BodyEncoding,
  directive: FieldValidationDirective,
): string[] {
  // Custom resources: structural pruning (unknown fields as strict errors) and schema defaults, as the CRD codec does.
  if (isCustomResource(served)) return decodeCustomResourceBody(served, obj, text, encoding === 'yaml', directive);
  const table = schemaTableFor(served);
  const root = served.version.schema;
  const problems = builtinBodyProblems(text, root, table, { yaml: encoding === 'yaml', parsed: obj });
  const target = targetOf(served, obj, text);
  if (problems.error !== undefined) throw decodeError(target, problems.error);
  const warnings = applyFieldValidation(directive, problems.strictErrors, target);
  pruneBuiltin(obj, root, table);
  return warnings;
}
